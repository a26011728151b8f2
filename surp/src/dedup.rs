//! Deduplication: the rules that the `surp` decoder and the `surp-dedup`
//! encoder share. The decoder's tables are its own (`de/tables.rs`).
//!
//! A deduplicated document starts with [`wire::DEDUP_MARKER`]. As it is
//! read, two tables fill up implicitly, with no table written anywhere:
//!
//! - a **string table**: a string literal takes the next slot when a
//!   reference to that slot would be shorter than the literal
//!   ([`takes_slot`]); later copies are written as string references;
//! - a **shape table**: an explicit map whose keys are all strings becomes
//!   the next shape when it ends, if it has 1 to [`MAX_SHAPE_KEYS`] keys
//!   ([`may_become_shape`]) and a reference to that shape would be shorter
//!   than its header and keys ([`becomes_shape`]); later maps with the same
//!   keys are written as a shape reference followed by their values.
//!
//! Every Surp decoder reads such documents (this crate's [`from_slice`]
//! does), so a consumer never needs to know how a producer was configured.
//! `surp-dedup` writes them; `surp inspect` shows the tables. The rules
//! below are the only copy of `docs/spec.md` section 7 in code: the
//! decoder, the encoder and the CLI all call them, so they cannot drift.
//!
//! [`from_slice`]: crate::from_slice

use crate::wire;

/// Most keys in a map that can become a shape. Longer maps are always
/// written explicitly, which keeps a shape reference's work bounded.
pub const MAX_SHAPE_KEYS: usize = 64;

/// The string table size a decoder or encoder configured with `configured`
/// slots uses: no more than a reference can address
/// ([`wire::MAX_STRING_SLOTS`]).
#[inline]
pub const fn string_table_limit(configured: usize) -> usize {
    at_most(configured, wire::MAX_STRING_SLOTS)
}

/// The shape table size a decoder or encoder configured with `configured`
/// shapes uses: no more than a reference can address ([`wire::MAX_SHAPES`]).
#[inline]
pub const fn shape_table_limit(configured: usize) -> usize {
    at_most(configured, wire::MAX_SHAPES)
}

/// `usize::min`, usable in constants.
const fn at_most(n: usize, max: usize) -> usize {
    if n < max { n } else { max }
}

/// Does a string literal of `len` bytes take slot `next` of a table
/// limited to `limit` slots?
///
/// Only while the table is below its limit, and only when a reference to
/// the slot is no longer than the literal: a string that takes a slot is
/// then always written as a reference, so no table entry appears twice.
#[inline]
pub const fn takes_slot(len: usize, next: usize, limit: usize) -> bool {
    next < limit && len >= wire::str_ref_size(next)
}

/// Can an explicit map with `keys` keys, all of them strings, become a
/// shape at all? It needs 1 to [`MAX_SHAPE_KEYS`] keys.
#[inline]
pub const fn may_become_shape(keys: usize) -> bool {
    keys >= 1 && keys <= MAX_SHAPE_KEYS
}

/// Does an explicit map that [`may_become_shape`], whose header and keys
/// took `explicit_size` bytes as written, become shape `next` of a table
/// limited to `limit` shapes?
///
/// Only when a reference to that shape would be strictly shorter. The map
/// becomes a shape even when an earlier shape has the same keys (a map
/// nested in a map with the same keys registers first): shape numbers are
/// the order in which maps end, with no exception to check.
#[inline]
pub const fn becomes_shape(explicit_size: usize, next: usize, limit: usize) -> bool {
    next < limit && explicit_size > wire::shape_ref_size(next)
}

/// May an encoder write a map whose header and keys take `explicit_size`
/// bytes as a reference to `shape` instead?
///
/// Only when the reference is strictly shorter. When several shapes have
/// the map's keys, an encoder references the lowest-numbered one, which
/// has the shortest reference: the same document then always has the same
/// bytes.
#[inline]
pub const fn reference_is_shorter(shape: usize, explicit_size: usize) -> bool {
    wire::shape_ref_size(shape) < explicit_size
}

/// What is known so far about whether an explicit map being read becomes a
/// shape: fed each key as it is read, asked at the map's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeCandidate {
    /// Every key so far was a string, and the declared count allows a shape.
    eligible: bool,
    /// Bytes of the map's header and its keys so far.
    size: usize,
    /// String keys read so far.
    keys: usize,
}

