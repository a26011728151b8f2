//! The shortest exact form of a float as its wire bytes, computed without
//! a branch on the form (see [`shortest_f64_bytes`]).

use core::hint::select_unpredictable;

use super::{F16, F32, F64};

// [`shortest_f64_bytes`] computes the tag and the payload's width from the
// order of the float tags.
const _: () = assert!(F32 == F16 + 1);
const _: () = assert!(F64 == F16 + 2);

/// The wire bytes of `v` in its shortest exact form: a float tag (`F16`,
/// `F32` or `F64`, which are consecutive) and its little-endian payload, 3,
/// 5 or 9 bytes (see [`FloatBytes`]). The same bytes as `float::shortest_f64`
/// gives, computed without a branch on the form: in data that mixes the
/// forms, which form comes next is a coin toss for the branch predictor,
/// and a mispredicted branch per float cost more than the rest of the
/// encoding. The form comes from the bits alone: a value is exact in a
/// narrower format when its binary64 mantissa has at least as many
/// trailing zeros as the table `FORMS` asks for at its exponent.
///
/// `None`, for `float::shortest_f64` to handle, for NaN, the infinities and the
/// binary32 values in binary16's subnormal range.
#[inline(always)]
pub fn shortest_f64_bytes(v: f64) -> Option<FloatBytes> {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as usize;
    // Setting the sign bit changes no count below 63, and makes the word
    // nonzero (one instruction, no zero case); a zero's 63 is past every
    // threshold, as its 64 would be.
    let zeros = (bits | 1 << 63).trailing_zeros();
    if zeros < 29 {
        // Too many mantissa bits for binary32 at any exponent (a NaN too,
        // whose payload binary32 cannot hold): binary64. Data whose floats
        // are mostly of one form, as measurements and coordinates are,
        // takes this branch every time, with nothing to mispredict and
        // less to compute than below.
        return Some(FloatBytes {
            head: u64::from(F64) | (bits << 8),
            last: (bits >> 56) as u8,
            len: 9,
        });
    }
    let form = FORMS[exp];
    if zeros >= form.rare {
        return None;
    }
    let is32 = zeros >= form.single;
    let is16 = zeros >= form.half;
    let sign16 = ((bits >> 48) & 0x8000) as u32;
    let h = u64::from(sign16 | form.half_exponent | ((bits >> 42) & 0x3ff) as u32);
    // Exact when `is32` (a zero keeps its sign), and only used then.
    let single = u64::from((v as f32).to_bits());
    let payload = select_unpredictable(is16, h, select_unpredictable(is32, single, bits));
    let tag = F64 - u8::from(is32) - u8::from(is16);
    Some(FloatBytes {
        head: u64::from(tag) | (payload << 8),
        last: (payload >> 56) as u8,
        len: 9 - 4 * usize::from(is32) - 2 * usize::from(is16),
    })
}

/// What the binary64 values of one biased exponent need, in trailing zero
/// bits of their 64-bit pattern, to be exact in binary32 (`single`) and in
/// binary16 (`half`); `NEVER` when no value is. Values with at least `rare`
/// are left to `float::shortest_f64`.
#[derive(Clone, Copy)]
struct Form {
    single: u32,
    half: u32,
    rare: u32,
    /// The binary16 exponent field, in place, for the binary16 normals.
    half_exponent: u32,
}

/// More trailing zeros than a 64-bit word has.
const NEVER: u32 = 65;

