//! The decoder's string and shape tables, which a deduplicated document
//! builds implicitly as it is read.
//!
//! The tables exist only after a document's first byte is the deduplication
//! marker: plain documents never touch this module. Both hold [`Kept`]
//! handles to strings the input keeps, never copies of strings, and both
//! stop growing at their configured limits, so a hostile document cannot
//! make them allocate more. What enters them is decided by
//! the rules in the parent module, which the encoder calls too.

use crate::dedup::{ShapeCandidate, shape_table_limit, string_table_limit, takes_slot};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::read::Kept;
use crate::session::{shape_charge, string_charge};

/// The most entries a table may have room for and still be kept for the
/// next document ([`pool`]).
const MAX_POOLED_ENTRIES: usize = 4096;

/// A shape in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The range of its keys in `shape_keys`.
    pub(crate) first: u32,
    pub(crate) count: u32,
    /// What a reference is charged against the expansion limit: the sum
    /// of its keys' lengths plus two per key, summed once when the shape is
    /// made rather than per reference.
    pub(crate) expansion: usize,
}

/// The field list a shape was last compared with, and whether its keys
/// were those fields, in order (see [`Dictionary::fields_seen`]).
///
/// A `&'static` slice is never freed or changed, so a list at the same
/// address with the same length is the same list: the comparison of its
/// names with the shape's keys stays true for the rest of the document.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldsSeen {
    pub(crate) fields: &'static [&'static str],
    pub(crate) equal: bool,
}

impl FieldsSeen {
    /// Whether `fields` is the list this entry was compared with.
    #[inline]
    pub(crate) fn is(&self, fields: &'static [&'static str]) -> bool {
        self.fields.as_ptr() == fields.as_ptr() && self.fields.len() == fields.len()
    }
}

/// The string and shape tables of one deduplicated document.
#[derive(Debug, Default)]
pub(crate) struct Dictionary {
    strings: Vec<Kept>,
    max_dedup_strings: usize,
    shapes: Vec<Shape>,
    /// Per shape, the struct fields it was last compared with; grows with
    /// `shapes`, one entry each.
    fields_seen: Vec<FieldsSeen>,
    shape_keys: Vec<Kept>,
    max_dedup_shapes: usize,
    /// Keys of the explicit maps being decoded, innermost last.
    pending_keys: Vec<Kept>,
}

impl Dictionary {
    pub(crate) fn new(max_dedup_strings: usize, max_dedup_shapes: usize) -> Dictionary {
        // First capacities for a small document (a record or two), so that
        // it does not grow these one entry at a time; fixed, never taken
        // from the input.
        Dictionary {
            strings: Vec::with_capacity(32),
            max_dedup_strings: string_table_limit(max_dedup_strings),
            shapes: Vec::with_capacity(16),
            fields_seen: Vec::with_capacity(16),
            shape_keys: Vec::with_capacity(64),
            max_dedup_shapes: shape_table_limit(max_dedup_shapes),
            pending_keys: Vec::with_capacity(16),
        }
    }

    /// The tables of a new document: empty, with these limits. On a thread
    /// that decoded a deduplicated document before, the tables it used are
    /// taken back (see [`pool`]), so a stream of small documents
    /// allocates them once.
    pub(crate) fn for_document(max_dedup_strings: usize, max_dedup_shapes: usize) -> Box<Self> {
        match pool::take_dictionary() {
            Some(mut dict) => {
                dict.max_dedup_strings = string_table_limit(max_dedup_strings);
                dict.max_dedup_shapes = shape_table_limit(max_dedup_shapes);
                Box::new(dict)
            }
            None => Box::new(Dictionary::new(max_dedup_strings, max_dedup_shapes)),
        }
    }

    /// Moves the tables' storage, emptied, into a new value, if its
    /// capacity is small enough to keep for the next document
    /// ([`pool`]).
    fn take_storage(&mut self) -> Option<Dictionary> {
        let capacities = [
            self.strings.capacity(),
            self.shapes.capacity(),
            self.fields_seen.capacity(),
            self.shape_keys.capacity(),
            self.pending_keys.capacity(),
        ];
        if capacities.iter().any(|&c| c > MAX_POOLED_ENTRIES) {
            return None;
        }
        let mut storage = core::mem::take(self);
        storage.truncate(Mark::default());
        Some(storage)
    }

    /// Does a string literal of `len` bytes take the next slot?
    #[inline]
    pub(crate) fn takes_slot(&self, len: usize) -> bool {
        takes_slot(len, self.strings.len(), self.max_dedup_strings)
    }

    #[inline]
    pub(crate) fn push_string(&mut self, kept: Kept) {
        self.strings.push(kept);
    }

    #[inline]
    pub(crate) fn string(&self, index: u32) -> Option<Kept> {
        self.strings.get(index as usize).copied()
    }

