//! The wire vocabulary of Surp: every tag byte and length class, in one place.
//!
//! This module is the code twin of `docs/spec.md`. The serializer and the
//! deserializer never invent bytes: they name the constants and call the
//! primitives here, so the spec and the code can be read side by side.
//!
//! A Surp value starts with one tag byte. Small integers and the lengths of
//! short strings, byte strings, arrays and maps live inside the tag. Larger
//! lengths and integers follow the tag as 1 to 8 little-endian bytes; the tag
//! says how many, so a decoder needs one branch and one fixed-width load.
//!
//! Every range of tags is named by a pair of constants (`FIXSTR..=FIXSTR_LAST`,
//! `STR8..=STR_LAST`, ...), and [`Class`] names each row of the table. A
//! decoder's hot `match` on a tag names the ranges; tools that want one
//! header at a time use [`decode_header`]. The writers are in this module
//! too, so no other code writes or tests a tag byte by its number.
//!
//! | tags          | meaning                                              |
//! |---------------|------------------------------------------------------|
//! | `0x00..=0x7f` | unsigned integer 0 to 127                            |
//! | `0x80..=0x9f` | string, length 0 to 31 in the tag                    |
//! | `0xa0..=0xaf` | array, count 0 to 15 in the tag                      |
//! | `0xb0..=0xbf` | map, count 0 to 15 in the tag                        |
//! | `0xc0..=0xc7` | deduplication: reference to shape 0 to 7 in the tag  |
//! | `0xc8..=0xcb` | string, length in the next 1, 2, 4 or 8 bytes        |
//! | `0xcc..=0xcf` | byte string, length in the next 1, 2, 4 or 8 bytes   |
//! | `0xd0..=0xd3` | array, count in the next 1, 2, 4 or 8 bytes          |
//! | `0xd4..=0xd7` | map, count in the next 1, 2, 4 or 8 bytes            |
//! | `0xd8..=0xdf` | unsigned integer in the next 1 to 8 bytes            |
//! | `0xe0..=0xe7` | negative integer `-1 - n`, n in the next 1 to 8 bytes|
//! | `0xe8`        | null                                                 |
//! | `0xe9`,`0xea` | false, true                                          |
//! | `0xeb`        | some: marks an `Option::Some` whose content would otherwise read as null |
//! | `0xec..=0xee` | float: binary16, binary32, binary64                  |
//! | `0xef`,`0xf0` | wide unsigned / negative integer (9 to 16 bytes)     |
//! | `0xf1`        | reserved                                             |
//! | `0xf2..=0xf7` | deduplication: document marker, string and shape references |
//! | `0xf8..=0xff` | negative integer -8 to -1                            |

mod class;
pub(crate) mod encode;
mod float_bytes;

pub use class::Class;
pub(crate) use encode::*;

use core::ops::RangeInclusive;

use crate::error::{Error, ErrorKind, Result};
use crate::float;

// Each range of tags is named by its first and last byte, so that a `match`
// on a tag reads `FIXSTR..=FIXSTR_LAST` and compiles to the same jump table
// as literal bytes would.

