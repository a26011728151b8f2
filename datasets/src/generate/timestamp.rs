//! ISO-8601 UTC timestamps for generated records, computed with integer
//! arithmetic only so they cannot depend on the machine's clock or time zone.

/// Seconds since the Unix epoch at 2024-03-01T00:00:00Z: the start of every
/// generated timeline.
pub(crate) const EPOCH_2024_03_01: u64 = 1_709_251_200;

const SECONDS_PER_DAY: u64 = 86_400;

fn is_leap(year: u64) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

fn days_in_month(year: u64, month: u64) -> u64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Splits seconds since the epoch into (year, month, day, hour, minute,
/// second) in UTC. Walking years and months is slow in principle but a few
/// dozen steps per call in practice, and plainly correct.
fn civil(unix_seconds: u64) -> [u64; 6] {
    let mut days = unix_seconds / SECONDS_PER_DAY;
    let rest = unix_seconds % SECONDS_PER_DAY;
    let mut year = 1970;
    loop {
        let in_year = if is_leap(year) { 366 } else { 365 };
        if days < in_year {
            break;
        }
        days -= in_year;
        year += 1;
    }
    let mut month = 1;
    while days >= days_in_month(year, month) {
        days -= days_in_month(year, month);
        month += 1;
    }
    [
        year,
        month,
        days + 1,
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
    ]
}

/// `2024-03-01T09:26:53Z`, the form GitHub's API uses.
pub(crate) fn iso8601(unix_seconds: u64) -> String {
    let [y, mo, d, h, mi, s] = civil(unix_seconds);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `2024-03-01T09:26:53.042Z`, the form log pipelines write.
pub(crate) fn iso8601_millis(unix_millis: u64) -> String {
    let [y, mo, d, h, mi, s] = civil(unix_millis / 1000);
    let ms = unix_millis % 1000;
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{ms:03}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants_format_correctly() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(EPOCH_2024_03_01), "2024-03-01T00:00:00Z");
        // The day before is the leap day of 2024.
        assert_eq!(iso8601(EPOCH_2024_03_01 - 1), "2024-02-29T23:59:59Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(4_102_444_799), "2099-12-31T23:59:59Z");
        assert_eq!(
            iso8601_millis(EPOCH_2024_03_01 * 1000 + 3_723_045),
            "2024-03-01T01:02:03.045Z"
        );
    }
}
