//! Timing: checks that every format round-trips a dataset exactly, runs the
//! warm-up, then the timed iterations, each of which runs every operation of
//! every format once (formats round-robin, the first one rotating), and turns the samples into
//! [`Measurement`]s.

use std::hint::black_box;
use std::time::Instant;

use indicatif::ProgressBar;
use surp_datasets::{Dataset, Value};

use crate::difference::first_difference;
use crate::format::CodecError;
use crate::{BenchError, Format, Operation, Plan, Stats};

/// The result of one cell: one format, dataset and operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The format measured.
    pub format: &'static Format,
    /// The dataset it processed.
    pub dataset: Dataset,
    /// What was timed.
    pub operation: Operation,
    /// The statistics of the timed samples.
    pub stats: Stats,
    /// The size of the format's encoding of the dataset, in bytes (the same
    /// for every operation of a format and dataset).
    pub size_bytes: u64,
}

impl Measurement {
    /// Throughput: serialized bytes over the median time, in MB/s (10^6
    /// bytes per second).
    pub fn mb_per_s(&self) -> f64 {
        mb_per_s(self.size_bytes, self.stats.median_ns)
    }
}

/// Serialized bytes over a time in nanoseconds, in MB/s; 0 for a zero time.
pub(crate) fn mb_per_s(size_bytes: u64, ns: u64) -> f64 {
    if ns == 0 {
        0.0
    } else {
        size_bytes as f64 * 1e3 / ns as f64
    }
}

/// One format's state while a dataset is measured.
struct Lane {
    format: &'static Format,
    /// The checked encoding of the dataset, which decode runs read.
    encoded: Vec<u8>,
    /// The buffer encode and roundtrip runs write into, cleared each time.
    scratch: Vec<u8>,
    /// Timed samples, one list per operation in [`Operation::ALL`] order.
    samples: [Vec<u64>; 3],
}

/// Measures every format of the plan on one (already verified) dataset:
/// one [`Measurement`] per format and operation, formats in plan order.
pub(crate) fn measure_dataset(
    plan: &Plan,
    dataset: Dataset,
    value: &Value,
    progress: &ProgressBar,
) -> Result<Vec<Measurement>, BenchError> {
    let mut lanes = Vec::with_capacity(plan.formats.len());
    for &format in &plan.formats {
        progress.set_message(format!("{dataset}: checking {}", format.name));
        lanes.push(Lane {
            format,
            encoded: check_round_trip(format, dataset, value)?,
            scratch: Vec::new(),
            samples: Default::default(),
        });
    }

    progress.set_message(format!("{dataset}: warming up"));
    for operation in Operation::ALL {
        for lane in &mut lanes {
            for _ in 0..plan.warmup {
                lane.run(operation, dataset, value)?;
            }
        }
    }
    // Every iteration runs every operation of every format once, so drift
    // of the machine during the dataset hits all cells alike. The format
    // that goes first rotates from one iteration to the next: the first
    // format of an operation runs right after another operation (the last
    // format's roundtrip, or every format's encode) has filled the caches
    // with its own data, and that cold start must not always fall on the
    // same format.
    for iteration in 0..plan.iterations {
        progress.set_message(format!(
            "{dataset}: iteration {}/{}",
            iteration + 1,
            plan.iterations
        ));
        for (op_index, operation) in Operation::ALL.into_iter().enumerate() {
            let first = iteration % lanes.len();
            let (before, from_first) = lanes.split_at_mut(first);
            for lane in from_first.iter_mut().chain(before) {
                let ns = lane.run(operation, dataset, value)?;
                lane.samples[op_index].push(ns);
                progress.inc(1);
            }
        }
    }
    let mut results = Vec::with_capacity(lanes.len() * Operation::ALL.len());
    for lane in &lanes {
        for (operation, samples) in Operation::ALL.into_iter().zip(&lane.samples) {
            results.push(Measurement {
                format: lane.format,
                dataset,
                operation,
                stats: Stats::from_samples(samples).expect("a plan has at least one iteration"),
                size_bytes: lane.encoded.len() as u64,
            });
        }
    }
    Ok(results)
}