/// First tag of the inline unsigned integers: the tag is the value.
pub const FIXUINT: u8 = 0x00;
/// Largest unsigned integer that fits in the tag byte.
pub const FIXUINT_MAX: u8 = 0x7f;
/// First tag of the inline-length strings; the low 5 bits are the length.
pub const FIXSTR: u8 = 0x80;
/// Longest string whose length fits in the tag.
pub const FIXSTR_MAX_LEN: usize = 31;
/// Last tag of the inline-length strings.
pub const FIXSTR_LAST: u8 = FIXSTR + FIXSTR_MAX_LEN as u8;
/// First tag of the inline-count arrays; the low 4 bits are the count.
pub const FIXARRAY: u8 = 0xa0;
/// Largest array count that fits in the tag.
pub const FIXARRAY_MAX_LEN: usize = 15;
/// Last tag of the inline-count arrays.
pub const FIXARRAY_LAST: u8 = FIXARRAY + FIXARRAY_MAX_LEN as u8;
/// First tag of the inline-count maps; the low 4 bits are the count.
pub const FIXMAP: u8 = 0xb0;
/// Largest map count that fits in the tag.
pub const FIXMAP_MAX_LEN: usize = 15;
/// Last tag of the inline-count maps.
pub const FIXMAP_LAST: u8 = FIXMAP + FIXMAP_MAX_LEN as u8;
/// Reference to shape 0, the first of the one-byte shape references: the
/// tag is `FIXSHAPE + index` for shapes 0 to [`FIXSHAPE_COUNT`]` - 1`; the
/// values follow. (Version 1 had inline-length byte strings here.)
pub const FIXSHAPE: u8 = 0xc0;
/// How many shapes have a one-byte reference.
pub const FIXSHAPE_COUNT: usize = 8;
/// Last tag of the one-byte shape references.
pub const FIXSHAPE_LAST: u8 = FIXSHAPE + FIXSHAPE_COUNT as u8 - 1;
/// Number of length classes: a length or count in 1, 2, 4 or 8 bytes.
pub const LENGTH_CLASSES: u8 = 4;
/// String with a 1, 2, 4 or 8-byte length (`STR8 + class`).
pub const STR8: u8 = 0xc8;
/// Last tag of the length-prefixed strings (8-byte length).
pub const STR_LAST: u8 = STR8 + LENGTH_CLASSES - 1;
/// Byte string with a 1, 2, 4 or 8-byte length (`BIN8 + class`).
pub const BIN8: u8 = STR8 + LENGTH_CLASSES;
/// Last tag of the length-prefixed byte strings.
pub const BIN_LAST: u8 = BIN8 + LENGTH_CLASSES - 1;
/// Array with a 1, 2, 4 or 8-byte count (`ARRAY8 + class`).
pub const ARRAY8: u8 = BIN8 + LENGTH_CLASSES;
/// Last tag of the count-prefixed arrays.
pub const ARRAY_LAST: u8 = ARRAY8 + LENGTH_CLASSES - 1;
/// Map with a 1, 2, 4 or 8-byte count (`MAP8 + class`).
pub const MAP8: u8 = ARRAY8 + LENGTH_CLASSES;
/// Last tag of the count-prefixed maps.
pub const MAP_LAST: u8 = MAP8 + LENGTH_CLASSES - 1;
/// Unsigned integer in the next `tag - UINT1 + 1` bytes.
pub const UINT1: u8 = MAP_LAST + 1;
/// Last tag of the width-prefixed unsigned integers (8 bytes).
pub const UINT_LAST: u8 = UINT1 + 7;
/// Negative integer `-1 - n`, with `n` in the next `tag - NINT1 + 1` bytes.
pub const NINT1: u8 = UINT_LAST + 1;
/// Last tag of the width-prefixed negative integers (8 bytes).
pub const NINT_LAST: u8 = NINT1 + 7;
/// Null: unit, `None`, unit structs.
pub const NULL: u8 = 0xe8;
/// Boolean false.
pub const FALSE: u8 = 0xe9;
/// Boolean true.
pub const TRUE: u8 = 0xea;
/// Marks `Some(x)` where `x` itself encodes as null or as another `SOME`.
pub const SOME: u8 = 0xeb;
/// IEEE 754 binary16, little-endian.
pub const F16: u8 = 0xec;
/// IEEE 754 binary32, little-endian.
pub const F32: u8 = 0xed;
/// IEEE 754 binary64, little-endian.
pub const F64: u8 = 0xee;
/// Unsigned integer wider than 64 bits: a width byte, then the bytes.
pub const WIDE_UINT: u8 = 0xef;
/// Negative integer `-1 - n` with `n` wider than 64 bits: a width byte, then `n`.
pub const WIDE_NINT: u8 = 0xf0;
/// The widths a wide integer may declare: 9 to 16 bytes. Narrower values
/// have a 64-bit form, and 16 bytes hold every 128-bit integer.
pub const WIDE_WIDTHS: RangeInclusive<u8> = 9..=16;
/// Reserved for a future revision. Decoders reject it.
pub const RESERVED: u8 = 0xf1;
/// First byte of a deduplicated document (see `surp-dedup`).
pub const DEDUP_MARKER: u8 = 0xf2;
/// Reference to string table slot, 1-byte index.
pub const STR_REF1: u8 = 0xf3;
/// Reference to string table slot, 2-byte index.
pub const STR_REF2: u8 = 0xf4;
/// Reference to string table slot, 3-byte index.
pub const STR_REF3: u8 = 0xf5;
/// Map whose keys are shape table entry with a 1-byte index; the values follow.
pub const SHAPE_REF1: u8 = 0xf6;
/// Map whose keys are shape table entry with a 2-byte index; the values follow.
pub const SHAPE_REF2: u8 = 0xf7;
/// The tag of -8; tags `0xf8..=0xff` are -8 to -1 as two's complement bytes.
pub const FIXNINT_MIN: u8 = 0xf8;
/// Last tag of the inline negative integers: -1.
pub const FIXNINT_LAST: u8 = 0xff;
/// Smallest negative integer that fits in the tag.
pub const FIXNINT_MIN_VALUE: i64 = -8;

