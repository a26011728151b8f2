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

/// Negative values sort before non-negative ones, so the derived order is
/// numeric order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    /// Always below zero.
    Negative(i128),
    NonNegative(u128),
}

impl Integer {
    /// Is the value below zero?
    pub fn is_negative(self) -> bool {
        matches!(self.0, Repr::Negative(_))
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
                Integer(Repr::NonNegative(v as u128))
            }
        }
        impl TryFrom<Integer> for $t {
            type Error = IntegerOutOfRange;
            fn try_from(i: Integer) -> Result<$t, IntegerOutOfRange> {
                match i.0 {
                    Repr::NonNegative(v) => <$t>::try_from(v).map_err(|_| IntegerOutOfRange),
                    Repr::Negative(_) => Err(IntegerOutOfRange),
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
                    Integer(Repr::Negative(v as i128))
                } else {
                    Integer(Repr::NonNegative(v as u128))
                }
            }
        }
        impl TryFrom<Integer> for $t {
            type Error = IntegerOutOfRange;
            fn try_from(i: Integer) -> Result<$t, IntegerOutOfRange> {
                match i.0 {
                    Repr::NonNegative(v) => <$t>::try_from(v).map_err(|_| IntegerOutOfRange),
                    Repr::Negative(v) => <$t>::try_from(v).map_err(|_| IntegerOutOfRange),
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
            Repr::Negative(v) => fmt::Display::fmt(&v, f),
            Repr::NonNegative(v) => fmt::Display::fmt(&v, f),
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
