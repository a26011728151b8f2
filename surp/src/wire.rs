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
//! | tags          | meaning                                              |
//! |---------------|------------------------------------------------------|
//! | `0x00..=0x7f` | unsigned integer 0 to 127                            |
//! | `0x80..=0x9f` | string, length 0 to 31 in the tag                    |
//! | `0xa0..=0xaf` | array, count 0 to 15 in the tag                      |
//! | `0xb0..=0xbf` | map, count 0 to 15 in the tag                        |
//! | `0xc0..=0xc7` | byte string, length 0 to 7 in the tag                |
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

use crate::error::{Error, ErrorKind, Result};
use crate::float;
use crate::output::Output;

/// Largest unsigned integer that fits in the tag byte.
pub const FIXUINT_MAX: u8 = 0x7f;
/// First tag of the inline-length strings; the low 5 bits are the length.
pub const FIXSTR: u8 = 0x80;
/// Longest string whose length fits in the tag.
pub const FIXSTR_MAX_LEN: usize = 31;
/// First tag of the inline-count arrays; the low 4 bits are the count.
pub const FIXARRAY: u8 = 0xa0;
/// Largest array count that fits in the tag.
pub const FIXARRAY_MAX_LEN: usize = 15;
/// First tag of the inline-count maps; the low 4 bits are the count.
pub const FIXMAP: u8 = 0xb0;
/// Largest map count that fits in the tag.
pub const FIXMAP_MAX_LEN: usize = 15;
/// First tag of the inline-length byte strings; the low 3 bits are the length.
pub const FIXBIN: u8 = 0xc0;
/// Longest byte string whose length fits in the tag.
pub const FIXBIN_MAX_LEN: usize = 7;
/// String with a 1, 2, 4 or 8-byte length (`STR8 + class`).
pub const STR8: u8 = 0xc8;
/// Byte string with a 1, 2, 4 or 8-byte length (`BIN8 + class`).
pub const BIN8: u8 = 0xcc;
/// Array with a 1, 2, 4 or 8-byte count (`ARRAY8 + class`).
pub const ARRAY8: u8 = 0xd0;
/// Map with a 1, 2, 4 or 8-byte count (`MAP8 + class`).
pub const MAP8: u8 = 0xd4;
/// Unsigned integer in the next `tag - UINT1 + 1` bytes.
pub const UINT1: u8 = 0xd8;
/// Negative integer `-1 - n`, with `n` in the next `tag - NINT1 + 1` bytes.
pub const NINT1: u8 = 0xe0;
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
/// Unsigned integer wider than 64 bits: a length byte (9 to 16), then the bytes.
pub const WIDE_UINT: u8 = 0xef;
/// Negative integer `-1 - n` with `n` wider than 64 bits: a length byte, then `n`.
pub const WIDE_NINT: u8 = 0xf0;
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

/// Kinds of length-prefixed items: the container or payload a header opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A UTF-8 string.
    Str,
    /// A byte string.
    Bytes,
    /// An array of values.
    Array,
    /// A map of key-value pairs.
    Map,
}