/// [`Form`] by biased binary64 exponent (1023 + e for 2^e * 1.m).
static FORMS: [Form; 2048] = {
    let mut forms = [Form {
        single: NEVER,
        half: NEVER,
        rare: NEVER,
        half_exponent: 0,
    }; 2048];
    let mut exp = 0;
    while exp < 2048 {
        let e = exp as i32 - 1023;
        let form = &mut forms[exp];
        if exp == 0 {
            // Zeros (no mantissa bit set: binary16 holds them, with their
            // sign), and binary64 subnormals, which nothing narrower holds.
            form.single = 52;
            form.half = 52;
        } else if exp == 0x7ff {
            // Infinities and NaN.
            form.rare = 0;
        } else if -149 <= e && e <= -127 {
            // A binary32 subnormal k * 2^-149 keeps e + 149 of the 52
            // mantissa bits.
            form.single = (52 - (e + 149)) as u32;
        } else if -126 <= e && e <= 127 {
            // A binary32 normal: 23 mantissa bits.
            form.single = 29;
            if -24 <= e && e <= -15 {
                // Maybe a binary16 subnormal.
                form.rare = 29;
            } else if -14 <= e && e <= 15 {
                // A binary16 normal: 10 mantissa bits.
                form.half = 42;
                form.half_exponent = ((e + 15) as u32) << 10;
            }
        }
        exp += 1;
    }
    forms
};

/// A float's wire bytes as [`shortest_f64_bytes`] gives them: in two
/// registers rather than a buffer, so that an output can store them with
/// two plain stores (a buffer assembled from a byte and a word, then read
/// back as words, stalls the load on the stores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatBytes {
    /// The first eight bytes, little-endian: the tag, then the payload's
    /// first seven bytes (zeros past the payload).
    pub head: u64,
    /// The ninth byte: the last of a binary64 payload, else zero.
    pub last: u8,
    /// How many of the nine bytes are the value's: 3, 5 or 9.
    pub len: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::{Shortest, shortest_f64};

    /// The bytes [`shortest_f64`] gives, written out by hand.
    fn reference_bytes(v: f64) -> Vec<u8> {
        match shortest_f64(v) {
            Shortest::F16(h) => [&[F16][..], &h.to_le_bytes()].concat(),
            Shortest::F32(s) => [&[F32][..], &s.to_bits().to_le_bytes()].concat(),
            Shortest::F64 => [&[F64][..], &v.to_bits().to_le_bytes()].concat(),
        }
    }

    /// The first `len` of the nine bytes.
    fn written(b: FloatBytes) -> Vec<u8> {
        let mut buf = b.head.to_le_bytes().to_vec();
        buf.push(b.last);
        buf.truncate(b.len);
        buf
    }

    fn check_branch_free(v: f64) {
        match shortest_f64_bytes(v) {
            Some(b) => assert_eq!(
                &written(b)[..],
                &reference_bytes(v)[..],
                "v = {v:e} ({:#018x})",
                v.to_bits()
            ),
            // Left to the reference path: only these classes.
            None => {
                let exp = ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
                let exact32 = f64::from(v as f32) == v;
                assert!(
                    !v.is_finite()
                        || (-149..=-127).contains(&exp)
                        || (exact32 && (-24..=-15).contains(&exp)),
                    "v = {v:e} ({:#018x}) was left out",
                    v.to_bits()
                );
            }
        }
    }

    #[test]
    fn the_branch_free_form_writes_the_reference_bytes() {
        // Every binary16 and every binary32 with its 13 low mantissa bits
        // clear, widened, both signs (they include all the edge cases of
        // the forms: zeros, subnormals, the limits of each exponent range),
        // and their neighbours one binary64 step away.
        for bits in (0..=u32::MAX >> 13).map(|b| b << 13) {
            let v = f64::from(f32::from_bits(bits));
            check_branch_free(v);
            check_branch_free(f64::from_bits(v.to_bits().wrapping_add(1)));
            check_branch_free(f64::from_bits(v.to_bits().wrapping_sub(1)));
        }
        // Pseudo-random binary64 bit patterns and binary32 values.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1_000_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check_branch_free(f64::from_bits(x));
            check_branch_free(f64::from(f32::from_bits(x as u32)));
        }
        for v in [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            65504.0,
            65520.0,
        ] {
            check_branch_free(v);
        }
    }
}