/// Number of payload bytes after a length-class tag: `1 << class`.
#[inline]
pub const fn length_class_width(class: u8) -> usize {
    1 << (class & 3)
}

/// The length class (0 to 3: 1, 2, 4 or 8 bytes) that holds `n`.
#[inline]
pub const fn length_class(n: u64) -> u8 {
    if n <= 0xff {
        0
    } else if n <= 0xffff {
        1
    } else if n <= 0xffff_ffff {
        2
    } else {
        3
    }
}

/// The number of bytes (1 to 8) needed to hold a non-zero `n`; 1 for zero.
#[inline]
pub const fn byte_width(n: u64) -> usize {
    let bits = 64 - (n | 1).leading_zeros() as usize;
    bits.div_ceil(8)
}

/// Payload bytes after a `uint` (`UINT1..=UINT_LAST`) or `nint`
/// (`NINT1..=NINT_LAST`) tag: 1 to 8, the low three bits plus one.
#[inline]
pub const fn int_width(tag: u8) -> usize {
    (tag & 7) as usize + 1
}

/// Payload bytes after a float tag (`F16`, `F32` or `F64`): 2, 4 or 8.
#[inline]
pub const fn float_width(tag: u8) -> usize {
    2 << (tag - F16)
}

/// Index bytes after a string reference tag (`STR_REF1..=STR_REF3`): 1 to 3.
#[inline]
pub const fn str_ref_width(tag: u8) -> usize {
    (tag - STR_REF1) as usize + 1
}

/// Index bytes after a shape reference tag: 0 for `FIXSHAPE..=FIXSHAPE_LAST`
/// (the index is in the tag, see [`fixshape_index`]), 1 or 2 for
/// `SHAPE_REF1..=SHAPE_REF2`.
#[inline]
pub const fn shape_ref_width(tag: u8) -> usize {
    if tag <= FIXSHAPE_LAST {
        0
    } else {
        (tag - SHAPE_REF1) as usize + 1
    }
}

/// The shape a one-byte shape reference (`FIXSHAPE..=FIXSHAPE_LAST`) names.
#[inline]
pub const fn fixshape_index(tag: u8) -> u32 {
    (tag - FIXSHAPE) as u32
}

/// The value of an inline negative integer tag (`FIXNINT_MIN..=FIXNINT_LAST`).
#[inline]
pub const fn fixnint_value(tag: u8) -> i64 {
    tag as i8 as i64
}

/// Size of a deduplication string reference to slot `index`.
///
/// Slots at or beyond [`MAX_STRING_SLOTS`] cannot be referenced.
#[inline]
pub const fn str_ref_size(index: usize) -> usize {
    if index < 1 << 8 {
        2
    } else if index < 1 << 16 {
        3
    } else {
        4
    }
}

/// Size of a deduplication shape reference to shape `index`.
#[inline]
pub const fn shape_ref_size(index: usize) -> usize {
    if index < FIXSHAPE_COUNT {
        1
    } else if index < 1 << 8 {
        2
    } else {
        3
    }
}

/// Most string table slots a deduplicated document can address (3-byte index).
pub const MAX_STRING_SLOTS: usize = 1 << 24;
/// Most shapes a deduplicated document can address (2-byte index).
pub const MAX_SHAPES: usize = 1 << 16;

pub use crate::kind::Kind;

/// Where a kind's tags are in the tag table.
impl Kind {
    /// The length in an inline-form tag of this kind (`FIXSTR..=FIXSTR_LAST`,
    /// `FIXARRAY..=FIXARRAY_LAST` or `FIXMAP..=FIXMAP_LAST`): the tag's low
    /// bits. Byte strings have no inline form.
    #[inline]
    pub const fn inline_len(self, tag: u8) -> u64 {
        match self.inline() {
            Some((_, max)) => (tag & max as u8) as u64,
            None => 0,
        }
    }

    /// The kind of a length-class tag (`STR8..=MAP_LAST`).
    #[inline]
    pub const fn of_length_class(tag: u8) -> Kind {
        match (tag - STR8) / LENGTH_CLASSES {
            0 => Kind::Str,
            1 => Kind::Bytes,
            2 => Kind::Array,
            _ => Kind::Map,
        }
    }

