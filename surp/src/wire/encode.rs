//! Writing the vocabulary: headers, integers, floats, strings and references
//! in their shortest forms. Both serializers (`surp::ser` and `surp-dedup`)
//! write every byte through these functions.

use super::{
    F16, F32, F64, FALSE, FIXMAP, FIXSHAPE, FIXSHAPE_COUNT, FIXSTR, FIXUINT_MAX, Kind, NINT1, NULL,
    SHAPE_REF1, SHAPE_REF2, SOME, STR_REF1, STR_REF2, STR_REF3, TRUE, UINT1, WIDE_NINT, WIDE_UINT,
    byte_width, length_class, length_class_width, str_ref_size,
};
#[allow(unused_imports)]
use crate::prelude::*;

pub use super::float_bytes::{FloatBytes, shortest_f64_bytes};
use crate::error::Result;
use crate::float;
use crate::output::Output;

/// Size in bytes of the header that [`write_header`] writes for `len`.
#[inline]
pub const fn header_size(kind: Kind, len: usize) -> usize {
    if let Some((_, max)) = kind.inline()
        && len <= max
    {
        1
    } else {
        1 + length_class_width(length_class(len as u64))
    }
}

/// Writes the header of a string, byte string, array or map of `len` items.
#[inline]
pub fn write_header<O: Output + ?Sized>(out: &mut O, kind: Kind, len: usize) -> Result<()> {
    if let Some((fix, max)) = kind.inline()
        && len <= max
    {
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
///
/// This stays on the branches of `float::shortest_f64`: for the Rust
/// serializers, writing into a `Vec`, the branch-free
/// [`shortest_f64_bytes`] executed more instructions on the value suite's
/// float-heavy datasets (the instruction check). `surp-py`'s output, which
/// stores its two words directly, uses it.
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
#[inline(always)]
pub fn write_f32<O: Output + ?Sized>(out: &mut O, v: f32) -> Result<()> {
    // Every binary32 that binary16 holds has its 13 low mantissa bits clear
    // (normals, subnormals, infinities and NaNs alike; zero trivially), so
    // one test sends most measured data straight to binary32. Only here: on
    // `write_f64`'s path it costs more than it saves.
    if v.to_bits() & ((1 << 13) - 1) != 0 {
        return write_f32_bits(out, v.to_bits());
    }
    write_f32_narrowable(out, v)
}

/// [`write_f32`] of a value whose 13 low mantissa bits are clear, which
/// may narrow to binary16: out of line, and the last call of `write_f32`.
#[inline(never)]
fn write_f32_narrowable<O: Output + ?Sized>(out: &mut O, v: f32) -> Result<()> {
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

/// Writes a string that is a constant where this is inlined, such as a
/// struct's field name: up to 15 bytes, its header and bytes fold into one
/// constant buffer written in a single fixed-size copy, instead of a tag
/// write and a copy of variable length.
#[inline(always)]
pub fn write_static_str<O: Output + ?Sized>(out: &mut O, s: &str) -> Result<()> {
    write_static_str_after(out, &[], s)
}

/// Writes the start of an enum variant with content: the header of a map of
/// one entry, then the variant's name, as [`write_static_str`] writes it: a
/// name of up to 14 bytes and both headers are one fixed-size copy.
#[inline(always)]
pub fn write_variant_key<O: Output + ?Sized>(out: &mut O, variant: &str) -> Result<()> {
    write_static_str_after(out, &[FIXMAP | 1], variant)
}

/// Writes `prefix` (constant bytes, such as a header) and then the constant
/// string `s`: in one copy of exactly their length when all of it fits in
/// 16 bytes. The length is a constant where this is inlined, so the copy is
/// a few stores of immediates; copying all 16 bytes and dropping the tail
/// (as [`Output::write_prefix`] does for lengths known only at run time)
/// stores more than the string has.
#[inline(always)]
fn write_static_str_after<O: Output + ?Sized>(out: &mut O, prefix: &[u8], s: &str) -> Result<()> {
    const BUF: usize = 16;
    let (at, len) = (prefix.len(), s.len());
    if at + 1 + len <= BUF {
        let mut buf = [0u8; BUF];
        buf[..at].copy_from_slice(prefix);
        buf[at] = FIXSTR | len as u8;
        buf[at + 1..at + 1 + len].copy_from_slice(s.as_bytes());
        return out.write_all(&buf[..at + 1 + len]);
    }
    out.write_all(prefix)?;
    write_str(out, s)
}

/// Writes a byte string: header and bytes.
#[inline]
pub fn write_bytes<O: Output + ?Sized>(out: &mut O, b: &[u8]) -> Result<()> {
    write_header(out, Kind::Bytes, b.len())?;
    out.write_all(b)
}

/// The longest array or map header: a tag and an 8-byte count. A
/// collection whose count is not known when it opens is written after a gap
/// this long, for [`write_header_in_gap`].
pub const MAX_HEADER: usize = 9;

/// Writes the header of a collection of `count` items that were written
/// after a gap of [`MAX_HEADER`] bytes at `gap` in `buf`: the header goes at
/// the end of the gap, so the items need not move. Returns the slack, the
/// bytes of the gap before the header, which the caller removes later.
#[inline]
pub fn write_header_in_gap(
    buf: &mut Vec<u8>,
    gap: usize,
    kind: Kind,
    count: usize,
) -> Result<usize> {
    let end = buf.len();
    write_header(buf, kind, count)?;
    let len = buf.len() - end;
    buf.copy_within(end.., gap + MAX_HEADER - len);
    buf.truncate(end);
    Ok(MAX_HEADER - len)
}

/// Writes the null that ends a chain of `pending` nested `Some`s, after a
/// `some` tag for each of them: the content is written as null, so without
/// the tags `Some(None)` would read as `None` (spec section 5.3).
#[inline]
pub fn write_marked_null<O: Output + ?Sized>(out: &mut O, pending: usize) -> Result<()> {
    for _ in 0..pending {
        out.write_u8(SOME)?;
    }
    out.write_u8(NULL)
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

/// Writes a reference to string table slot `index` (`index < MAX_STRING_SLOTS`).
#[inline]
pub fn write_str_ref<O: Output + ?Sized>(out: &mut O, index: usize) -> Result<()> {
    let b = (index as u32).to_le_bytes();
    // One fixed-size write (see `Output::write_prefix`), whatever the size.
    match str_ref_size(index) {
        2 => out.write_prefix(&[STR_REF1, b[0], 0, 0], 2),
        3 => out.write_prefix(&[STR_REF2, b[0], b[1], 0], 3),
        _ => out.write_prefix(&[STR_REF3, b[0], b[1], b[2]], 4),
    }
}

/// Writes a reference to shape `index` (`index < MAX_SHAPES`).
#[inline]
pub fn write_shape_ref<O: Output + ?Sized>(out: &mut O, index: usize) -> Result<()> {
    let b = (index as u32).to_le_bytes();
    if index < FIXSHAPE_COUNT {
        out.write_prefix(&[FIXSHAPE + b[0], 0, 0], 1)
    } else if index < 1 << 8 {
        out.write_prefix(&[SHAPE_REF1, b[0], 0], 2)
    } else {
        out.write_prefix(&[SHAPE_REF2, b[0], b[1]], 3)
    }
}
