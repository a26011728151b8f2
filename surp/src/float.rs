//! Exact float narrowing: which of binary16, binary32 and binary64 holds a value.
//!
//! Surp writes a float in the shortest IEEE 754 form that converts back to the
//! identical bit pattern, so narrowing never loses information, including the
//! sign of zero and NaN payloads. NaN conversions are done on the bits because
//! Rust's `as` casts do not promise to keep NaN payloads.

/// The biased exponent of binary32 infinities and NaNs: eight bits set.
const F32_EXP_ALL_ONES: u32 = (1 << 8) - 1;

/// The shortest exact form of an `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shortest {
    /// The value is exact in binary16 (these are its bits).
    F16(u16),
    /// The value is exact in binary32.
    F32(f32),
    /// Only binary64 holds the value.
    F64,
}

/// Finds the shortest exact form of `v`.
#[inline]
pub fn shortest_f64(v: f64) -> Shortest {
    // For non-NaN values, `as` rounds per IEEE 754, and the round trip is
    // exact exactly when the values compare equal (a zero keeps its sign).
    let s = v as f32;
    if f64::from(s) == v {
        return match f32_to_f16_exact(s) {
            Some(h) => Shortest::F16(h),
            None => Shortest::F32(s),
        };
    }
    if v.is_nan() {
        return nan_shortest(v);
    }
    Shortest::F64
}

#[cold]
fn nan_shortest(v: f64) -> Shortest {
    match f64_to_f32_exact(v) {
        Some(s) => match f32_to_f16_exact(s) {
            Some(h) => Shortest::F16(h),
            None => Shortest::F32(s),
        },
        None => Shortest::F64,
    }
}

/// Narrows `v` to binary32 when that keeps every bit of information.
#[inline]
pub fn f64_to_f32_exact(v: f64) -> Option<f32> {
    if v.is_nan() {
        let bits = v.to_bits();
        let mantissa = bits & ((1 << 52) - 1);
        if mantissa & ((1 << 29) - 1) != 0 {
            return None;
        }
        let sign = ((bits >> 63) as u32) << 31;
        return Some(f32::from_bits(
            sign | (F32_EXP_ALL_ONES << 23) | (mantissa >> 29) as u32,
        ));
    }
    // For non-NaN values `as` rounds per IEEE 754, so the round trip is exact
    // exactly when the bits survive (this also keeps -0.0 apart from 0.0).
    let s = v as f32;
    (f64::from(s).to_bits() == v.to_bits()).then_some(s)
}

/// Widens binary32 to binary64, keeping NaN payloads.
#[inline]
pub fn f32_to_f64(v: f32) -> f64 {
    if v.is_nan() {
        let bits = v.to_bits();
        let sign = u64::from(bits >> 31) << 63;
        let mantissa = u64::from(bits & ((1 << 23) - 1)) << 29;
        return f64::from_bits(sign | (0x7ff << 52) | mantissa);
    }
    f64::from(v)
}

/// Narrows `v` to binary16 bits when that keeps every bit of information.
#[inline(always)]
pub fn f32_to_f16_exact(v: f32) -> Option<u16> {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & F32_EXP_ALL_ONES) as i32;
    let mantissa = bits & ((1 << 23) - 1);
    if exp == F32_EXP_ALL_ONES as i32 {
        // Infinity, or NaN whose payload fits in 10 bits.
        return (mantissa & ((1 << 13) - 1) == 0)
            .then_some(sign | 0x7c00 | (mantissa >> 13) as u16);
    }
    if exp == 0 {
        // Zero is exact; binary32 subnormals are far below binary16's range.
        return (mantissa == 0).then_some(sign);
    }
    let e = exp - 127;
    if (-14..=15).contains(&e) {
        // A binary16 normal: 10 mantissa bits.
        return (mantissa & ((1 << 13) - 1) == 0)
            .then_some(sign | (((e + 15) as u16) << 10) | (mantissa >> 13) as u16);
    }
    if (-24..-14).contains(&e) {
        // A binary16 subnormal k * 2^-24 with k = 1.m * 2^(e + 24).
        let significand = (1 << 23) | mantissa;
        let shift = (-e - 1) as u32;
        if significand & ((1 << shift) - 1) == 0 {
            return Some(sign | (significand >> shift) as u16);
        }
    }
    None
}

/// Widens binary16 bits to binary32, exactly.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let mantissa = u32::from(h & 0x3ff);
    let bits = match exp {
        0 if mantissa == 0 => sign,
        0 => {
            // Subnormal: m * 2^-24, exact in binary32.
            let magnitude = mantissa as f32 * f32::from_bits(0x3380_0000);
            sign | magnitude.to_bits()
        }
        0x1f => sign | (F32_EXP_ALL_ONES << 23) | (mantissa << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (mantissa << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_f16_bit_pattern_round_trips_through_f32() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            assert_eq!(f32_to_f16_exact(f), Some(h), "h = {h:#06x}, f = {f:e}");
        }
    }

    #[test]
    fn narrowing_keeps_values_exact() {
        assert_eq!(shortest_f64(1.5), Shortest::F16(0x3e00));
        assert_eq!(shortest_f64(-0.0), Shortest::F16(0x8000));
        assert_eq!(shortest_f64(65504.0), Shortest::F16(0x7bff));
        assert_eq!(shortest_f64(65505.0), Shortest::F32(65505.0));
        assert_eq!(shortest_f64(f64::INFINITY), Shortest::F16(0x7c00));
        assert_eq!(shortest_f64(f64::NAN), Shortest::F16(0x7e00));
        assert_eq!(shortest_f64(0.1), Shortest::F64);
        assert_eq!(shortest_f64(f64::from(0.1f32)), Shortest::F32(0.1));
        // Smallest binary16 subnormal, and a value just below it.
        assert_eq!(shortest_f64(2f64.powi(-24)), Shortest::F16(1));
        assert_eq!(shortest_f64(2f64.powi(-25)), Shortest::F32(2f32.powi(-25)));
    }

    #[test]
    fn nan_payloads_survive_or_stay_wide() {
        let quiet_with_payload = f64::from_bits(0x7ff8_0000_2000_0000);
        match shortest_f64(quiet_with_payload) {
            Shortest::F32(s) => assert_eq!(f32_to_f64(s).to_bits(), quiet_with_payload.to_bits()),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            shortest_f64(f64::from_bits(0x7ff0_0000_0000_0001)),
            Shortest::F64
        );
    }
}
