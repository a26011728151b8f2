//! `summary.csv`: one row per format x dataset x operation under a fixed
//! header, written for every run and read back from a baseline.

use surp_datasets::Dataset;

use crate::{Format, Measurement, Operation, Stats};

/// The header of `summary.csv`; the columns never change order.
pub const CSV_HEADER: &str =
    "format,dataset,op,iterations,median_ns,p95_ns,min_ns,cv_pct,mb_per_s,size_bytes";

/// The measurements as `summary.csv`: the header, then one line per
/// measurement in the given order. Times are integer nanoseconds; `cv_pct`
/// and `mb_per_s` have two decimals; `p95_ns` is the maximum when
/// `iterations` is below 20.
pub fn to_csv(measurements: &[Measurement]) -> String {
    let mut out = String::with_capacity(64 * (measurements.len() + 1));
    out.push_str(CSV_HEADER);
    out.push('\n');
    for m in measurements {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{:.2},{:.2},{}\n",
            m.format.name,
            m.dataset,
            m.operation,
            m.stats.samples,
            m.stats.median_ns,
            m.stats.p95_ns,
            m.stats.min_ns,
            m.stats.cv_pct,
            m.mb_per_s(),
            m.size_bytes
        ));
    }
    out
}

/// Reads a `summary.csv`. Rows naming a format, dataset or operation this
/// build does not know are skipped and returned as the second list (one
/// line each), so an old baseline stays readable after a format is added or
/// removed. A wrong header or a malformed row is an error.
pub fn parse_csv(text: &str) -> Result<(Vec<Measurement>, Vec<String>), String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(CSV_HEADER) => {}
        Some(other) => return Err(format!("its header is `{other}`, not `{CSV_HEADER}`")),
        None => return Err("it is empty".to_owned()),
    }
    let mut measurements = Vec::new();
    let mut skipped = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.is_empty() {
            continue;
        }
        let row = i + 2;
        let fields: Vec<&str> = line.split(',').collect();
        let [
            format,
            dataset,
            op,
            iterations,
            median,
            p95,
            min,
            cv,
            _mb_per_s,
            size,
        ] = fields[..]
        else {
            return Err(format!("line {row} has {} fields, not 10", fields.len()));
        };
        let (Some(format), Some(dataset), Some(operation)) = (
            Format::from_name(format),
            Dataset::from_name(dataset),
            Operation::from_name(op),
        ) else {
            skipped.push(line.to_owned());
            continue;
        };
        let number = |field: &str, name: &str| {
            field
                .parse::<u64>()
                .map_err(|_| format!("line {row} has {name} `{field}`, not a whole number"))
        };
        let stats = Stats {
            samples: number(iterations, "iterations")? as usize,
            median_ns: number(median, "median_ns")?,
            p95_ns: number(p95, "p95_ns")?,
            min_ns: number(min, "min_ns")?,
            cv_pct: cv
                .parse::<f64>()
                .map_err(|_| format!("line {row} has cv_pct `{cv}`, not a number"))?,
        };
        measurements.push(Measurement {
            format,
            dataset,
            operation,
            stats,
            size_bytes: number(size, "size_bytes")?,
        });
    }
    Ok((measurements, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Measurement {
        Measurement {
            format: Format::from_name("json").unwrap(),
            dataset: Dataset::Canada,
            operation: Operation::Decode,
            stats: Stats {
                samples: 5,
                median_ns: 2_000_000,
                p95_ns: 2_500_000,
                min_ns: 1_900_000,
                cv_pct: 4.56789,
            },
            size_bytes: 1_000_000,
        }
    }

    #[test]
    fn a_row_is_written_under_the_header() {
        let csv = to_csv(&[sample()]);
        assert_eq!(
            csv,
            format!(
                "{CSV_HEADER}\njson,canada,decode,5,2000000,2500000,1900000,4.57,500.00,1000000\n"
            )
        );
    }

    #[test]
    fn written_rows_read_back() {
        let (rows, skipped) = parse_csv(&to_csv(&[sample()])).unwrap();
        assert!(skipped.is_empty());
        let mut expected = sample();
        expected.stats.cv_pct = 4.57;
        assert_eq!(rows, vec![expected]);
    }

    #[test]
    fn rows_of_unknown_formats_are_skipped_not_fatal() {
        let text = format!("{CSV_HEADER}\nyaml,canada,decode,5,1,1,1,0.00,1.00,1\n");
        let (rows, skipped) = parse_csv(&text).unwrap();
        assert!(rows.is_empty());
        assert_eq!(skipped.len(), 1);
    }

    #[test]
    fn a_wrong_header_or_short_row_is_an_error() {
        assert!(
            parse_csv("format,dataset\n")
                .unwrap_err()
                .contains("header")
        );
        let short = format!("{CSV_HEADER}\njson,canada,decode\n");
        assert_eq!(
            parse_csv(&short).unwrap_err(),
            "line 2 has 3 fields, not 10"
        );
        let bad = format!("{CSV_HEADER}\njson,canada,decode,5,x,1,1,0.00,1.00,1\n");
        assert!(parse_csv(&bad).unwrap_err().contains("median_ns `x`"));
    }
}
