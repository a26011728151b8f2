//! The deduplicating encoder's state and its map and array frames.
//!
//! Strings go through the string table. Maps are where the work is: a map
//! starts either as a **shape reference**, when the shape last seen at the
//! same position in the document has the right number of keys, or
//! **explicitly**. Keys of a shaped map are checked against the shape as they
//! arrive; on the first mismatch the map is rewritten in place into explicit
//! form. An explicit map whose keys turn out to equal an earlier shape is
//! compacted into a shape reference when it ends. So the common case (records
//! of the same shape in an array) writes a reference up front and never moves
//! a byte, and the output is always what `docs/spec.md` section 7 prescribes.
//!
//! Both rewrites leave the string table alone: the keys of a shape that
//! existed before the map began were written when that shape was registered,
//! so each is either in the table (written as a reference now) or can never
//! take a slot (eligibility only gets stricter as the table grows).

use surp::__private::Depth;
use surp::__private::dedup;
use surp::__private::wire::{self, Kind};
use surp::{Error, ErrorKind, Result};

use crate::predictions::Predictions;
use crate::shapes::{ShapeTable, combine};
use crate::strings::{Lookup, StringTable, hash_bytes};

/// Bytes kept free before a collection whose count serde did not give; the
/// header is written at the end of the gap when the collection ends, and the
/// rest of the gap is removed later (see [`Pending`]).
const HEADER_GAP: usize = 9;

/// How many bytes of values a compaction may move at once per byte of keys
/// (and header) it removes; above that, the keys are recorded in
/// [`Pending`] and removed later.
const MOVE_PER_REMOVED: usize = 16;

/// Byte ranges of the output to remove, not yet removed.
///
/// Closing the gap of a collection of unknown length, or compacting an
/// explicit map into a shape reference, removes bytes in the middle of the
/// output. Moving what follows at once moves every byte once per enclosing
/// collection that does so: time grew with size times depth. The ranges are
/// recorded instead and removed in one pass: at the end of the document, or
/// before the encoder reads back or copies the bytes of a map (see
/// `make_explicit`), or when the ranges of a collection that just ended are
/// at least half of its bytes (so that the output never holds more than
/// about twice what it will keep). Each pass costs at most twice the bytes
/// it removes or is paid for by a copy that was made anyway, so encoding
/// stays linear in the size of the output, whatever the depth. One path is
/// not: when a map predicted to repeat a shape turns out not to,
/// `make_explicit` copies what it wrote so far, and maps nested in such a
/// map that mispredict too are copied again at every level.
#[derive(Default)]
struct Pending {
    /// `(position, length)`, in no particular order; entries pushed after a
    /// collection opened all lie in its bytes.
    ranges: Vec<(usize, usize)>,
    /// The sum of the lengths.
    bytes: usize,
}

/// The state of [`Pending`] when a collection opened.
#[derive(Clone, Copy, Default)]
pub(crate) struct Mark {
    ranges: usize,
    bytes: usize,
}

/// A stand-in for the field position of array elements in a context hash.
const ARRAY_SLOT: u64 = u64::MAX;

/// The position of a value in the document, as a hash: the root, then for
/// each enclosing map the field index, for each enclosing array a marker.
/// Records at the same position tend to have the same shape.
#[inline]
pub(crate) fn child_context(parent: u64, slot: u64) -> u64 {
    (parent ^ slot.wrapping_mul(0xff51_afd7_ed55_8ccd))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(31)
}

/// The context of an enum variant's map: the enum's context, told apart
/// per variant (by serde's variant index). The slot is unlike a field
/// index (small), an array's marker or a key count (both near `u64::MAX`).
#[inline]
pub(crate) fn variant_context(ctx: u64, index: u32) -> u64 {
    child_context(ctx, 1 << 62 | u64::from(index))
}

/// Predictions are kept per position and key count: maps at one position
/// often take a few shapes (event payloads of several kinds), and the count,
/// known before the first key, tells many of them apart.
#[inline]
fn prediction_key(ctx: u64, count: usize) -> u64 {
    child_context(ctx, !(count as u64))
}