    pub(crate) fn strings_defined(&self) -> usize {
        self.strings.len()
    }

    pub(crate) fn max_dedup_strings(&self) -> usize {
        self.max_dedup_strings
    }

    pub(crate) fn max_dedup_shapes(&self) -> usize {
        self.max_dedup_shapes
    }

    #[inline]
    pub(crate) fn shape(&self, index: u32) -> Option<Shape> {
        self.shapes.get(index as usize).copied()
    }

    pub(crate) fn shapes_defined(&self) -> usize {
        self.shapes.len()
    }

    #[inline]
    pub(crate) fn shape_key(&self, at: u32) -> Kept {
        self.shape_keys[at as usize]
    }

    /// The keys of shape `index`, which exists.
    pub(crate) fn shape_keys(&self, index: u32) -> &[Kept] {
        let shape = self.shapes[index as usize];
        &self.shape_keys[shape.first as usize..][..shape.count as usize]
    }

    /// What shape `index`, which exists, was last compared with: the
    /// decoder's cache for handing a struct its fields by position.
    #[inline]
    pub(crate) fn fields_seen(&mut self, index: u32) -> &mut FieldsSeen {
        &mut self.fields_seen[index as usize]
    }

    /// Where the keys of a new explicit map start on the pending stack.
    #[inline]
    pub(crate) fn pending_mark(&self) -> usize {
        self.pending_keys.len()
    }

    #[inline]
    pub(crate) fn push_pending_key(&mut self, key: Kept) {
        self.pending_keys.push(key);
    }

    /// Ends an explicit map whose keys were pushed since `mark`, making
    /// it the next shape if the rules say so.
    pub(crate) fn end_explicit_map(&mut self, mark: usize, map: &ShapeCandidate) {
        if map.becomes_shape(self.shapes.len(), self.max_dedup_shapes) {
            let Dictionary {
                shapes,
                shape_keys,
                fields_seen,
                pending_keys,
                ..
            } = self;
            add_shape(shapes, shape_keys, fields_seen, &pending_keys[mark..]);
        }
        self.pending_keys.truncate(mark);
    }

    // ---- tables that outlive a document (`de/session.rs`) ----------------

    /// Adds a shape with these keys (a dictionary's).
    pub(crate) fn push_shape(&mut self, keys: &[Kept]) {
        add_shape(
            &mut self.shapes,
            &mut self.shape_keys,
            &mut self.fields_seen,
            keys,
        );
    }

    /// How far the tables have grown.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            strings: self.strings.len(),
            shapes: self.shapes.len(),
            shape_keys: self.shape_keys.len(),
        }
    }

    /// Returns the tables to what they held at `mark`.
    pub(crate) fn truncate(&mut self, mark: Mark) {
        self.strings.truncate(mark.strings);
        self.shapes.truncate(mark.shapes);
        self.fields_seen.truncate(mark.shapes);
        self.shape_keys.truncate(mark.shape_keys);
        self.pending_keys.clear();
    }

    /// What the entries added since `mark` count against a session's
    /// budget.
    pub(crate) fn charge_since(&self, mark: Mark) -> usize {
        let strings = self.strings[mark.strings..]
            .iter()
            .fold(0usize, |sum, k| sum.saturating_add(string_charge(k.len)));
        self.shapes[mark.shapes..]
            .iter()
            .fold(strings, |sum, shape| {
                let keys = &self.shape_keys[shape.first as usize..][..shape.count as usize];
                sum.saturating_add(shape_charge(keys.iter().map(|k| k.len)))
            })
    }

    /// Every handle the tables hold: to move the strings they name.
    pub(crate) fn kept_mut(&mut self) -> impl Iterator<Item = &mut Kept> {
        self.strings.iter_mut().chain(self.shape_keys.iter_mut())
    }
}

/// Tables that end (with their document, or their session) leave their
/// storage to the next document on this thread (see [`pool`]).
impl Drop for Dictionary {
    fn drop(&mut self) {
        if pool::wants_dictionary()
            && let Some(storage) = self.take_storage()
        {
            pool::give_back_dictionary(storage);
        }
    }
}

/// Adds the next shape, whose keys are `keys`.
#[inline]
fn add_shape(
    shapes: &mut Vec<Shape>,
    shape_keys: &mut Vec<Kept>,
    fields_seen: &mut Vec<FieldsSeen>,
    keys: &[Kept],
) {
    shapes.push(Shape {
        first: shape_keys.len() as u32,
        count: keys.len() as u32,
        expansion: keys.iter().map(|k| k.len + 2).sum(),
    });
    shape_keys.extend_from_slice(keys);
    // Compared with nothing yet: a shape has at least one key, so no list
    // that could equal it has this one's length (none).
    fields_seen.push(FieldsSeen {
        fields: &[],
        equal: false,
    });
}

