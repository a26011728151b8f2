//! [`Class`]: the rows of the tag table, one name per range of tag bytes.

use core::ops::RangeInclusive;

use super::*;

/// What a tag byte is: one variant per row of the tag table in
/// `docs/spec.md`, section 2. Every byte belongs to exactly one class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `0x00..=0x7f`: the unsigned integer equal to the tag.
    FixUint,
    /// A string whose length (0 to 31) is in the tag.
    FixStr,
    /// An array whose count (0 to 15) is in the tag.
    FixArray,
    /// A map whose count (0 to 15) is in the tag.
    FixMap,
    /// A shape reference whose index (0 to 7) is in the tag; the values
    /// follow.
    FixShape,
    /// A string with a 1, 2, 4 or 8-byte length.
    Str,
    /// A byte string with a 1, 2, 4 or 8-byte length.
    Bin,
    /// An array with a 1, 2, 4 or 8-byte count.
    Array,
    /// A map with a 1, 2, 4 or 8-byte count.
    Map,
    /// An unsigned integer in 1 to 8 bytes.
    Uint,
    /// A negative integer `-1 - n`, `n` in 1 to 8 bytes.
    Nint,
    /// Null.
    Null,
    /// Boolean false.
    False,
    /// Boolean true.
    True,
    /// The `Some` marker; one value follows.
    Some,
    /// IEEE 754 binary16.
    F16,
    /// IEEE 754 binary32.
    F32,
    /// IEEE 754 binary64.
    F64,
    /// An unsigned integer in 9 to 16 bytes.
    WideUint,
    /// A negative integer `-1 - n`, `n` in 9 to 16 bytes.
    WideNint,
    /// Reserved; decoders reject it.
    Reserved,
    /// The deduplicated-document marker.
    DedupMarker,
    /// A string table reference with a 1, 2 or 3-byte index.
    StrRef,
    /// A shape reference with a 1 or 2-byte index; the values follow.
    ShapeRef,
    /// A negative integer -8 to -1 in the tag.
    FixNint,
}

impl Class {
    /// Every class, in the order of their tags.
    pub const ALL: [Class; 25] = [
        Class::FixUint,
        Class::FixStr,
        Class::FixArray,
        Class::FixMap,
        Class::FixShape,
        Class::Str,
        Class::Bin,
        Class::Array,
        Class::Map,
        Class::Uint,
        Class::Nint,
        Class::Null,
        Class::False,
        Class::True,
        Class::Some,
        Class::F16,
        Class::F32,
        Class::F64,
        Class::WideUint,
        Class::WideNint,
        Class::Reserved,
        Class::DedupMarker,
        Class::StrRef,
        Class::ShapeRef,
        Class::FixNint,
    ];

    /// The class of a tag byte.
    #[inline]
    pub const fn of(tag: u8) -> Class {
        match tag {
            FIXUINT..=FIXUINT_MAX => Class::FixUint,
            FIXSTR..=FIXSTR_LAST => Class::FixStr,
            FIXARRAY..=FIXARRAY_LAST => Class::FixArray,
            FIXMAP..=FIXMAP_LAST => Class::FixMap,
            FIXSHAPE..=FIXSHAPE_LAST => Class::FixShape,
            STR8..=STR_LAST => Class::Str,
            BIN8..=BIN_LAST => Class::Bin,
            ARRAY8..=ARRAY_LAST => Class::Array,
            MAP8..=MAP_LAST => Class::Map,
            UINT1..=UINT_LAST => Class::Uint,
            NINT1..=NINT_LAST => Class::Nint,
            NULL => Class::Null,
            FALSE => Class::False,
            TRUE => Class::True,
            SOME => Class::Some,
            F16 => Class::F16,
            F32 => Class::F32,
            F64 => Class::F64,
            WIDE_UINT => Class::WideUint,
            WIDE_NINT => Class::WideNint,
            RESERVED => Class::Reserved,
            DEDUP_MARKER => Class::DedupMarker,
            STR_REF1..=STR_REF3 => Class::StrRef,
            SHAPE_REF1..=SHAPE_REF2 => Class::ShapeRef,
            FIXNINT_MIN..=FIXNINT_LAST => Class::FixNint,
        }
    }