/// Where a key of an explicit map is: its bytes in the output, its text in
/// `key_text`, and its hash.
#[derive(Clone, Copy)]
struct KeyInfo {
    start: usize,
    end: usize,
    text_start: usize,
    text_len: usize,
}

pub(crate) struct Encoder {
    pub(crate) out: Vec<u8>,
    strings: StringTable,
    shapes: ShapeTable,
    /// Context to the shape last written there.
    predictions: Predictions,
    /// Whether any string or shape reference has been written: a document
    /// without one is written without the marker, as plain Surp.
    pub(crate) wrote_reference: bool,
    /// Explicit maps: their string keys, innermost map last.
    keys: Vec<KeyInfo>,
    key_text: Vec<u8>,
    /// Reused while rewriting a map.
    scratch: Vec<u8>,
    /// Ranges of `out` to remove.
    pending: Pending,
    /// The marks of the open arrays of unknown length, innermost last;
    /// each frame knows its index (see [`SeqFrame::declared`]).
    seq_marks: Vec<Mark>,
    /// The open explicit maps' state beyond their frames, innermost last;
    /// each frame knows its index (see [`MapFrame::keys`]).
    explicit: Vec<ExplicitMap>,
    /// Bytes copied from one place of `out` to another, or out of it and
    /// back: what makes encoding linear or not (see
    /// `surp_dedup::__private::to_vec_counting_moves`).
    pub(crate) moved: usize,
    /// How many more arrays and maps may open inside the open ones: deeper
    /// values are an error rather than a stack overflow.
    pub(crate) depth: Depth,
}

/// [`MapFrame::shape`] of an explicit map.
const EXPLICIT: u32 = u32::MAX;

/// An open map: small, because serde moves it at every struct.
///
/// A map written as a shape reference ("shaped") needs only this; an
/// explicit one keeps the rest of its state in [`ExplicitMap`], on the
/// encoder's stack. A shaped map that turns explicit pushes its state then:
/// its nested maps have all ended by the time it can (a key, or its end).
///
/// A frame finds its state by index, not as the top of the stack, and
/// drops what lies above it when it ends: a `Serialize` impl may drop a
/// nested map without ending it (on an error it then ignores), and that
/// map's state must not be taken for an enclosing one's.
#[derive(Clone, Copy)]
pub(crate) struct MapFrame {
    start: usize,
    ctx: u64,
    written: usize,
    /// Shaped: where the shape's keys start (see [`ShapeTable::key_at`]);
    /// explicit: the index of its state in `Encoder::explicit`.
    keys: usize,
    /// Shaped: how many keys the shape has; explicit: 0, so that no key is
    /// compared with a shape's.
    key_count: usize,
    /// Shaped: the shape; explicit: [`EXPLICIT`].
    shape: u32,
    /// How many shapes existed when the map began: the only ones it may be
    /// compacted into.
    shapes_at_start: u32,
}

impl MapFrame {
    /// The context of the value being written now.
    #[inline]
    pub(crate) fn value_context(&self) -> u64 {
        child_context(self.ctx, self.written as u64)
    }
}

/// The state of an open explicit map beyond its [`MapFrame`].
struct ExplicitMap {
    declared: Option<usize>,
    /// Where its string keys start in `keys` and `key_text`.
    keys_base: usize,
    text_base: usize,
    /// Whether every key so far was a string.
    string_keys: bool,
    /// The hash of its keys so far (see [`combine`]).
    seq_hash: u64,
    /// The ranges to remove when the map began.
    mark: Mark,
}

/// An open array.
pub(crate) struct SeqFrame {
    start: usize,
    ctx: u64,
    /// The length serde gave, or for an array of unknown length the index
    /// of its mark in `Encoder::seq_marks` (found by index for the reason
    /// given at [`MapFrame`]).
    declared: std::result::Result<usize, usize>,
    written: usize,
}

impl SeqFrame {
    #[inline]
    pub(crate) fn element_context(&self) -> u64 {
        child_context(self.ctx, ARRAY_SLOT)
    }
}