/// Storage that a thread's decoders pass on from one deduplicated document
/// to the next: the string and shape tables. (A slice reader keeps no
/// strings of its own: its kept strings are ranges of the input.)
///
/// A deduplicated document of a few kilobytes needs tables of a kilobyte
/// or more. Allocated afresh for each document, they cost more than their
/// size suggests: in glibc, the first request of 1 KiB or more after many
/// small blocks were freed (the previous document's decoded value) first
/// merges all of those blocks (`malloc_consolidate`), and the value decoded
/// next then allocates from the merged memory, slower than from the blocks
/// it would have reused (measured in the spec's design notes).
///
/// So ended tables are kept, one set per thread, emptied, and
/// the next document takes them. Only storage of at most
/// [`MAX_POOLED_ENTRIES`] entries per list is kept, so a thread holds at most
/// a few hundred kilobytes after a large document. Nothing is kept across
/// documents but capacity: every list is empty when it is taken. Without
/// the `std` feature there are no thread locals, and every document
/// allocates its own.
mod pool {
    use super::Dictionary;

    #[cfg(feature = "std")]
    std::thread_local! {
        static DICTIONARY: core::cell::Cell<Option<Dictionary>> = const { core::cell::Cell::new(None) };
    }

    /// Tables kept by an earlier document on this thread, emptied.
    #[inline]
    pub(super) fn take_dictionary() -> Option<Dictionary> {
        #[cfg(feature = "std")]
        {
            DICTIONARY.try_with(|d| d.take()).ok().flatten()
        }
        #[cfg(not(feature = "std"))]
        {
            None
        }
    }

    /// Whether this thread keeps no tables now: ending tables give theirs.
    #[inline]
    pub(super) fn wants_dictionary() -> bool {
        #[cfg(feature = "std")]
        {
            DICTIONARY
                .try_with(|d| {
                    let kept = d.take();
                    let empty = kept.is_none();
                    d.set(kept);
                    empty
                })
                .unwrap_or(false)
        }
        #[cfg(not(feature = "std"))]
        {
            false
        }
    }

    /// Keeps emptied tables for the next document on this thread.
    pub(super) fn give_back_dictionary(dict: Dictionary) {
        #[cfg(feature = "std")]
        {
            let _ = DICTIONARY.try_with(|d| d.set(Some(dict)));
        }
        #[cfg(not(feature = "std"))]
        drop(dict);
    }
}

/// How far the tables had grown at some point: what [`Dictionary::truncate`]
/// returns them to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mark {
    pub(crate) strings: usize,
    pub(crate) shapes: usize,
    shape_keys: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(len: usize) -> Kept {
        Kept { at: 0, len }
    }

    #[test]
    fn short_strings_take_a_slot_only_while_a_reference_would_be_shorter() {
        let mut d = Dictionary::new(usize::MAX, usize::MAX);
        assert!(!d.takes_slot(1));
        assert!(d.takes_slot(2));
        for _ in 0..256 {
            d.push_string(span(2));
        }
        // Slot 256 needs a 3-byte reference: a 2-byte string no longer qualifies.
        assert!(!d.takes_slot(2));
        assert!(d.takes_slot(3));
    }

    #[test]
    fn tables_stop_growing_at_their_limits() {
        let mut d = Dictionary::new(1, 1);
        assert!(d.takes_slot(10));
        d.push_string(span(10));
        assert!(!d.takes_slot(10));
        for _ in 0..2 {
            let mark = d.pending_mark();
            let mut map = ShapeCandidate::new(1, 1);
            map.string_key(6);
            d.push_pending_key(span(5));
            d.end_explicit_map(mark, &map);
        }
        assert_eq!(d.shapes_defined(), 1);
        assert_eq!(d.pending_mark(), 0);
    }

    #[test]
    fn a_map_becomes_a_shape_only_when_a_reference_is_shorter() {
        let mut d = Dictionary::new(10, 20);
        let mark = d.pending_mark();
        // A map of one key of `len` bytes: header (1) + key (`len` + 1).
        let map = |d: &mut Dictionary, len: usize| {
            let mut map = ShapeCandidate::new(1, 1);
            map.string_key(len + 1);
            d.push_pending_key(span(len));
            d.end_explicit_map(mark, &map);
        };
        // An empty key: 2 bytes, more than a one-byte reference to shape 0.
        map(&mut d, 0);
        assert_eq!(d.shapes_defined(), 1);
        assert_eq!(
            d.shape(0),
            Some(Shape {
                first: 0,
                count: 1,
                expansion: 2
            })
        );
        for _ in 1..8 {
            map(&mut d, 1);
        }
        assert_eq!(d.shapes_defined(), 8);
        // Shape 8 takes a two-byte reference: 2 bytes are not more.
        map(&mut d, 0);
        assert_eq!(d.shapes_defined(), 8);
        map(&mut d, 1);
        assert_eq!(d.shapes_defined(), 9);
    }
}