    /// The tags of this class: one range of the tag table.
    pub const fn tags(self) -> RangeInclusive<u8> {
        match self {
            Class::FixUint => FIXUINT..=FIXUINT_MAX,
            Class::FixStr => FIXSTR..=FIXSTR_LAST,
            Class::FixArray => FIXARRAY..=FIXARRAY_LAST,
            Class::FixMap => FIXMAP..=FIXMAP_LAST,
            Class::FixShape => FIXSHAPE..=FIXSHAPE_LAST,
            Class::Str => STR8..=STR_LAST,
            Class::Bin => BIN8..=BIN_LAST,
            Class::Array => ARRAY8..=ARRAY_LAST,
            Class::Map => MAP8..=MAP_LAST,
            Class::Uint => UINT1..=UINT_LAST,
            Class::Nint => NINT1..=NINT_LAST,
            Class::Null => NULL..=NULL,
            Class::False => FALSE..=FALSE,
            Class::True => TRUE..=TRUE,
            Class::Some => SOME..=SOME,
            Class::F16 => F16..=F16,
            Class::F32 => F32..=F32,
            Class::F64 => F64..=F64,
            Class::WideUint => WIDE_UINT..=WIDE_UINT,
            Class::WideNint => WIDE_NINT..=WIDE_NINT,
            Class::Reserved => RESERVED..=RESERVED,
            Class::DedupMarker => DEDUP_MARKER..=DEDUP_MARKER,
            Class::StrRef => STR_REF1..=STR_REF3,
            Class::ShapeRef => SHAPE_REF1..=SHAPE_REF2,
            Class::FixNint => FIXNINT_MIN..=FIXNINT_LAST,
        }
    }