impl Kind {
    /// Tag of the inline form and the largest length it holds.
    #[inline]
    const fn inline(self) -> (u8, usize) {
        match self {
            Kind::Str => (FIXSTR, FIXSTR_MAX_LEN),
            Kind::Bytes => (FIXBIN, FIXBIN_MAX_LEN),
            Kind::Array => (FIXARRAY, FIXARRAY_MAX_LEN),
            Kind::Map => (FIXMAP, FIXMAP_MAX_LEN),
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

    /// A lowercase noun for messages.
    pub const fn noun(self) -> &'static str {
        match self {
            Kind::Str => "string",
            Kind::Bytes => "byte string",
            Kind::Array => "array",
            Kind::Map => "map",
        }
    }
}

/// Size in bytes of the header that [`write_header`] writes for `len`.
#[inline]
pub const fn header_size(kind: Kind, len: usize) -> usize {
    if len <= kind.inline().1 {
        1
    } else {
        1 + length_class_width(length_class(len as u64))
    }
}

/// Writes the header of a string, byte string, array or map of `len` items.
#[inline]
pub fn write_header<O: Output + ?Sized>(out: &mut O, kind: Kind, len: usize) -> Result<()> {
    let (fix, max) = kind.inline();
    if len <= max {
        return out.write_u8(fix | len as u8);
    }
    let len = len as u64;
    let class = length_class(len);
    let width = length_class_width(class);
    let mut buf = [0u8; 9];
    buf[0] = kind.prefixed() + class;
    buf[1..9].copy_from_slice(&len.to_le_bytes());
    out.write_prefix(&buf, 1 + width)
}

/// Writes a non-negative integer in its shortest form.
#[inline]
pub fn write_uint<O: Output + ?Sized>(out: &mut O, v: u64) -> Result<()> {
    if v <= FIXUINT_MAX as u64 {
        return out.write_u8(v as u8);
    }
    write_width_prefixed(out, UINT1, v)
}

/// Writes a negative integer `-1 - n` in its shortest form.
#[inline]
pub fn write_nint<O: Output + ?Sized>(out: &mut O, n: u64) -> Result<()> {
    // -1 - n >= -8  <=>  n <= 7
    if n <= 7 {
        return out.write_u8(!(n as u8));
    }
    write_width_prefixed(out, NINT1, n)
}

#[inline]
fn write_width_prefixed<O: Output + ?Sized>(out: &mut O, first_tag: u8, v: u64) -> Result<()> {
    let width = byte_width(v);
    let mut buf = [0u8; 9];
    buf[0] = first_tag + (width as u8 - 1);
    buf[1..9].copy_from_slice(&v.to_le_bytes());
    out.write_prefix(&buf, 1 + width)
}

/// Writes a signed integer in its shortest form.
#[inline]
pub fn write_i64<O: Output + ?Sized>(out: &mut O, v: i64) -> Result<()> {
    if v >= 0 {
        write_uint(out, v as u64)
    } else {
        // For negative v, !v == -1 - v is non-negative and fits in u64.
        write_nint(out, !v as u64)
    }
}

/// Writes a 128-bit unsigned integer: the 64-bit forms when it fits.
pub fn write_u128<O: Output + ?Sized>(out: &mut O, v: u128) -> Result<()> {
    match u64::try_from(v) {
        Ok(v) => write_uint(out, v),
        Err(_) => write_wide(out, WIDE_UINT, v),
    }
}

/// Writes a 128-bit signed integer: the 64-bit forms when it fits.
pub fn write_i128<O: Output + ?Sized>(out: &mut O, v: i128) -> Result<()> {
    if v >= 0 {
        write_u128(out, v as u128)
    } else {
        let n = !v as u128;
        match u64::try_from(n) {
            Ok(n) => write_nint(out, n),
            Err(_) => write_wide(out, WIDE_NINT, n),
        }
    }
}

#[cold]
fn write_wide<O: Output + ?Sized>(out: &mut O, tag: u8, v: u128) -> Result<()> {
    let width = (128 - v.leading_zeros() as usize).div_ceil(8);
    let mut buf = [0u8; 18];
    buf[0] = tag;
    buf[1] = width as u8;
    buf[2..18].copy_from_slice(&v.to_le_bytes());
    out.write_all(&buf[..2 + width])
}

/// Writes an `f64` in the shortest float form that gives back the same bits.
#[inline]
pub fn write_f64<O: Output + ?Sized>(out: &mut O, v: f64) -> Result<()> {
    match float::shortest_f64(v) {
        float::Shortest::F16(h) => write_f16_bits(out, h),
        float::Shortest::F32(s) => write_f32_bits(out, s.to_bits()),
        float::Shortest::F64 => {
            let mut buf = [0u8; 9];
            buf[0] = F64;
            buf[1..].copy_from_slice(&v.to_bits().to_le_bytes());
            out.write_all(&buf)
        }
    }
}

/// Writes an `f32` as binary16 when that is exact, else as binary32.
#[inline]
pub fn write_f32<O: Output + ?Sized>(out: &mut O, v: f32) -> Result<()> {
    match float::f32_to_f16_exact(v) {
        Some(h) => write_f16_bits(out, h),
        None => write_f32_bits(out, v.to_bits()),
    }
}

#[inline]
fn write_f16_bits<O: Output + ?Sized>(out: &mut O, bits: u16) -> Result<()> {
    let b = bits.to_le_bytes();
    out.write_all(&[F16, b[0], b[1]])
}

#[inline]
fn write_f32_bits<O: Output + ?Sized>(out: &mut O, bits: u32) -> Result<()> {
    let b = bits.to_le_bytes();
    out.write_all(&[F32, b[0], b[1], b[2], b[3]])
}

/// Writes a string: header and UTF-8 bytes.
#[inline]
pub fn write_str<O: Output + ?Sized>(out: &mut O, s: &str) -> Result<()> {
    write_header(out, Kind::Str, s.len())?;
    out.write_all(s.as_bytes())
}

/// Writes a byte string: header and bytes.
#[inline]
pub fn write_bytes<O: Output + ?Sized>(out: &mut O, b: &[u8]) -> Result<()> {
    write_header(out, Kind::Bytes, b.len())?;
    out.write_all(b)
}

/// Writes a boolean.
#[inline]
pub fn write_bool<O: Output + ?Sized>(out: &mut O, v: bool) -> Result<()> {
    out.write_u8(if v { TRUE } else { FALSE })
}

/// Size of the encoding of a string of `len` bytes.
#[inline]
pub const fn str_size(len: usize) -> usize {
    header_size(Kind::Str, len) + len
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
    if index < 1 << 8 { 2 } else { 3 }
}

/// Most string table slots a deduplicated document can address (3-byte index).
pub const MAX_STRING_SLOTS: usize = 1 << 24;
/// Most shapes a deduplicated document can address (2-byte index).
pub const MAX_SHAPES: usize = 1 << 16;
/// Most keys in a map that can become a shape.
pub const MAX_SHAPE_KEYS: usize = 64;

/// Writes a reference to string table slot `index` (`index < MAX_STRING_SLOTS`).
#[inline]
pub fn write_str_ref<O: Output + ?Sized>(out: &mut O, index: usize) -> Result<()> {
    let b = (index as u32).to_le_bytes();
    match str_ref_size(index) {
        2 => out.write_all(&[STR_REF1, b[0]]),
        3 => out.write_all(&[STR_REF2, b[0], b[1]]),
        _ => out.write_all(&[STR_REF3, b[0], b[1], b[2]]),
    }
}

/// Writes a reference to shape `index` (`index < MAX_SHAPES`).
#[inline]
pub fn write_shape_ref<O: Output + ?Sized>(out: &mut O, index: usize) -> Result<()> {
    let b = (index as u32).to_le_bytes();
    if index < 1 << 8 {
        out.write_all(&[SHAPE_REF1, b[0]])
    } else {
        out.write_all(&[SHAPE_REF2, b[0], b[1]])
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
    let header = match tag {
        0x00..=FIXUINT_MAX => return Ok((Header::Uint(tag.into()), 1)),
        FIXSTR..=0x9f => return Ok((Header::Len(Kind::Str, (tag & 0x1f).into()), 1)),
        FIXARRAY..=0xaf => return Ok((Header::Len(Kind::Array, (tag & 0x0f).into()), 1)),
        FIXMAP..=0xbf => return Ok((Header::Len(Kind::Map, (tag & 0x0f).into()), 1)),
        FIXBIN..=0xc7 => return Ok((Header::Len(Kind::Bytes, (tag & 0x07).into()), 1)),
        STR8..=0xd7 => {
            let kind = match (tag - STR8) / 4 {
                0 => Kind::Str,
                1 => Kind::Bytes,
                2 => Kind::Array,
                _ => Kind::Map,
            };
            let width = length_class_width(tag);
            return Ok((Header::Len(kind, payload(width)?), 1 + width));
        }
        UINT1..=0xdf => {
            let width = usize::from(tag - UINT1) + 1;
            return Ok((Header::Uint(payload(width)?), 1 + width));
        }
        NINT1..=0xe7 => {
            let width = usize::from(tag - NINT1) + 1;
            return Ok((Header::Nint(payload(width)?), 1 + width));
        }
        NULL => Header::Null,
        FALSE => Header::Bool(false),
        TRUE => Header::Bool(true),
        SOME => Header::Some,
        F16 => return Ok((Header::F16(float::f16_to_f32(payload(2)? as u16)), 3)),
        F32 => return Ok((Header::F32(f32::from_bits(payload(4)? as u32)), 5)),
        F64 => return Ok((Header::F64(f64::from_bits(payload(8)?)), 9)),
        WIDE_UINT | WIDE_NINT => {
            let width = payload(1)? as usize;
            if !(9..=16).contains(&width) {
                return Err(Error::new(
                    ErrorKind::InvalidWideInteger(width as u8),
                    offset,
                ));
            }
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
            return Ok((header, 2 + width));
        }
        RESERVED => return Err(Error::new(ErrorKind::ReservedTag(tag), offset)),
        DEDUP_MARKER => Header::DedupMarker,
        STR_REF1..=STR_REF3 => {
            let width = usize::from(tag - STR_REF1) + 1;
            return Ok((Header::StrRef(payload(width)? as u32), 1 + width));
        }
        SHAPE_REF1 | SHAPE_REF2 => {
            let width = usize::from(tag - SHAPE_REF1) + 1;
            return Ok((Header::ShapeRef(payload(width)? as u32), 1 + width));
        }
        FIXNINT_MIN..=0xff => Header::Nint(u64::from(!tag)),
    };
    Ok((header, 1))
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
    fn every_tag_byte_is_assigned_exactly_once() {
        // Each tag either decodes (given enough payload) or is the one reserved tag.
        let mut reserved = 0;
        for tag in 0..=255u8 {
            let mut input = vec![tag];
            input.extend_from_slice(&[16; 18]);
            match decode_header(&input, 0) {
                Ok(_) => {}
                Err(e) if *e.kind() == ErrorKind::ReservedTag(tag) => reserved += 1,
                Err(e) => panic!("tag {tag:#04x}: {e}"),
            }
        }
        assert_eq!(reserved, 1);
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
            (Kind::Bytes, 7),
            (Kind::Bytes, 8),
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
