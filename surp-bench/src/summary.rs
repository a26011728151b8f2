//! `summary.csv`: one row per format x dataset x operation under a fixed
//! header, written for every run and read back from a baseline. The
//! messages suite's has three more columns, for its messages.

use crate::{BenchDataset, Format, Measurement, Operation, Stats};

/// The header of `summary.csv`; the columns never change order, and new ones
/// are only appended.
pub const CSV_HEADER: &str =
    "format,dataset,op,iterations,median_ns,p95_ns,min_ns,cv_pct,mb_per_s,size_bytes,zstd_bytes";

/// The header of the messages suite's `summary.csv`: [`CSV_HEADER`]'s
/// columns, in which a row's times and size are those of the whole stream
/// (framing included) and `zstd_bytes` is empty (zstd is part of some
/// formats there, not a column), then the stream's messages and the mean
/// size and median time per message (the size and median over the
/// messages, two decimals).
pub const CSV_HEADER_MESSAGES: &str = "format,dataset,op,iterations,median_ns,p95_ns,min_ns,cv_pct,\
     mb_per_s,size_bytes,zstd_bytes,messages,bytes_per_message,median_ns_per_message";

/// The header before `zstd_bytes` was added (v0.1.0 runs and the Python
/// harness's `python_summary.csv`), still read.
pub const CSV_HEADER_V1: &str =
    "format,dataset,op,iterations,median_ns,p95_ns,min_ns,cv_pct,mb_per_s,size_bytes";

/// The measurements as `summary.csv`: the header, then one line per
/// measurement in the given order. Times are integer nanoseconds; `cv_pct`
/// and `mb_per_s` have two decimals; `p95_ns` is the maximum when
/// `iterations` is below 20. Measurements of streams of messages get
/// [`CSV_HEADER_MESSAGES`] and its columns.
pub fn to_csv(measurements: &[Measurement]) -> String {
    let streams = measurements.iter().any(|m| m.messages.is_some());
    let mut out = String::with_capacity(64 * (measurements.len() + 1));
    out.push_str(if streams {
        CSV_HEADER_MESSAGES
    } else {
        CSV_HEADER
    });
    out.push('\n');
    for m in measurements {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{:.2},{:.2},{},{}",
            m.format.name,
            m.dataset,
            m.operation,
            m.stats.samples,
            m.stats.median_ns,
            m.stats.p95_ns,
            m.stats.min_ns,
            m.stats.cv_pct,
            m.mb_per_s(),
            m.size_bytes,
            m.zstd_bytes.map_or_else(String::new, |z| z.to_string())
        ));
        if streams {
            out.push_str(&match m.messages {
                Some(n) => format!(
                    ",{n},{:.2},{:.2}",
                    m.bytes_per_message(),
                    m.median_ns_per_message()
                ),
                None => ",,,".to_owned(),
            });
        }
        out.push('\n');
    }
    out
}

/// One row of a `summary.csv`, or of the Python harness's
/// `python_summary.csv`, which has the same columns: the numbers parsed and
/// checked, the names still as written.
#[derive(Clone, Debug)]
pub struct CsvRow<'a> {
    /// The row's line number in the file, for messages.
    pub line: usize,
    /// The whole line.
    pub text: &'a str,
    /// The `format` column.
    pub format: &'a str,
    /// The `dataset` column.
    pub dataset: &'a str,
    /// The `op` column.
    pub op: &'a str,
    /// The timing columns.
    pub stats: Stats,
    /// The `mb_per_s` column.
    pub mb_per_s: f64,
    /// The `size_bytes` column.
    pub size_bytes: u64,
    /// The `zstd_bytes` column: `None` where the file has no such column or
    /// the field is empty.
    pub zstd_bytes: Option<u64>,
    /// The `messages` column of the messages suite: `None` in other
    /// summaries.
    pub messages: Option<u64>,
}

/// Splits a summary CSV into rows. A header other than [`CSV_HEADER`],
/// [`CSV_HEADER_MESSAGES`] or [`CSV_HEADER_V1`], a row with another number
/// of fields than its header, or a field that is not a number is an error
/// naming the line.
pub fn csv_rows(text: &str) -> Result<Vec<CsvRow<'_>>, String> {
    let mut lines = text.lines();
    let columns = match lines.next() {
        Some(CSV_HEADER_MESSAGES) => 14,
        Some(CSV_HEADER) => 11,
        Some(CSV_HEADER_V1) => 10,
        Some(other) => return Err(format!("its header is `{other}`, not `{CSV_HEADER}`")),
        None => return Err("it is empty".to_owned()),
    };
    let mut rows = Vec::new();
    for (i, text) in lines.enumerate() {
        if text.is_empty() {
            continue;
        }
        let line = i + 2;
        let mut fields: Vec<&str> = text.split(',').collect();
        if fields.len() != columns {
            return Err(format!(
                "line {line} has {} fields, not {columns}",
                fields.len()
            ));
        }
        // The messages columns, then zstd_bytes, come off the end.
        let per_message = fields.split_off(fields.len().min(11));
        let zstd = if columns >= 11 { fields.pop() } else { None };
        let [
            format,
            dataset,
            op,
            iterations,
            median,
            p95,
            min,
            cv,
            mb_per_s,
            size,
        ] = fields[..]
        else {
            unreachable!("the field count was checked above");
        };
        let number = |field: &str, name: &str| {
            field
                .parse::<u64>()
                .map_err(|_| format!("line {line} has {name} `{field}`, not a whole number"))
        };
        let decimal = |field: &str, name: &str| {
            field
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("line {line} has {name} `{field}`, not a number"))
        };
        rows.push(CsvRow {
            line,
            text,
            format,
            dataset,
            op,
            stats: Stats {
                samples: number(iterations, "iterations")? as usize,
                median_ns: number(median, "median_ns")?,
                p95_ns: number(p95, "p95_ns")?,
                min_ns: number(min, "min_ns")?,
                cv_pct: decimal(cv, "cv_pct")?,
            },
            mb_per_s: decimal(mb_per_s, "mb_per_s")?,
            size_bytes: number(size, "size_bytes")?,
            zstd_bytes: match zstd {
                None | Some("") => None,
                Some(z) => Some(number(z, "zstd_bytes")?),
            },
            messages: match per_message[..] {
                [] => None,
                [messages, bytes, ns] => {
                    decimal(bytes, "bytes_per_message")?;
                    decimal(ns, "median_ns_per_message")?;
                    Some(number(messages, "messages")?)
                }
                _ => unreachable!("the field count was checked above"),
            },
        });
    }
    Ok(rows)
}