/// Encodes the value twice (the bytes must match) and decodes it (the result
/// must equal the value); returns the encoding.
fn check_round_trip(
    format: &'static Format,
    dataset: Dataset,
    value: &Value,
) -> Result<Vec<u8>, BenchError> {
    let failed = |operation| {
        move |err: CodecError| BenchError::Codec {
            format: format.name,
            dataset,
            operation,
            message: err.to_string(),
        }
    };
    let mut first = Vec::new();
    (format.encode)(value, &mut first).map_err(failed(Operation::Encode))?;
    let mut second = Vec::new();
    (format.encode)(value, &mut second).map_err(failed(Operation::Encode))?;
    if first != second {
        return Err(BenchError::NotDeterministic {
            format: format.name,
            dataset,
        });
    }
    let back = (format.decode)(&first).map_err(failed(Operation::Decode))?;
    if let Some(difference) = first_difference(&format.expected_decode(value), &back) {
        return Err(BenchError::NotRoundTrip {
            format: format.name,
            dataset,
            difference,
        });
    }
    Ok(first)
}

impl Lane {
    /// One run of the operation; returns its time in nanoseconds.
    fn run(
        &mut self,
        operation: Operation,
        dataset: Dataset,
        value: &Value,
    ) -> Result<u64, BenchError> {
        let Lane {
            format,
            encoded,
            scratch,
            ..
        } = self;
        let failed = |err: CodecError| BenchError::Codec {
            format: format.name,
            dataset,
            operation,
            message: err.to_string(),
        };
        let elapsed = match operation {
            Operation::Encode => {
                scratch.clear();
                let start = Instant::now();
                (format.encode)(black_box(value), scratch).map_err(failed)?;
                let elapsed = start.elapsed();
                black_box(&scratch);
                elapsed
            }
            Operation::Decode => {
                let start = Instant::now();
                let decoded = (format.decode)(black_box(encoded)).map_err(failed)?;
                let elapsed = start.elapsed();
                // Dropped after the clock stops: freeing the tree is not
                // decoding.
                drop(black_box(decoded));
                elapsed
            }
            Operation::Roundtrip => {
                scratch.clear();
                let start = Instant::now();
                (format.encode)(black_box(value), scratch).map_err(failed)?;
                let decoded = (format.decode)(black_box(scratch)).map_err(failed)?;
                let elapsed = start.elapsed();
                drop(black_box(decoded));
                elapsed
            }
        };
        Ok(u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FORMATS, Mode};

    #[test]
    fn every_cell_is_measured_in_plan_order() {
        let plan = Plan::new(
            Mode::Ci,
            FORMATS.iter().collect(),
            vec![Dataset::NestedDeep],
            Some(2),
        )
        .unwrap();
        let value = Dataset::NestedDeep.load(plan.mode.scale()).unwrap();
        let results =
            measure_dataset(&plan, Dataset::NestedDeep, &value, &ProgressBar::hidden()).unwrap();
        assert_eq!(results.len(), FORMATS.len() * Operation::ALL.len());
        for (i, m) in results.iter().enumerate() {
            assert_eq!(m.format, &FORMATS[i / 3]);
            assert_eq!(m.operation, Operation::ALL[i % 3]);
            assert_eq!(m.stats.samples, 2);
            assert!(m.size_bytes > 0);
            assert!(m.stats.min_ns <= m.stats.median_ns && m.stats.median_ns <= m.stats.p95_ns);
        }
    }

    #[test]
    fn a_format_that_changes_the_value_is_refused() {
        fn lossy_decode(bytes: &[u8]) -> Result<Value, CodecError> {
            let mut value: Value = serde_json::from_slice(bytes)?;
            if let Value::Map(entries) = &mut value {
                entries.pop();
            }
            Ok(value)
        }
        static LOSSY: Format = Format {
            name: "lossy",
            label: "Lossy",
            implementation: "serde_json",
            colour: (0, 0, 0),
            bytes_as_base64: false,
            pinned_by_format_version: false,
            encode: |v, buf| Ok(serde_json::to_writer(buf, v)?),
            decode: lossy_decode,
        };
        let value = Value::Map(vec![("a".into(), Value::Null), ("b".into(), Value::Null)]);
        let err = check_round_trip(&LOSSY, Dataset::Canada, &value).unwrap_err();
        assert_eq!(
            err.to_string(),
            "lossy does not round-trip dataset `canada` exactly: at $: expected a map of 2 \
             entries, got 1"
        );
    }

    #[test]
    fn throughput_is_bytes_over_the_median() {
        assert_eq!(mb_per_s(2_000_000, 1_000_000_000), 2.0);
        assert_eq!(mb_per_s(5, 0), 0.0);
    }
}
