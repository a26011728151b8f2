//! Removing bytes from the middle of the output later, in one pass: the
//! gaps left for the headers of collections of unknown length, and the keys
//! of maps compacted into shape references (see [`Pending`]).

use super::*;

impl Encoder {
    /// Writes the header of a collection that started with a gap at the end
    /// of the gap; the rest of the gap is removed later.
    pub(super) fn close_gap(
        &mut self,
        start: usize,
        kind: Kind,
        count: usize,
        mark: Mark,
    ) -> Result<()> {
        let slack = wire::write_header_in_gap(&mut self.out, start, kind, count)?;
        self.remove_later(start, slack);
        self.settle(start, mark);
        Ok(())
    }

    // ---- ranges to remove ------------------------------------------------

    #[inline]
    pub(super) fn mark(&self) -> Mark {
        Mark {
            ranges: self.pending.ranges.len(),
            bytes: self.pending.bytes,
        }
    }

    pub(super) fn remove_later(&mut self, at: usize, len: usize) {
        if len > 0 {
            self.pending.ranges.push((at, len));
            self.pending.bytes += len;
        }
    }

    /// After a collection that started at `start` recorded ranges: removes
    /// those recorded since `mark` if they are at least half of its bytes.
    pub(super) fn settle(&mut self, start: usize, mark: Mark) {
        if 2 * (self.pending.bytes - mark.bytes) >= self.out.len() - start {
            self.remove_pending(mark);
        }
    }

    /// Removes the ranges recorded since `mark`, in one pass from the first
    /// of them to the end of the output.
    #[inline]
    pub(super) fn remove_pending(&mut self, mark: Mark) {
        if self.pending.ranges.len() != mark.ranges {
            self.remove_pending_ranges(mark);
        }
    }

    pub(super) fn remove_pending_ranges(&mut self, mark: Mark) {
        let ranges = &mut self.pending.ranges[mark.ranges..];
        // Ranges are pushed as collections end, inner ones first: runs that
        // the sort merges in about linear time.
        ranges.sort_by_key(|r| r.0);
        if let Some(&(first, _)) = ranges.first() {
            let mut write = first;
            for i in 0..ranges.len() {
                let (at, len) = ranges[i];
                let next = ranges.get(i + 1).map_or(self.out.len(), |r| r.0);
                self.out.copy_within(at + len..next, write);
                write += next - at - len;
                self.moved += next - at - len;
            }
            self.out.truncate(write);
        }
        self.pending.ranges.truncate(mark.ranges);
        self.pending.bytes = mark.bytes;
    }

    /// The mark of a shaped map that began at `start`: the ranges recorded
    /// since then all lie in its bytes, and those recorded before it began
    /// before them, so they are the ones at or after `start`.
    pub(super) fn mark_since(&self, start: usize) -> Mark {
        let ranges = &self.pending.ranges;
        let inside = ranges.iter().rev().take_while(|r| r.0 >= start);
        let (count, bytes) = inside.fold((0, 0), |(n, b), r| (n + 1, b + r.1));
        Mark {
            ranges: ranges.len() - count,
            bytes: self.pending.bytes - bytes,
        }
    }
}