/// Reads a `summary.csv`. Rows naming a format, dataset or operation this
/// build does not know are skipped and returned as the second list (one
/// line each), so an old baseline stays readable after a format is added or
/// removed. A wrong header or a malformed row is an error.
pub fn parse_csv(text: &str) -> Result<(Vec<Measurement>, Vec<String>), String> {
    let mut measurements = Vec::new();
    let mut skipped = Vec::new();
    for row in csv_rows(text)? {
        let (Some(format), Some(dataset), Some(operation)) = (
            Format::from_name(row.format),
            BenchDataset::from_name(row.dataset),
            Operation::from_name(row.op),
        ) else {
            skipped.push(row.text.to_owned());
            continue;
        };
        measurements.push(Measurement {
            format,
            dataset,
            operation,
            stats: row.stats,
            size_bytes: row.size_bytes,
            zstd_bytes: row.zstd_bytes,
            messages: row.messages,
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
            dataset: surp_datasets::Dataset::Canada.into(),
            operation: Operation::Decode,
            stats: Stats {
                samples: 5,
                median_ns: 2_000_000,
                p95_ns: 2_500_000,
                min_ns: 1_900_000,
                cv_pct: 4.56789,
            },
            size_bytes: 1_000_000,
            zstd_bytes: Some(400_000),
            messages: None,
        }
    }

    #[test]
    fn a_row_is_written_under_the_header() {
        let csv = to_csv(&[sample()]);
        assert_eq!(
            csv,
            format!(
                "{CSV_HEADER}\njson,canada,decode,5,2000000,2500000,1900000,4.57,500.00,1000000,400000\n"
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
    fn a_stream_s_row_adds_its_messages_and_reads_back() {
        let mut stream = sample();
        stream.format = Format::from_name("surp_zstd_stream").unwrap();
        stream.dataset = crate::Workload::LogRecord.into();
        stream.zstd_bytes = None;
        stream.messages = Some(10_000);
        let csv = to_csv(&[stream.clone()]);
        assert_eq!(
            csv,
            format!(
                "{CSV_HEADER_MESSAGES}\nsurp_zstd_stream,log_record,decode,5,2000000,2500000,\
                 1900000,4.57,500.00,1000000,,10000,100.00,200.00\n"
            )
        );
        assert!(CSV_HEADER_MESSAGES.starts_with(CSV_HEADER));
        let (rows, skipped) = parse_csv(&csv).unwrap();
        assert!(skipped.is_empty());
        stream.stats.cv_pct = 4.57;
        assert_eq!(rows, vec![stream]);
        let bad = csv.replace(",100.00,", ",many,");
        assert!(
            parse_csv(&bad)
                .unwrap_err()
                .contains("bytes_per_message `many`")
        );
    }

    #[test]
    fn rows_of_unknown_formats_are_skipped_not_fatal() {
        let text = format!("{CSV_HEADER}\nyaml,canada,decode,5,1,1,1,0.00,1.00,1,1\n");
        let (rows, skipped) = parse_csv(&text).unwrap();
        assert!(rows.is_empty());
        assert_eq!(skipped.len(), 1);
    }

    #[test]
    fn a_run_from_before_the_zstd_column_still_reads() {
        let text = format!("{CSV_HEADER_V1}\njson,canada,decode,5,1,1,1,0.00,1.00,7\n");
        let (rows, skipped) = parse_csv(&text).unwrap();
        assert!(skipped.is_empty());
        assert_eq!(rows[0].size_bytes, 7);
        assert_eq!(rows[0].zstd_bytes, None);
        let long = format!("{CSV_HEADER_V1}\njson,canada,decode,5,1,1,1,0.00,1.00,7,3\n");
        assert_eq!(
            parse_csv(&long).unwrap_err(),
            "line 2 has 11 fields, not 10"
        );
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
            "line 2 has 3 fields, not 11"
        );
        let bad = format!("{CSV_HEADER}\njson,canada,decode,5,x,1,1,0.00,1.00,1,1\n");
        assert!(parse_csv(&bad).unwrap_err().contains("median_ns `x`"));
    }
}