    /// Tag of the inline form and the largest length it holds; byte
    /// strings have none (their tags went to one-byte shape references).
    #[inline]
    pub(crate) const fn inline(self) -> Option<(u8, usize)> {
        match self {
            Kind::Str => Some((FIXSTR, FIXSTR_MAX_LEN)),
            Kind::Bytes => None,
            Kind::Array => Some((FIXARRAY, FIXARRAY_MAX_LEN)),
            Kind::Map => Some((FIXMAP, FIXMAP_MAX_LEN)),
        }
    }

    /// First tag of the four length-prefixed forms.
    #[inline]
    const fn prefixed(self) -> u8 {
        match self {
            Kind::Str => STR8,
            Kind::Bytes => BIN8,
            Kind::Array => ARRAY8,
            Kind::Map => MAP8,
        }
    }
}

/// One decoded header: what a tag byte and its fixed-width payload say.
///
/// Lengths are as declared by the input and not yet checked against it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Header {
    /// Unsigned integer.
    Uint(u64),
    /// Negative integer `-1 - n`.
    Nint(u64),
    /// Unsigned integer wider than 64 bits.
    WideUint(u128),
    /// Negative integer `-1 - n`, `n` wider than 64 bits.
    WideNint(u128),
    /// A binary16 float, widened.
    F16(f32),
    /// A binary32 float.
    F32(f32),
    /// A binary64 float.
    F64(f64),
    /// Null.
    Null,
    /// A boolean.
    Bool(bool),
    /// The `Option::Some` marker; a value follows.
    Some,
    /// A string, byte string, array or map of the given length; its items follow.
    Len(Kind, u64),
    /// The deduplicated-document marker.
    DedupMarker,
    /// A reference to a string table slot.
    StrRef(u32),
    /// A map with the keys of the given shape; the values follow.
    ShapeRef(u32),
}

/// Decodes the header at the start of `input`, returning it and its size.
///
/// This is the reference decoder of the tag table: tools such as an
/// annotated dump use it; the deserializer has a faster, equivalent path.
/// `offset` is used only to place errors.
pub fn decode_header(input: &[u8], offset: usize) -> Result<(Header, usize)> {
    let Some(&tag) = input.first() else {
        return Err(Error::new(ErrorKind::UnexpectedEof, offset));
    };
    let payload = |n: usize| -> Result<u64> {
        match input.get(1..1 + n) {
            Some(b) => Ok(le_u64(b)),
            None => Err(Error::new(ErrorKind::UnexpectedEof, offset + input.len())),
        }
    };
    let (header, size) = match Class::of(tag) {
        Class::FixUint => (Header::Uint(tag.into()), 1),
        Class::FixStr => (Header::Len(Kind::Str, Kind::Str.inline_len(tag)), 1),
        Class::FixArray => (Header::Len(Kind::Array, Kind::Array.inline_len(tag)), 1),
        Class::FixMap => (Header::Len(Kind::Map, Kind::Map.inline_len(tag)), 1),
        Class::FixShape => (Header::ShapeRef(fixshape_index(tag)), 1),
        Class::Str | Class::Bin | Class::Array | Class::Map => {
            let width = length_class_width(tag);
            let len = payload(width)?;
            (Header::Len(Kind::of_length_class(tag), len), 1 + width)
        }
        Class::Uint => (Header::Uint(payload(int_width(tag))?), 1 + int_width(tag)),
        Class::Nint => (Header::Nint(payload(int_width(tag))?), 1 + int_width(tag)),
        Class::Null => (Header::Null, 1),
        Class::False => (Header::Bool(false), 1),
        Class::True => (Header::Bool(true), 1),
        Class::Some => (Header::Some, 1),
        Class::F16 => (Header::F16(float::f16_to_f32(payload(2)? as u16)), 3),
        Class::F32 => (Header::F32(f32::from_bits(payload(4)? as u32)), 5),
        Class::F64 => (Header::F64(f64::from_bits(payload(8)?)), 9),
        Class::WideUint | Class::WideNint => {
            let width = payload(1)? as u8;
            if !WIDE_WIDTHS.contains(&width) {
                return Err(Error::new(ErrorKind::InvalidWideInteger(width), offset));
            }
            let width = usize::from(width);
            let Some(bytes) = input.get(2..2 + width) else {
                return Err(Error::new(ErrorKind::UnexpectedEof, offset + input.len()));
            };
            let mut buf = [0u8; 16];
            buf[..width].copy_from_slice(bytes);
            let v = u128::from_le_bytes(buf);
            let header = if tag == WIDE_UINT {
                Header::WideUint(v)
            } else {
                Header::WideNint(v)
            };
            (header, 2 + width)
        }
        Class::Reserved => return Err(Error::new(ErrorKind::ReservedTag(tag), offset)),
        Class::DedupMarker => (Header::DedupMarker, 1),
        Class::StrRef => {
            let width = str_ref_width(tag);
            (Header::StrRef(payload(width)? as u32), 1 + width)
        }
        Class::ShapeRef => {
            let width = shape_ref_width(tag);
            (Header::ShapeRef(payload(width)? as u32), 1 + width)
        }
        Class::FixNint => (Header::Nint(u64::from(!tag)), 1),
    };
    Ok((header, size))
}

