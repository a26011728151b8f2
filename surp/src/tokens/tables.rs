//! The string and shape tables of a deduplicated document, rebuilt while it
//! is walked, so that a token can say what a reference stands for.
//!
//! They hold the strings themselves (borrowed from the input), where the
//! decoder's tables hold positions, and are filled by the same rules
//! (`crate::dedup`) with the decoder's default limits, so a document the
//! walk accepts is one [`crate::from_slice`] accepts.

#[allow(unused_imports)]
use crate::prelude::*;

use crate::dedup::{self, ShapeCandidate};

/// Most slots the string table takes: what `surp` decodes by default.
const MAX_DEDUP_STRINGS: usize = dedup::string_table_limit(crate::DEFAULT_MAX_DEDUP_STRINGS);

/// Most shapes the shape table takes: what `surp` decodes by default.
const SHAPE_LIMIT: usize = dedup::shape_table_limit(crate::DEFAULT_MAX_DEDUP_SHAPES);

/// One registered shape: where its keys are, and the map that defined it.
#[derive(Clone, Copy, Debug)]
struct Shape {
    first_key: usize,
    keys: usize,
    map_offset: usize,
}

/// An explicit map being walked, which may become a shape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    /// Where the map's keys start on the pending stack.
    mark: usize,
    /// What the rules know so far.
    shape: ShapeCandidate,
    /// Offset of the map's header.
    offset: usize,
}

/// The string table (spec section 7.1) and the shape table (section 7.2)
/// of the document being walked.
#[derive(Debug, Default)]
pub struct Tables<'a> {
    strings: Vec<&'a str>,
    shapes: Vec<Shape>,
    shape_keys: Vec<&'a str>,
    /// Keys of the explicit maps being walked, innermost map last.
    pending: Vec<&'a str>,
}

impl<'a> Tables<'a> {
    /// Gives a string literal the next slot if it takes one.
    pub(crate) fn take_slot(&mut self, text: &'a str) -> Option<u32> {
        let next = self.strings.len();
        if dedup::takes_slot(text.len(), next, MAX_DEDUP_STRINGS) {
            self.strings.push(text);
            Some(next as u32)
        } else {
            None
        }
    }

    /// The string in slot `index`, if it is defined.
    pub fn string(&self, index: u32) -> Option<&'a str> {
        self.strings.get(index as usize).copied()
    }

    /// How many string slots are defined.
    pub fn strings_defined(&self) -> usize {
        self.strings.len()
    }

    /// The keys of shape `index`, if it is defined.
    pub fn shape(&self, index: u32) -> Option<&[&'a str]> {
        let shape = self.shapes.get(index as usize)?;
        self.shape_keys
            .get(shape.first_key..shape.first_key + shape.keys)
    }

    /// How many shapes are defined.
    pub fn shapes_defined(&self) -> usize {
        self.shapes.len()
    }

    /// Offsets of the maps that defined each shape, by shape index.
    pub fn shape_origins(&self) -> impl Iterator<Item = usize> + '_ {
        self.shapes.iter().map(|s| s.map_offset)
    }

    /// Starts an explicit map of `count` entries whose header, at `offset`,
    /// is `header_size` bytes.
    pub(crate) fn begin_map(&self, offset: usize, count: u64, header_size: usize) -> Candidate {
        Candidate {
            mark: self.pending.len(),
            shape: ShapeCandidate::new(count, header_size),
            offset,
        }
    }

    /// Records a key of an explicit map: `Some(text)` for a string key
    /// (literal or reference) written in `size` bytes, `None` for any other.
    pub(crate) fn record_key(&mut self, map: &mut Candidate, key: Option<&'a str>, size: usize) {
        match key {
            Some(text) => {
                if map.shape.string_key(size) {
                    self.pending.push(text);
                }
            }
            None => map.shape.other_key(),
        }
    }

    /// Ends an explicit map; returns the shape it became, if any.
    pub(crate) fn end_map(&mut self, map: Candidate) -> Option<u32> {
        let next = self.shapes.len();
        let keys = self.pending.len().saturating_sub(map.mark);
        let registered = map.shape.becomes_shape(next, SHAPE_LIMIT);
        if registered {
            let first_key = self.shape_keys.len();
            self.shape_keys.extend_from_slice(&self.pending[map.mark..]);
            self.shapes.push(Shape {
                first_key,
                keys,
                map_offset: map.offset,
            });
        }
        self.pending.truncate(map.mark);
        registered.then_some(next as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_takes_a_slot_only_when_a_reference_is_shorter() {
        let mut t = Tables::default();
        assert_eq!(t.take_slot("a"), None);
        assert_eq!(t.take_slot("ab"), Some(0));
        for _ in 1..256 {
            t.take_slot("xy");
        }
        // Slot 256 needs a 3-byte reference.
        assert_eq!(t.take_slot("xy"), None);
        assert_eq!(t.take_slot("xyz"), Some(256));
        assert_eq!(t.string(256), Some("xyz"));
        assert_eq!(t.string(257), None);
    }

    #[test]
    fn a_map_becomes_a_shape_only_when_a_reference_is_shorter() {
        let mut t = Tables::default();
        // {"": ..}: header 1 + key 1 = 2 bytes, more than the one-byte
        // reference of shapes 0 to 7 (`c0`) ...
        let mut m = t.begin_map(0, 1, 1);
        t.record_key(&mut m, Some(""), 1);
        assert_eq!(t.end_map(m), Some(0));
        assert_eq!(t.shape(0), Some(&[""][..]));
        for shape in 1..8 {
            let mut m = t.begin_map(shape * 10, 1, 1);
            t.record_key(&mut m, Some("a"), 2);
            assert_eq!(t.end_map(m), Some(shape as u32));
        }
        // ... but not more than shape 8's `f6 08`.
        let mut m = t.begin_map(80, 1, 1);
        t.record_key(&mut m, Some(""), 1);
        assert_eq!(t.end_map(m), None);
        let mut m = t.begin_map(90, 1, 1);
        t.record_key(&mut m, Some("a"), 2);
        assert_eq!(t.end_map(m), Some(8));
        assert_eq!(t.shape(8), Some(&["a"][..]));
        assert_eq!(
            t.shape_origins().collect::<Vec<_>>(),
            [0, 10, 20, 30, 40, 50, 60, 70, 90]
        );
    }

    #[test]
    fn a_non_string_key_or_too_many_keys_keep_a_map_from_becoming_a_shape() {
        let mut t = Tables::default();
        let mut m = t.begin_map(0, 2, 1);
        t.record_key(&mut m, Some("name"), 5);
        t.record_key(&mut m, None, 1);
        assert_eq!(t.end_map(m), None);
        let mut m = t.begin_map(0, 65, 2);
        t.record_key(&mut m, Some("name"), 5);
        assert_eq!(t.end_map(m), None);
        assert_eq!(t.shapes_defined(), 0);
    }

    #[test]
    fn nested_maps_register_before_the_map_that_holds_them() {
        let mut t = Tables::default();
        let mut outer = t.begin_map(0, 1, 1);
        t.record_key(&mut outer, Some("outer"), 6);
        let mut inner = t.begin_map(7, 1, 1);
        t.record_key(&mut inner, Some("inner"), 6);
        assert_eq!(t.end_map(inner), Some(0));
        assert_eq!(t.end_map(outer), Some(1));
        assert_eq!(t.shape(1), Some(&["outer"][..]));
    }
}