fn count_error(kind: Kind, declared: usize, written: usize) -> Error {
    surp::__private::error(ErrorKind::LengthMismatch {
        kind,
        declared,
        written,
    })
}

impl Encoder {
    /// An encoder that appends to `out`.
    pub(crate) fn new(out: Vec<u8>, max_dedup_strings: usize, max_dedup_shapes: usize) -> Encoder {
        Encoder {
            out,
            strings: StringTable::new(max_dedup_strings),
            shapes: ShapeTable::new(max_dedup_shapes),
            predictions: Predictions::new(),
            wrote_reference: false,
            // First capacities for a small document (a record or two), so
            // that it does not grow these one element at a time.
            keys: Vec::with_capacity(16),
            key_text: Vec::with_capacity(256),
            scratch: Vec::new(),
            pending: Pending::default(),
            seq_marks: Vec::new(),
            explicit: Vec::with_capacity(4),
            moved: 0,
            depth: Depth::new(surp::DEFAULT_MAX_DEPTH),
        }
    }

    /// Enters an array or map, or fails past the depth limit.
    #[inline]
    pub(crate) fn enter(&mut self) -> Result<()> {
        self.depth.enter()
    }

    /// Writes a string as a reference when it has a slot, else as a literal
    /// (which may take the next slot).
    ///
    /// `STRINGS` is whether strings are deduplicated: without, every
    /// string is a literal, written without a lookup (the string table then
    /// has no slot; see `Options::dedup_strings`). A constant, so that the
    /// default encoder does not test it for every string.
    #[inline]
    pub(crate) fn write_str<const STRINGS: bool>(&mut self, s: &str) -> Result<()> {
        if !STRINGS || s.len() < wire::str_ref_size(0) {
            return wire::write_str(&mut self.out, s);
        }
        self.write_str_hashed(s, hash_bytes(s.as_bytes()))
    }

    #[inline]
    fn write_str_hashed(&mut self, s: &str, hash: u64) -> Result<()> {
        let found = self.strings.write(s.as_bytes(), hash);
        self.write_found(s, found)
    }

    /// Writes `s` as the string table found it: a reference to its slot,
    /// or a literal.
    #[inline(always)]
    fn write_found(&mut self, s: &str, found: Lookup) -> Result<()> {
        match found {
            Lookup::Slot(slot) => {
                self.wrote_reference = true;
                wire::write_str_ref(&mut self.out, slot)
            }
            Lookup::Literal { .. } => wire::write_str(&mut self.out, s),
        }
    }

