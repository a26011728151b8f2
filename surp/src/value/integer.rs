//! Integers across the wire's whole range, `i128::MIN` to `u128::MAX`.

use core::fmt;

/// An integer as Surp carries it: anything from `i128::MIN` to `u128::MAX`.
///
/// Converts losslessly from every Rust integer type and back with
/// `TryFrom` where the value fits.
///
/// ```
/// use surp::Integer;
/// let i = Integer::from(-5i8);
/// assert_eq!(i64::try_from(i), Ok(-5));
/// assert!(u64::try_from(i).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Integer(Repr);

/// The value's 128 bits as two 64-bit halves, high half first: negative
/// values sort before non-negative ones, and within each variant the halves
/// compare as the whole number does, so the derived order is numeric order.
///
/// Halves rather than an `i128` or `u128`: those are aligned to 16 bytes,
/// which pads an `Integer` and every [`Value`](crate::Value) around it;
/// halves keep both at 8-byte alignment, so every array item and map entry
/// of a decoded value is smaller (a test holds `Integer`'s size).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    /// Always below zero: the two's complement halves of an `i128`.
    Negative {
        high: i64,
        low: u64,
    },
    NonNegative {
        high: u64,
        low: u64,
    },
}

impl Repr {
    #[inline]
    fn negative(v: i128) -> Repr {
        Repr::Negative {
            high: (v >> 64) as i64,
            low: v as u64,
        }
    }

    #[inline]
    fn non_negative(v: u128) -> Repr {
        Repr::NonNegative {
            high: (v >> 64) as u64,
            low: v as u64,
        }
    }
}

/// The whole of a negative value.
#[inline]
fn whole_negative(high: i64, low: u64) -> i128 {
    (i128::from(high) << 64) | i128::from(low)
}

/// The whole of a non-negative value.
#[inline]
fn whole_non_negative(high: u64, low: u64) -> u128 {
    (u128::from(high) << 64) | u128::from(low)
}

impl Integer {
    /// Is the value below zero?
    pub fn is_negative(self) -> bool {
        matches!(self.0, Repr::Negative { .. })
    }
}

/// The value does not fit the requested integer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntegerOutOfRange;

impl fmt::Display for IntegerOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("integer out of range for the target type")
    }
}

impl core::error::Error for IntegerOutOfRange {}

macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Integer {
            fn from(v: $t) -> Integer {
                Integer(Repr::non_negative(v as u128))
            }
        }
        impl TryFrom<Integer> for $t {
            type Error = IntegerOutOfRange;
            fn try_from(i: Integer) -> Result<$t, IntegerOutOfRange> {
                match i.0 {
                    Repr::NonNegative { high, low } => <$t>::try_from(whole_non_negative(high, low))
                        .map_err(|_| IntegerOutOfRange),
                    Repr::Negative { .. } => Err(IntegerOutOfRange),
                }
            }
        }
    )*};
}

macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Integer {
            fn from(v: $t) -> Integer {
                if v < 0 {
                    Integer(Repr::negative(v as i128))
                } else {
                    Integer(Repr::non_negative(v as u128))
                }
            }
        }
        impl TryFrom<Integer> for $t {
            type Error = IntegerOutOfRange;
            fn try_from(i: Integer) -> Result<$t, IntegerOutOfRange> {
                match i.0 {
                    Repr::NonNegative { high, low } => <$t>::try_from(whole_non_negative(high, low))
                        .map_err(|_| IntegerOutOfRange),
                    Repr::Negative { high, low } => <$t>::try_from(whole_negative(high, low))
                        .map_err(|_| IntegerOutOfRange),
                }
            }
        }
    )*};
}

from_unsigned!(u8 u16 u32 u64 u128 usize);
from_signed!(i8 i16 i32 i64 i128 isize);

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Repr::Negative { high, low } => fmt::Display::fmt(&whole_negative(high, low), f),
            Repr::NonNegative { high, low } => fmt::Display::fmt(&whole_non_negative(high, low), f),
        }
    }
}

impl fmt::Debug for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_numeric_across_the_sign() {
        let mut v = [
            Integer::from(3u8),
            Integer::from(-1i8),
            Integer::from(u128::MAX),
            Integer::from(i128::MIN),
        ];
        v.sort();
        assert_eq!(
            v.map(|i| i.to_string()),
            [
                "-170141183460469231731687303715884105728",
                "-1",
                "3",
                &u128::MAX.to_string()
            ]
        );
    }

    #[test]
    fn halves_keep_the_value_and_its_order_at_every_boundary() {
        let values: [i128; 12] = [
            i128::MIN,
            i128::MIN + 1,
            -(1 << 64) - 1,
            -(1 << 64),
            -(1 << 64) + 1,
            i128::from(i64::MIN),
            -2,
            -1,
            0,
            1,
            (1 << 64) - 1,
            1 << 64,
        ];
        let mut integers: Vec<Integer> = values.iter().map(|&v| Integer::from(v)).collect();
        integers.push(Integer::from(u128::MAX - 1));
        integers.push(Integer::from(u128::MAX));
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(i128::try_from(integers[i]), Ok(v));
            assert_eq!(integers[i].to_string(), v.to_string());
            assert_eq!(integers[i].is_negative(), v < 0);
        }
        assert_eq!(u128::try_from(integers[13]), Ok(u128::MAX));
        // Sorted already, strictly: the derived order is numeric order.
        for pair in integers.windows(2) {
            assert!(pair[0] < pair[1], "{:?} < {:?}", pair[0], pair[1]);
        }
        // The same number from a signed and an unsigned type is one value.
        assert_eq!(Integer::from(5i64), Integer::from(5u8));
        assert_eq!(Integer::from(1u128 << 64), Integer::from(1i128 << 64));
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn an_integer_takes_three_words() {
        assert_eq!(core::mem::size_of::<Integer>(), 24);
        assert_eq!(core::mem::align_of::<Integer>(), 8);
    }

    #[test]
    fn conversions_check_the_range() {
        assert_eq!(u8::try_from(Integer::from(255u64)), Ok(255));
        assert_eq!(u8::try_from(Integer::from(256u64)), Err(IntegerOutOfRange));
        assert_eq!(i8::try_from(Integer::from(-128i64)), Ok(-128));
        assert_eq!(
            i128::try_from(Integer::from(u128::MAX)),
            Err(IntegerOutOfRange)
        );
    }
}