/// Reads up to 8 little-endian bytes as an unsigned integer.
#[inline]
pub(crate) fn le_u64(bytes: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    buf[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(f: impl FnOnce(&mut Vec<u8>) -> Result<()>) -> Vec<u8> {
        let mut out = Vec::new();
        f(&mut out).unwrap();
        out
    }

    #[test]
    fn integers_take_their_shortest_form() {
        assert_eq!(encode(|o| write_uint(o, 127)), [0x7f]);
        assert_eq!(encode(|o| write_uint(o, 128)), [0xd8, 0x80]);
        assert_eq!(encode(|o| write_uint(o, 0x1_0000)), [0xda, 0, 0, 1]);
        assert_eq!(encode(|o| write_i64(o, -8)), [0xf8]);
        assert_eq!(encode(|o| write_i64(o, -9)), [0xe0, 8]);
        assert_eq!(
            encode(|o| write_i64(o, i64::MIN)),
            [0xe7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]
        );
    }

    #[test]
    fn header_roundtrips_through_decode_header() {
        for (kind, len) in [
            (Kind::Str, 31),
            (Kind::Str, 32),
            (Kind::Bytes, 0),
            (Kind::Bytes, 7),
            (Kind::Bytes, 256),
            (Kind::Map, 70_000),
        ] {
            let bytes = encode(|o| write_header(o, kind, len));
            assert_eq!(bytes.len(), header_size(kind, len));
            assert_eq!(
                decode_header(&bytes, 0).unwrap(),
                (Header::Len(kind, len as u64), bytes.len())
            );
        }
    }

    #[test]
    fn static_strings_encode_like_strings_at_every_length() {
        // The one-copy form covers 0..=15 bytes; longer ones fall back.
        let text = "\u{e9}abcdefghijklmnopqrstuvwxyz0123456789";
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let s = &text[..end];
            let bytes = encode(|o| write_static_str(o, s));
            assert_eq!(bytes, encode(|o| write_str(o, s)), "{s:?}");
            assert_eq!(bytes.len(), str_size(s.len()));
        }
    }

    #[test]
    fn variant_keys_encode_like_a_map_header_and_a_string_at_every_length() {
        // The one-copy form covers names of 0..=14 bytes; longer ones fall back.
        let text = "\u{e9}abcdefghijklmnopqrstuvwxyz0123456789";
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let s = &text[..end];
            let expected = encode(|o| {
                write_header(o, Kind::Map, 1)?;
                write_str(o, s)
            });
            assert_eq!(encode(|o| write_variant_key(o, s)), expected, "{s:?}");
        }
    }

    #[test]
    fn f32_takes_binary16_exactly_when_that_is_exact() {
        for h in 0..=u16::MAX {
            let v = crate::float::f16_to_f32(h);
            let [lo, hi] = h.to_le_bytes();
            assert_eq!(encode(|o| write_f32(o, v)), [F16, lo, hi], "{h:#06x}");
            // Any of the 13 low bits set leaves binary16's precision.
            let off = f32::from_bits(v.to_bits() | 1);
            let b = off.to_bits().to_le_bytes();
            assert_eq!(encode(|o| write_f32(o, off)), [F32, b[0], b[1], b[2], b[3]]);
        }
    }

    #[test]
    fn truncated_header_is_an_error() {
        assert_eq!(
            *decode_header(&[0xd9, 1], 0).unwrap_err().kind(),
            ErrorKind::UnexpectedEof
        );
        assert_eq!(
            *decode_header(&[], 0).unwrap_err().kind(),
            ErrorKind::UnexpectedEof
        );
    }
}