    /// The name the spec's tag table gives this class.
    pub const fn name(self) -> &'static str {
        match self {
            Class::FixUint => "fixuint",
            Class::FixStr => "fixstr",
            Class::FixArray => "fixarray",
            Class::FixMap => "fixmap",
            Class::FixShape => "fixshape",
            Class::Str => "str",
            Class::Bin => "bin",
            Class::Array => "array",
            Class::Map => "map",
            Class::Uint => "uint",
            Class::Nint => "nint",
            Class::Null => "null",
            Class::False => "false",
            Class::True => "true",
            Class::Some => "some",
            Class::F16 => "f16",
            Class::F32 => "f32",
            Class::F64 => "f64",
            Class::WideUint => "wide uint",
            Class::WideNint => "wide nint",
            Class::Reserved => "session prefix",
            Class::DedupMarker => "dedup marker",
            Class::StrRef => "string reference",
            Class::ShapeRef => "shape reference",
            Class::FixNint => "fixnint",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    /// The class a decoded header belongs to.
    fn class_of_header(header: Header, tag: u8) -> Class {
        match header {
            Header::Uint(_) if tag <= FIXUINT_MAX => Class::FixUint,
            Header::Uint(_) => Class::Uint,
            Header::Nint(_) if tag >= FIXNINT_MIN => Class::FixNint,
            Header::Nint(_) => Class::Nint,
            Header::WideUint(_) => Class::WideUint,
            Header::WideNint(_) => Class::WideNint,
            Header::F16(_) => Class::F16,
            Header::F32(_) => Class::F32,
            Header::F64(_) => Class::F64,
            Header::Null => Class::Null,
            Header::Bool(false) => Class::False,
            Header::Bool(true) => Class::True,
            Header::Some => Class::Some,
            Header::Len(kind, _) => match (kind, tag < STR8) {
                (Kind::Str, true) => Class::FixStr,
                (Kind::Bytes, true) => unreachable!("byte strings have no inline form"),
                (Kind::Array, true) => Class::FixArray,
                (Kind::Map, true) => Class::FixMap,
                (Kind::Str, false) => Class::Str,
                (Kind::Bytes, false) => Class::Bin,
                (Kind::Array, false) => Class::Array,
                (Kind::Map, false) => Class::Map,
            },
            Header::DedupMarker => Class::DedupMarker,
            Header::StrRef(_) => Class::StrRef,
            Header::ShapeRef(_) if tag <= FIXSHAPE_LAST => Class::FixShape,
            Header::ShapeRef(_) => Class::ShapeRef,
        }
    }

    #[test]
    fn the_classes_partition_the_256_tag_bytes_in_order() {
        let mut next = 0u16;
        for class in Class::ALL {
            let tags = class.tags();
            assert_eq!(
                u16::from(*tags.start()),
                next,
                "{class:?} starts where the last ended"
            );
            assert!(tags.start() <= tags.end(), "{class:?}");
            next = u16::from(*tags.end()) + 1;
        }
        assert_eq!(next, 256);
    }

    #[test]
    fn every_tag_byte_decodes_as_its_class() {
        for tag in 0..=255u8 {
            let class = Class::of(tag);
            assert!(class.tags().contains(&tag), "tag {tag:#04x}");
            // A payload of 16s: a valid wide-integer width, and enough bytes
            // for any header.
            let mut input = vec![tag];
            input.extend_from_slice(&[16; 18]);
            match decode_header(&input, 0) {
                Ok((header, size)) => {
                    assert_eq!(class_of_header(header, tag), class, "tag {tag:#04x}");
                    let expected = match class {
                        Class::Str | Class::Bin | Class::Array | Class::Map => {
                            1 + length_class_width(tag)
                        }
                        Class::Uint | Class::Nint => 1 + int_width(tag),
                        Class::F16 | Class::F32 | Class::F64 => 1 + float_width(tag),
                        Class::WideUint | Class::WideNint => 2 + 16,
                        Class::StrRef => 1 + str_ref_width(tag),
                        Class::ShapeRef => 1 + shape_ref_width(tag),
                        _ => 1,
                    };
                    assert_eq!(size, expected, "tag {tag:#04x}");
                }
                Err(e) => {
                    assert_eq!(class, Class::Reserved, "tag {tag:#04x}: {e}");
                    assert_eq!(*e.kind(), ErrorKind::ReservedTag(tag));
                }
            }
        }
    }

    /// The tag table of `docs/spec.md`, section 2, as (first, last, name).
    fn spec_tag_table() -> Vec<(u8, u8, String)> {
        let spec = include_str!("../../../docs/spec.md");
        let hex = |s: &str| u8::from_str_radix(s.trim_matches('`').trim_start_matches("0x"), 16);
        spec.lines()
            .filter(|line| line.starts_with("| `0x"))
            .map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                let (first, last) = match cells[1].split_once('–') {
                    Some((a, b)) => (hex(a).unwrap(), hex(b).unwrap()),
                    None => (hex(cells[1]).unwrap(), hex(cells[1]).unwrap()),
                };
                (first, last, cells[2].to_string())
            })
            .collect()
    }

    #[test]
    fn the_classes_are_the_rows_of_the_spec_tag_table() {
        let ours: Vec<(u8, u8, String)> = Class::ALL
            .iter()
            .map(|c| (*c.tags().start(), *c.tags().end(), c.name().to_string()))
            .collect();
        assert_eq!(ours, spec_tag_table());
    }

    #[test]
    fn width_helpers_agree_with_the_ranges() {
        assert_eq!(int_width(UINT1), 1);
        assert_eq!(int_width(UINT_LAST), 8);
        assert_eq!(int_width(NINT1), 1);
        assert_eq!(int_width(NINT_LAST), 8);
        assert_eq!([F16, F32, F64].map(float_width), [2, 4, 8]);
        assert_eq!([STR_REF1, STR_REF2, STR_REF3].map(str_ref_width), [1, 2, 3]);
        assert_eq!([SHAPE_REF1, SHAPE_REF2].map(shape_ref_width), [1, 2]);
        assert_eq!([FIXSHAPE, FIXSHAPE_LAST].map(shape_ref_width), [0, 0]);
        assert_eq!([FIXSHAPE, FIXSHAPE_LAST].map(fixshape_index), [0, 7]);
        for index in 0..1 << 16 {
            let size = shape_ref_size(index);
            let tag = match size {
                1 => FIXSHAPE,
                2 => SHAPE_REF1,
                _ => SHAPE_REF2,
            };
            assert_eq!(size, 1 + shape_ref_width(tag), "shape {index}");
        }
        assert_eq!(fixnint_value(FIXNINT_MIN), FIXNINT_MIN_VALUE);
        assert_eq!(fixnint_value(FIXNINT_LAST), -1);
        for (kind, first, last) in [
            (Kind::Str, FIXSTR, FIXSTR_LAST),
            (Kind::Array, FIXARRAY, FIXARRAY_LAST),
            (Kind::Map, FIXMAP, FIXMAP_LAST),
        ] {
            assert_eq!(kind.inline_len(first), 0);
            assert_eq!(kind.inline_len(last), kind.inline().unwrap().1 as u64);
        }
        for (kind, first) in [
            (Kind::Str, STR8),
            (Kind::Bytes, BIN8),
            (Kind::Array, ARRAY8),
            (Kind::Map, MAP8),
        ] {
            for class in 0..LENGTH_CLASSES {
                assert_eq!(Kind::of_length_class(first + class), kind);
            }
        }
    }
}
