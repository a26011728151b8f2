//! How times, sizes and ratios are written for people: in tables, Markdown
//! and chart axes. `summary.csv` keeps raw integers instead.

/// A unit of measure and how many base units (nanoseconds or bytes) it
/// holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Unit {
    pub symbol: &'static str,
    pub base: f64,
}

/// Time units, smallest first; the base is the nanosecond.
pub(crate) const TIME_UNITS: [Unit; 4] = [
    Unit {
        symbol: "ns",
        base: 1.0,
    },
    Unit {
        symbol: "µs",
        base: 1e3,
    },
    Unit {
        symbol: "ms",
        base: 1e6,
    },
    Unit {
        symbol: "s",
        base: 1e9,
    },
];

/// Size units, smallest first, decimal (1 kB = 1000 bytes); the base is the
/// byte.
pub(crate) const SIZE_UNITS: [Unit; 4] = [
    Unit {
        symbol: "B",
        base: 1.0,
    },
    Unit {
        symbol: "kB",
        base: 1e3,
    },
    Unit {
        symbol: "MB",
        base: 1e6,
    },
    Unit {
        symbol: "GB",
        base: 1e9,
    },
];

/// The largest unit in which `value` (in base units) is at least 1.
pub(crate) fn unit_for(units: &'static [Unit], value: f64) -> Unit {
    units
        .iter()
        .rev()
        .find(|u| value >= u.base)
        .copied()
        .unwrap_or(units[0])
}

/// A number with three significant digits (whole numbers from 100 up are
/// written without decimals): 1.23, 12.3, 123, 1234.
pub(crate) fn three_digits(x: f64) -> String {
    let magnitude = x.abs();
    if magnitude >= 100.0 || magnitude == 0.0 {
        format!("{x:.0}")
    } else if magnitude >= 10.0 {
        format!("{x:.1}")
    } else if magnitude >= 1.0 {
        format!("{x:.2}")
    } else {
        // Enough decimals for three significant digits.
        let decimals = (2 - magnitude.log10().floor() as i32).max(0) as usize;
        format!("{x:.decimals$}")
    }
}

/// A value in base units, in its own best unit: "812 ns", "1.23 ms".
pub(crate) fn human(units: &'static [Unit], value: f64) -> String {
    let unit = unit_for(units, value);
    format!("{} {}", three_digits(value / unit.base), unit.symbol)
}

/// A duration in nanoseconds, in its best unit: "812 ns", "1.23 ms".
///
/// ```
/// assert_eq!(surp_bench::duration(45_600_000), "45.6 ms");
/// ```
pub fn duration(ns: u64) -> String {
    human(&TIME_UNITS, ns as f64)
}

/// A whole number with thousands separated by commas: 1,234,567.
///
/// ```
/// assert_eq!(surp_bench::thousands(1_234_567), "1,234,567");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_pick_the_unit_that_keeps_them_above_one() {
        assert_eq!(duration(812), "812 ns");
        assert_eq!(duration(1_234), "1.23 µs");
        assert_eq!(duration(45_600_000), "45.6 ms");
        assert_eq!(duration(1_200_000_000), "1.20 s");
        assert_eq!(duration(0), "0 ns");
    }

    #[test]
    fn three_digits_keeps_three_significant_digits() {
        assert_eq!(three_digits(0.0123), "0.0123");
        assert_eq!(three_digits(0.5), "0.500");
        assert_eq!(three_digits(7.0), "7.00");
        assert_eq!(three_digits(1234.4), "1234");
    }

    #[test]
    fn sizes_use_decimal_units() {
        assert_eq!(human(&SIZE_UNITS, 999.0), "999 B");
        assert_eq!(human(&SIZE_UNITS, 1_500_000.0), "1.50 MB");
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(12_345_678), "12,345,678");
    }
}