impl ShapeCandidate {
    /// A map that declares `count` entries, with a header of `header_size`
    /// bytes.
    #[inline]
    pub const fn new(count: u64, header_size: usize) -> ShapeCandidate {
        ShapeCandidate {
            eligible: count <= MAX_SHAPE_KEYS as u64,
            size: header_size,
            keys: 0,
        }
    }

    /// A map that cannot become a shape (one written as a shape reference).
    #[inline]
    pub const fn never() -> ShapeCandidate {
        ShapeCandidate {
            eligible: false,
            size: 0,
            keys: 0,
        }
    }

    /// Records a string key written in `size` bytes (a literal or a
    /// reference). Returns whether the map can still become a shape, that
    /// is, whether the caller must keep the key's text.
    #[inline]
    pub fn string_key(&mut self, size: usize) -> bool {
        self.size += size;
        self.keys += 1;
        self.eligible
    }

    /// Records a key that is not a string: the map cannot become a shape.
    #[inline]
    pub fn other_key(&mut self) {
        self.eligible = false;
    }

    /// Whether the map can still become a shape.
    #[inline]
    pub const fn is_eligible(&self) -> bool {
        self.eligible
    }

    /// At the map's end: does it become shape `next` of a table limited
    /// to `limit` shapes?
    #[inline]
    pub const fn becomes_shape(&self, next: usize, limit: usize) -> bool {
        self.eligible && may_become_shape(self.keys) && becomes_shape(self.size, next, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_strings_take_a_slot_only_while_a_reference_would_be_no_longer() {
        assert!(!takes_slot(1, 0, usize::MAX));
        assert!(takes_slot(2, 0, usize::MAX));
        assert!(takes_slot(2, 255, usize::MAX));
        // Slot 256 needs a 3-byte reference, slot 65,536 a 4-byte one.
        assert!(!takes_slot(2, 256, usize::MAX));
        assert!(takes_slot(3, 256, usize::MAX));
        assert!(!takes_slot(3, 1 << 16, usize::MAX));
        assert!(!takes_slot(100, 5, 5), "the table is full");
    }

    #[test]
    fn table_limits_are_what_a_reference_can_address() {
        assert_eq!(string_table_limit(usize::MAX), wire::MAX_STRING_SLOTS);
        assert_eq!(string_table_limit(10), 10);
        assert_eq!(shape_table_limit(usize::MAX), wire::MAX_SHAPES);
        assert_eq!(shape_table_limit(0), 0);
    }

    #[test]
    fn a_map_becomes_a_shape_only_when_a_reference_is_strictly_shorter() {
        // {"": ..}: header 1 + key 1 = 2 bytes: more than the one-byte
        // reference of shapes 0 to 7, not more than `f6 08`.
        let mut m = ShapeCandidate::new(1, 1);
        assert!(m.string_key(1));
        assert!(m.becomes_shape(0, 10));
        assert!(m.becomes_shape(7, 10));
        assert!(!m.becomes_shape(8, 10));
        let mut m = ShapeCandidate::new(1, 1);
        m.string_key(2);
        assert!(m.becomes_shape(8, 10));
        assert!(m.becomes_shape(255, usize::MAX));
        assert!(!m.becomes_shape(0, 0), "the table is full");
        // Shape 256 needs a 3-byte reference.
        assert!(!m.becomes_shape(256, usize::MAX));
    }

    #[test]
    fn non_string_keys_empty_maps_and_long_maps_never_become_shapes() {
        let mut m = ShapeCandidate::new(2, 1);
        m.string_key(5);
        m.other_key();
        assert!(!m.becomes_shape(0, 10));
        assert!(!ShapeCandidate::new(0, 1).becomes_shape(0, 10));
        let mut long = ShapeCandidate::new(MAX_SHAPE_KEYS as u64 + 1, 2);
        assert!(!long.string_key(5), "the key text need not be kept");
        assert!(!long.becomes_shape(0, 10));
        assert!(!ShapeCandidate::never().becomes_shape(0, 10));
    }

    #[test]
    fn the_lowest_numbered_shape_has_the_shortest_reference() {
        assert!(reference_is_shorter(7, 2));
        assert!(!reference_is_shorter(8, 2));
        assert!(reference_is_shorter(255, 3));
        assert!(!reference_is_shorter(256, 3));
        assert!(!reference_is_shorter(0, 1));
    }
}