    /// Writes the name of a unit variant: as [`Encoder::write_str`], with
    /// the slot found by the name's address when it was written before.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn write_variant_name<const STRINGS: bool>(
        &mut self,
        s: &'static str,
    ) -> Result<()> {
        if !STRINGS {
            return wire::write_str(&mut self.out, s);
        }
        let found = self.strings.write_by_address(s.as_bytes());
        self.write_found(s, found)
    }

    /// The size of `key` written now: a reference if it has a slot.
    fn key_size_now(&self, key: &[u8]) -> usize {
        match self.strings.lookup(key, hash_bytes(key)) {
            Lookup::Slot(slot) => wire::str_ref_size(slot),
            Lookup::Literal { .. } => wire::str_size(key.len()),
        }
    }

    // ---- arrays ----------------------------------------------------------

    #[inline]
    pub(crate) fn begin_seq(&mut self, ctx: u64, len: Option<usize>) -> Result<SeqFrame> {
        self.enter()?;
        let start = self.out.len();
        match len {
            Some(n) => wire::write_header(&mut self.out, Kind::Array, n)?,
            None => self.out.extend_from_slice(&[0; HEADER_GAP]),
        }
        // Only an array of unknown length needs the mark (to close its
        // gap); known-length arrays, the common case, stay small.
        let declared = len.ok_or(self.seq_marks.len());
        if len.is_none() {
            self.seq_marks.push(self.mark());
        }
        Ok(SeqFrame {
            start,
            ctx,
            declared,
            written: 0,
        })
    }

    #[inline]
    pub(crate) fn seq_element_done(&mut self, frame: &mut SeqFrame) {
        frame.written += 1;
    }

    pub(crate) fn end_seq(&mut self, frame: SeqFrame) -> Result<()> {
        self.depth.leave();
        match frame.declared {
            Ok(n) if n == frame.written => Ok(()),
            Ok(n) => Err(count_error(Kind::Array, n, frame.written)),
            Err(index) => {
                let mark = self.seq_marks[index];
                self.seq_marks.truncate(index);
                self.close_gap(frame.start, Kind::Array, frame.written, mark)
            }
        }
    }

    /// Writes the header of a collection that started with a gap at the end
    /// of the gap; the rest of the gap is removed later.
    fn close_gap(&mut self, start: usize, kind: Kind, count: usize, mark: Mark) -> Result<()> {
        let end = self.out.len();
        wire::write_header(&mut self.out, kind, count)?;
        let len = self.out.len() - end;
        self.out.copy_within(end.., start + HEADER_GAP - len);
        self.out.truncate(end);
        self.remove_later(start, HEADER_GAP - len);
        self.settle(start, mark);
        Ok(())
    }

    // ---- ranges to remove ------------------------------------------------

    #[inline]
    fn mark(&self) -> Mark {
        Mark {
            ranges: self.pending.ranges.len(),
            bytes: self.pending.bytes,
        }
    }

    fn remove_later(&mut self, at: usize, len: usize) {
        if len > 0 {
            self.pending.ranges.push((at, len));
            self.pending.bytes += len;
        }
    }

    /// After a collection that started at `start` recorded ranges: removes
    /// those recorded since `mark` if they are at least half of its bytes.
    fn settle(&mut self, start: usize, mark: Mark) {
        if 2 * (self.pending.bytes - mark.bytes) >= self.out.len() - start {
            self.remove_pending(mark);
        }
    }

    /// Removes the ranges recorded since `mark`, in one pass from the first
    /// of them to the end of the output.
    #[inline]
    fn remove_pending(&mut self, mark: Mark) {
        if self.pending.ranges.len() != mark.ranges {
            self.remove_pending_ranges(mark);
        }
    }

    fn remove_pending_ranges(&mut self, mark: Mark) {
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

    /// Ends the document that starts at `base`: removes every pending range
    /// and, when no reference was written, the marker.
    pub(crate) fn finish(&mut self, base: usize) {
        if !self.wrote_reference {
            // No reference was written: the rest is the plain document.
            self.remove_later(base, 1);
        }
        self.remove_pending(Mark::default());
    }

    // ---- maps ------------------------------------------------------------

    /// Opens a map at context `ctx`: as a reference to the shape last seen
    /// there if it fits (inline), else explicitly (out of line: in a
    /// document of records, nearly every map takes the reference).
    #[inline(always)]
    pub(crate) fn begin_map(&mut self, ctx: u64, len: Option<usize>) -> Result<MapFrame> {
        if let Some(n) = len
            && let Some((shape, keys)) = self.predictions.get(prediction_key(ctx, n), n)
        {
            self.enter()?;
            let start = self.out.len();
            match u8::try_from(shape) {
                // The one-byte form, pushed directly: the common case.
                Ok(index) if usize::from(index) < wire::FIXSHAPE_COUNT => {
                    self.out.push(wire::FIXSHAPE + index);
                }
                _ => wire::write_shape_ref(&mut self.out, shape as usize)?,
            }
            return Ok(MapFrame {
                start,
                ctx,
                written: 0,
                keys,
                key_count: n,
                shape,
                shapes_at_start: self.shapes.len() as u32,
            });
        }
        self.begin_explicit_map(ctx, len)
    }

    #[inline(never)]
    fn begin_explicit_map(&mut self, ctx: u64, len: Option<usize>) -> Result<MapFrame> {
        self.enter()?;
        let start = self.out.len();
        match len {
            Some(n) => wire::write_header(&mut self.out, Kind::Map, n)?,
            None => self.out.extend_from_slice(&[0; HEADER_GAP]),
        }
        let index = self.explicit.len();
        self.explicit.push(ExplicitMap {
            declared: len,
            keys_base: self.keys.len(),
            text_base: self.key_text.len(),
            string_keys: true,
            seq_hash: 0,
            mark: self.mark(),
        });
        Ok(MapFrame {
            start,
            ctx,
            written: 0,
            keys: index,
            key_count: 0,
            shape: EXPLICIT,
            shapes_at_start: self.shapes.len() as u32,
        })
    }

    /// The state of the explicit map of `frame`.
    fn explicit_state(&mut self, frame: &MapFrame) -> &mut ExplicitMap {
        &mut self.explicit[frame.keys]
    }

    /// A string key: in a shaped map, checked against the shape (inline);
    /// in an explicit map, written through the string table and recorded
    /// (out of line).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn map_key_str(&mut self, frame: &mut MapFrame, key: &str) -> Result<()> {
        self.map_key_checked(frame, key, ShapeTable::key_at_is)
    }

    /// [`Encoder::map_key_str`] for a name known at compile time (a
    /// struct's field, an enum's variant), always inline: the check against
    /// the shape then compares its length, first and last bytes with
    /// constants.
    ///
    /// A struct's field names are `&'static str`, the same ones every time,
    /// and recognizing them by address would skip the comparison. It is
    /// not done: sound code
    /// may free a leaked name (`Box::from_raw`) and leak another of the
    /// same length at the same address during one encode, and the shape
    /// would then claim the old name. The bytes are always compared.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn map_key_name(&mut self, frame: &mut MapFrame, key: &'static str) -> Result<()> {
        self.map_key_checked(frame, key, ShapeTable::key_at_is_inline)
    }

    /// The body of both: `is_key` is the shape table's check of the next
    /// key, which the caller chooses inline or not.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn map_key_checked(
        &mut self,
        frame: &mut MapFrame,
        key: &str,
        is_key: fn(&ShapeTable, usize, &[u8]) -> bool,
    ) -> Result<()> {
        if frame.written < frame.key_count
            && is_key(&self.shapes, frame.keys + frame.written, key.as_bytes())
        {
            return Ok(());
        }
        *frame = self.map_key_other_str(*frame, key)?;
        Ok(())
    }

    /// A string key that is not the next key of a shaped map: the map is
    /// or becomes explicit, and the key is written through the string table.
    ///
    /// The frame goes in and out by value: a frame whose address reached
    /// this call would live in memory on the inline path too, and every
    /// struct would store and reload it. It comes back only on success,
    /// which is enough because nothing fails once the map is explicit:
    /// `make_explicit` fails (on a value left unfinished) before it changes
    /// the frame or pushes the map's state, and what follows writes to a
    /// `Vec`, which cannot fail; giving the frame back with the error as
    /// well would return it through memory on every struct.
    #[inline(never)]
    fn map_key_other_str(&mut self, mut frame: MapFrame, key: &str) -> Result<MapFrame> {
        let frame = &mut frame;
        self.make_explicit(frame)?;
        let hash = hash_bytes(key.as_bytes());
        let start = self.out.len();
        self.write_str_hashed(key, hash)?;
        let end = self.out.len();
        let state = self.explicit_state(frame);
        if state.string_keys {
            state.seq_hash = combine(state.seq_hash, hash);
            let text_start = self.key_text.len();
            self.key_text.extend_from_slice(key.as_bytes());
            self.keys.push(KeyInfo {
                start,
                end,
                text_start,
                text_len: key.len(),
            });
        }
        Ok(*frame)
    }

    /// A key that is not written as a string: the map cannot be a shape.
    /// The caller writes the key as a value afterwards.
    pub(crate) fn map_key_other(&mut self, frame: &mut MapFrame) -> Result<()> {
        self.make_explicit(frame)?;
        self.explicit_state(frame).string_keys = false;
        Ok(())
    }

    #[inline]
    pub(crate) fn map_value_done(&mut self, frame: &mut MapFrame) {
        frame.written += 1;
    }

    /// The mark of a shaped map that began at `start`: the ranges recorded
    /// since then all lie in its bytes, and those recorded before it began
    /// before them, so they are the ones at or after `start`.
    fn mark_since(&self, start: usize) -> Mark {
        let ranges = &self.pending.ranges;
        let inside = ranges.iter().rev().take_while(|r| r.0 >= start);
        let (count, bytes) = inside.fold((0, 0), |(n, b), r| (n + 1, b + r.1));
        Mark {
            ranges: ranges.len() - count,
            bytes: self.pending.bytes - bytes,
        }
    }

    /// Rewrites a shaped map, whose first `frame.written` keys matched, into
    /// explicit form: the header, then each matched key before its value;
    /// nothing for a map that is explicit already.
    #[inline]
    fn make_explicit(&mut self, frame: &mut MapFrame) -> Result<()> {
        if frame.shape == EXPLICIT {
            return Ok(());
        }
        self.rewrite_shaped(frame)
    }

    #[cold]
    fn rewrite_shaped(&mut self, frame: &mut MapFrame) -> Result<()> {
        let shape = frame.shape;
        // A shaped map has the length of its shape.
        let declared = frame.key_count;
        // The values are read back below: they must be as they will stay.
        let mark = self.mark_since(frame.start);
        self.remove_pending(mark);
        let matched = frame.written;
        let keys_base = self.keys.len();
        let text_base = self.key_text.len();
        let mut seq_hash = 0;
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        wire::write_header(&mut scratch, Kind::Map, declared)?;
        // The values follow the shape reference back to back.
        let mut value_start = frame.start + wire::shape_ref_size(shape as usize);
        for i in 0..matched {
            let key = self.shapes.key(shape, i);
            let hash = hash_bytes(key);
            let key_start = frame.start + scratch.len();
            match self.strings.lookup(key, hash) {
                Lookup::Slot(slot) => {
                    self.wrote_reference = true;
                    wire::write_str_ref(&mut scratch, slot)?;
                }
                Lookup::Literal { takes_slot } => {
                    debug_assert!(
                        !takes_slot,
                        "a key of an earlier shape never takes a new slot"
                    );
                    scratch.extend_from_slice(&self.str_literal(key));
                }
            }
            let key_end = frame.start + scratch.len();
            let text_start = self.key_text.len();
            self.key_text.extend_from_slice(key);
            self.keys.push(KeyInfo {
                start: key_start,
                end: key_end,
                text_start,
                text_len: key.len(),
            });
            seq_hash = combine(seq_hash, hash);
            let value_end = self.value_end(value_start)?;
            scratch.extend_from_slice(&self.out[value_start..value_end]);
            value_start = value_end;
        }
        self.out.truncate(frame.start);
        self.out.extend_from_slice(&scratch);
        self.moved += scratch.len();
        self.scratch = scratch;
        frame.shape = EXPLICIT;
        frame.keys = self.explicit.len();
        frame.key_count = 0;
        self.explicit.push(ExplicitMap {
            declared: Some(declared),
            keys_base,
            text_base,
            string_keys: true,
            seq_hash,
            mark,
        });
        Ok(())
    }

    /// Where the complete value that starts at `at` in the output ends.
    ///
    /// Walks the encoder's own output; shape references take their value
    /// counts from the shape table. Only a rewrite needs this, so the
    /// common path records nothing per value. The output is well formed
    /// unless a `Serialize` impl dropped a collection unfinished (on an
    /// error it then ignored): that is an error here, not a panic.
    fn value_end(&self, mut at: usize) -> Result<usize> {
        let mut pending = 1usize;
        while pending > 0 {
            pending -= 1;
            let header = self.out.get(at..).map(|rest| wire::decode_header(rest, at));
            let Some(Ok((header, size))) = header else {
                return Err(unfinished_value_error());
            };
            at += size;
            let items = match header {
                wire::Header::Len(Kind::Str | Kind::Bytes, n) => {
                    at = at.saturating_add(usize::try_from(n).unwrap_or(usize::MAX));
                    0
                }
                wire::Header::Len(Kind::Array, n) => n,
                wire::Header::Len(Kind::Map, n) => n.saturating_mul(2),
                wire::Header::ShapeRef(shape) => match self.shapes.key_count(shape) {
                    Some(count) => count as u64,
                    None => return Err(unfinished_value_error()),
                },
                wire::Header::Some => 1,
                _ => 0,
            };
            pending = pending.saturating_add(usize::try_from(items).unwrap_or(usize::MAX));
        }
        if at > self.out.len() {
            return Err(unfinished_value_error());
        }
        Ok(at)
    }

    /// The literal encoding of a key's text (valid UTF-8: it was a `&str`).
    fn str_literal(&self, key: &[u8]) -> Vec<u8> {
        let mut v = Vec::with_capacity(9 + key.len());
        // The header cannot fail for a Vec.
        let _ = wire::write_header(&mut v, Kind::Str, key.len());
        v.extend_from_slice(key);
        v
    }

    #[inline(always)]
    pub(crate) fn end_map(&mut self, frame: MapFrame) -> Result<()> {
        if frame.written == frame.key_count && frame.shape != EXPLICIT {
            // The prediction that chose this shape stays as it is.
            self.depth.leave();
            self.wrote_reference = true;
            return Ok(());
        }
        self.end_other_map(frame)
    }

    /// Ends a map that is explicit, or shaped with fewer keys than its
    /// shape (made explicit here).
    #[inline(never)]
    fn end_other_map(&mut self, mut frame: MapFrame) -> Result<()> {
        self.depth.leave();
        self.make_explicit(&mut frame)?;
        // Its state, and above it only those of maps left unended.
        self.explicit.truncate(frame.keys + 1);
        let state = self
            .explicit
            .pop()
            .expect("an explicit map pushed its state when it began or turned explicit");
        if let Some(n) = state.declared
            && n != frame.written
        {
            return Err(count_error(Kind::Map, n, frame.written));
        }
        let result = self.end_explicit_map(&frame, &state);
        self.keys.truncate(state.keys_base);
        self.key_text.truncate(state.text_base);
        result
    }

    fn end_explicit_map(&mut self, frame: &MapFrame, state: &ExplicitMap) -> Result<()> {
        let (count, keys_base) = (frame.written, state.keys_base);
        let header = wire::header_size(Kind::Map, count);
        // Its keys are the records from `keys_base` on, one per entry,
        // unless a map left unended inside it recorded keys of its own:
        // then it is left as it is.
        let own_keys = self.keys.len() - keys_base == count;
        if state.string_keys && own_keys && dedup::may_become_shape(count) {
            let keys = &self.keys[keys_base..];
            let explicit = header + keys.iter().map(|k| k.end - k.start).sum::<usize>();
            let text = |i: usize| {
                let k = &self.keys[keys_base + i];
                &self.key_text[k.text_start..k.text_start + k.text_len]
            };
            let seq_hash = state.seq_hash;
            if let Some(shape) =
                self.shapes
                    .find(text, count, seq_hash, frame.shapes_at_start as usize)
            {
                self.predict(frame.ctx, count, shape);
                if dedup::reference_is_shorter(shape as usize, explicit) {
                    self.wrote_reference = true;
                    return self.compact(frame, state, shape);
                }
            } else if self.shapes.takes_next(explicit) {
                let now = header
                    + (0..count)
                        .map(|i| self.key_size_now(text(i)))
                        .sum::<usize>();
                let keys: Vec<&[u8]> = (0..count).map(text).collect();
                let shape = self.shapes.register(|i| keys[i], count, seq_hash, now);
                let canonical = self
                    .shapes
                    .find(|i| keys[i], count, seq_hash, shape as usize + 1)
                    .unwrap_or(shape);
                self.predict(frame.ctx, count, canonical);
            }
        }
        if state.declared.is_none() {
            self.close_gap(frame.start, Kind::Map, count, state.mark)?;
        }
        Ok(())
    }

    /// Records `shape`, of `count` keys, as the guess for maps of `count`
    /// keys at context `ctx`, with what writing the guess needs.
    fn predict(&mut self, ctx: u64, count: usize, shape: u32) {
        let keys = self.shapes.referable(shape, count);
        self.predictions
            .set(prediction_key(ctx, count), count, shape, keys);
    }

    /// The bytes of value `i` of the map whose keys start at `keys_base`:
    /// from the end of its key to the next key, or to the end of the output.
    #[inline]
    fn value_span(&self, keys_base: usize, i: usize) -> std::ops::Range<usize> {
        let start = self.keys[keys_base + i].end;
        let end = self
            .keys
            .get(keys_base + i + 1)
            .map_or(self.out.len(), |k| k.start);
        start..end
    }

    /// Replaces an explicit map's header and keys by a shape reference.
    ///
    /// The reference goes at the end of the header and first key (or of the
    /// gap and first key), and the rest of them and the other keys are
    /// removed later, so that the values do not move now.
    fn compact(&mut self, frame: &MapFrame, state: &ExplicitMap, shape: u32) -> Result<()> {
        let (count, keys_base, mark) = (frame.written, state.keys_base, state.mark);
        let first_end = self.keys[keys_base].end;
        let size = wire::shape_ref_size(shape as usize);
        if first_end - frame.start >= size {
            // Nothing inside the map waits for removal, so its values can
            // move now; do so when that costs at most `MOVE_PER_REMOVED`
            // bytes per byte removed. Each byte is removed once, so these
            // moves add up to a constant times the output, whatever the
            // depth; and a small map (a derived struct of numbers, the usual
            // case) is settled without a range to record, sort and replay.
            let move_now = self.pending.ranges.len() == mark.ranges && {
                let other_keys: usize = (1..count)
                    .map(|i| {
                        let key = self.keys[keys_base + i];
                        key.end - key.start
                    })
                    .sum();
                let removed = first_end - frame.start - size + other_keys;
                let values = self.out.len() - first_end - other_keys;
                values <= MOVE_PER_REMOVED * removed
            };
            // The reference goes where the map starts if the values follow
            // it now, or right before the first value if they stay.
            let at = if move_now {
                frame.start
            } else {
                first_end - size
            };
            let end = self.out.len();
            wire::write_shape_ref(&mut self.out, shape as usize)?;
            self.out.copy_within(end.., at);
            self.out.truncate(end);
            if move_now {
                let mut write = frame.start + size;
                for i in 0..count {
                    let value = self.value_span(keys_base, i);
                    let len = value.len();
                    self.out.copy_within(value, write);
                    write += len;
                }
                self.moved += write - (frame.start + size);
                self.out.truncate(write);
            } else {
                self.remove_later(frame.start, first_end - size - frame.start);
                for i in 1..count {
                    let key = self.keys[keys_base + i];
                    self.remove_later(key.start, key.end - key.start);
                }
                self.settle(frame.start, mark);
            }
            return Ok(());
        }
        // A one-byte header and an empty first key, before a reference of
        // three bytes: the values move, without the ranges pending in them.
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        wire::write_shape_ref(&mut scratch, shape as usize)?;
        self.pending.ranges[mark.ranges..].sort_by_key(|r| r.0);
        let mut next_range = mark.ranges;
        for i in 0..count {
            let std::ops::Range {
                start: mut from,
                end: value_end,
            } = self.value_span(keys_base, i);
            while let Some(&(at, len)) = self.pending.ranges.get(next_range)
                && at < value_end
            {
                scratch.extend_from_slice(&self.out[from..at]);
                from = at + len;
                next_range += 1;
            }
            scratch.extend_from_slice(&self.out[from..value_end]);
        }
        self.pending.ranges.truncate(mark.ranges);
        self.pending.bytes = mark.bytes;
        self.out.truncate(frame.start);
        self.out.extend_from_slice(&scratch);
        self.moved += scratch.len();
        self.scratch = scratch;
        Ok(())
    }
}

/// A map to be rewritten holds a value its `Serialize` impl left
/// unfinished: it dropped an array or map without ending it, after an error
/// it then ignored.
#[cold]
fn unfinished_value_error() -> Error {
    <Error as serde::ser::Error>::custom(
        "a map holds a value left unfinished (a Serialize impl dropped an array or map \
         without ending it, after an error it ignored)",
    )
}
