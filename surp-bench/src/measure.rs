//! Timing: checks that every format round-trips a dataset exactly, runs the
//! warm-up, then the timed iterations, each of which runs every operation of
//! every format once (formats round-robin, the first one rotating), and turns the samples into
//! [`Measurement`]s. The loop is shared by every suite through [`Lane`].

use std::hint::black_box;

use indicatif::ProgressBar;
use surp_datasets::typed::TypedValue;
use surp_datasets::{Dataset, Value};

use crate::codec::{CodecError, ValueCodec};
use crate::difference::first_difference;
use crate::lane::{Lane, ZSTD_LEVEL, ZstdStep, timed_decode, timed_encode, timed_roundtrip};
use crate::workload::WorkloadStream;
use crate::{BenchDataset, BenchError, Format, Operation, Plan, Stats, Workload};

/// The result of one cell: one format, dataset and operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The format measured.
    pub format: &'static Format,
    /// The dataset it processed.
    pub dataset: BenchDataset,
    /// What was timed.
    pub operation: Operation,
    /// The statistics of the timed samples.
    pub stats: Stats,
    /// The size of the format's encoding of the dataset, in bytes (the same
    /// for every operation of a format and dataset).
    pub size_bytes: u64,
    /// The size of that encoding after zstd at level [`ZSTD_LEVEL`]; `None`
    /// in the messages suite, and in rows read from a run made before the
    /// column existed.
    pub zstd_bytes: Option<u64>,
    /// How many messages the encoding holds: `None` for one document (the
    /// value and typed suites); in the messages suite the stream's length,
    /// whose whole size and times the other fields are.
    pub messages: Option<u64>,
}

impl Measurement {
    /// Throughput: serialized bytes over the median time, in MB/s (10^6
    /// bytes per second).
    pub fn mb_per_s(&self) -> f64 {
        mb_per_s(self.size_bytes, self.stats.median_ns)
    }

    /// The mean size of a message, framing included; the whole size for
    /// one document.
    pub fn bytes_per_message(&self) -> f64 {
        self.size_bytes as f64 / self.messages.unwrap_or(1).max(1) as f64
    }

    /// The median time per message: the median time of the whole stream
    /// over its messages; the median time itself for one document.
    pub fn median_ns_per_message(&self) -> f64 {
        self.stats.median_ns as f64 / self.messages.unwrap_or(1).max(1) as f64
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

/// A checked lane and the format it measures.
pub(crate) type FormatLane<'v> = (&'static Format, Box<dyn Lane + 'v>);

/// A value-suite lane: the format's functions over the neutral value.
struct ValueLane<'v> {
    codec: ValueCodec,
    value: &'v Value,
    /// The checked encoding of the dataset, which decode runs read.
    encoded: Vec<u8>,
    /// The buffer encode and roundtrip runs write into, cleared each time.
    scratch: Vec<u8>,
    /// The zstd step, for a compressed pipeline.
    zstd: Option<ZstdStep>,
}

/// Measures every format of the plan on one (already verified) value
/// dataset: one [`Measurement`] per format and operation, formats in plan
/// order.
pub(crate) fn measure_dataset(
    plan: &Plan,
    dataset: Dataset,
    value: &Value,
    progress: &ProgressBar,
) -> Result<Vec<Measurement>, BenchError> {
    let mut lanes: Vec<FormatLane<'_>> = Vec::with_capacity(plan.formats.len());
    for &format in &plan.formats {
        progress.set_message(format!("{dataset}: checking {}", format.name));
        let mut zstd = format.zstd_step().map_err(|err| BenchError::Codec {
            format: format.name,
            dataset: dataset.into(),
            operation: Operation::Encode,
            message: format!("zstd: {err}"),
        })?;
        let codec = format.codec().value();
        let encoded = check_round_trip(format, codec, dataset, value, zstd.as_mut())?;
        let lane = ValueLane {
            codec,
            value,
            encoded,
            scratch: Vec::new(),
            zstd,
        };
        lanes.push((format, Box::new(lane)));
    }
    measure_lanes(plan, dataset.into(), &mut lanes, progress)
}

/// Measures every format of the plan on one (already verified) typed
/// dataset: each format's lane is checked first (see the `typed` module),
/// then timed like the value suite's.
pub(crate) fn measure_typed_dataset(
    plan: &Plan,
    dataset: BenchDataset,
    value: &TypedValue,
    progress: &ProgressBar,
) -> Result<Vec<Measurement>, BenchError> {
    progress.set_message(format!("{dataset}: checking every format"));
    let mut lanes: Vec<FormatLane<'_>> = Vec::with_capacity(plan.formats.len());
    for &format in &plan.formats {
        let failed = |(operation, message)| BenchError::TypedCheck {
            format: format.name,
            dataset,
            operation,
            message,
        };
        let zstd = format
            .zstd_step()
            .map_err(|err| failed((Operation::Encode, format!("zstd: {err}"))))?;
        let lane = format.codec().typed_lane(value, zstd).map_err(failed)?;
        lanes.push((format, lane));
    }
    measure_lanes(plan, dataset, &mut lanes, progress)
}

/// Measures every format of the plan that can read the workload's messages
/// ([`Format::measures`]) on its stream: each format's lane trains, then is
/// checked (see the `stream` module), then is timed like the other suites'.
pub(crate) fn measure_workload(
    plan: &Plan,
    workload: Workload,
    stream: &WorkloadStream,
    progress: &ProgressBar,
) -> Result<Vec<Measurement>, BenchError> {
    let dataset = BenchDataset::Messages(workload);
    let mut lanes: Vec<FormatLane<'_>> = Vec::with_capacity(plan.formats.len());
    for &format in plan.formats.iter().filter(|f| f.measures(dataset)) {
        progress.set_message(format!("{workload}: training and checking {}", format.name));
        let build = format
            .messages
            .expect("a format of the messages suite says how it sends a stream")
            .lane;
        let lane = build(stream).map_err(|(operation, message)| BenchError::StreamCheck {
            format: format.name,
            workload,
            operation,
            message,
        })?;
        lanes.push((format, lane));
    }
    measure_lanes(plan, dataset, &mut lanes, progress)
}

/// The timing loop over checked lanes: warm-up runs, then the timed
/// iterations, then one [`Measurement`] per lane and supported operation.
fn measure_lanes(
    plan: &Plan,
    dataset: BenchDataset,
    lanes: &mut [FormatLane<'_>],
    progress: &ProgressBar,
) -> Result<Vec<Measurement>, BenchError> {
    let operations = plan.suite.operations();
    let failed = |format: &'static Format, operation| {
        move |err: CodecError| BenchError::Codec {
            format: format.name,
            dataset,
            operation,
            message: err.to_string(),
        }
    };
    progress.set_message(format!("{dataset}: warming up"));
    for &operation in operations {
        for (format, lane) in lanes.iter_mut().filter(|(_, l)| l.supports(operation)) {
            for _ in 0..plan.warmup {
                lane.run(operation).map_err(failed(format, operation))?;
            }
        }
    }
    let mut samples: Vec<Vec<Vec<u64>>> =
        vec![vec![Vec::with_capacity(plan.iterations); operations.len()]; lanes.len()];
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
        for (op_index, &operation) in operations.iter().enumerate() {
            let first = iteration % lanes.len();
            let order = (first..lanes.len()).chain(0..first);
            for index in order {
                let (format, lane) = &mut lanes[index];
                if !lane.supports(operation) {
                    continue;
                }
                let ns = lane.run(operation).map_err(failed(format, operation))?;
                samples[index][op_index].push(ns);
                progress.inc(1);
            }
        }
    }
    let mut results = Vec::with_capacity(lanes.len() * operations.len());
    for ((format, lane), lane_samples) in lanes.iter().zip(&samples) {
        let size_bytes = lane.encoded().len() as u64;
        // A compressed pipeline's size is already its size after zstd;
        // compressing its output again would measure nothing.
        let zstd_bytes = if format.is_compressed() || !plan.suite.measures_zstd_size() {
            None
        } else {
            let compressed = zstd::bulk::compress(lane.encoded(), ZSTD_LEVEL).map_err(|err| {
                BenchError::Codec {
                    format: format.name,
                    dataset,
                    operation: Operation::Encode,
                    message: format!("zstd: {err}"),
                }
            })?;
            Some(compressed.len() as u64)
        };
        for (&operation, samples) in operations.iter().zip(lane_samples) {
            let Some(stats) = Stats::from_samples(samples) else {
                continue;
            };
            results.push(Measurement {
                format,
                dataset,
                operation,
                stats,
                size_bytes,
                zstd_bytes,
                messages: lane.messages(),
            });
        }
    }
    Ok(results)
}

/// Encodes the value twice with the format's functions (the bytes must
/// match) and decodes it (the result must equal the value); returns the
/// encoding. For a compressed pipeline
/// (`zstd` given) the encodings are compressed and the decode decompresses
/// first, through the same step the timed runs use.
fn check_round_trip(
    format: &'static Format,
    codec: ValueCodec,
    dataset: Dataset,
    value: &Value,
    mut zstd: Option<&mut ZstdStep>,
) -> Result<Vec<u8>, BenchError> {
    let failed = |operation| {
        move |err: CodecError| BenchError::Codec {
            format: format.name,
            dataset: dataset.into(),
            operation,
            message: err.to_string(),
        }
    };
    let encode = |zstd: Option<&mut ZstdStep>, buf: &mut Vec<u8>| match zstd {
        Some(step) => step.pack.pack(|plain| (codec.encode)(value, plain), buf),
        None => (codec.encode)(value, buf),
    };
    let mut first = Vec::new();
    encode(zstd.as_deref_mut(), &mut first).map_err(failed(Operation::Encode))?;
    let mut second = Vec::new();
    encode(zstd.as_deref_mut(), &mut second).map_err(failed(Operation::Encode))?;
    if first != second {
        return Err(BenchError::NotDeterministic {
            format: format.name,
            dataset: dataset.into(),
        });
    }
    let back = match zstd {
        Some(step) => step.unpack.unpack(&first).and_then(codec.decode),
        None => (codec.decode)(&first),
    }
    .map_err(failed(Operation::Decode))?;
    if let Some(difference) = first_difference(&format.expected_decode(value), &back) {
        return Err(BenchError::NotRoundTrip {
            format: format.name,
            dataset: dataset.into(),
            difference,
        });
    }
    Ok(first)
}

impl Lane for ValueLane<'_> {
    fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    fn supports(&self, operation: Operation) -> bool {
        operation != Operation::DecodeBorrowed
    }

    fn run(&mut self, operation: Operation) -> Result<u64, CodecError> {
        let ValueLane {
            codec,
            value,
            encoded,
            scratch,
            zstd,
            ..
        } = self;
        let encode = |buf: &mut Vec<u8>| (codec.encode)(black_box(value), buf);
        let Some(ZstdStep { pack, unpack }) = zstd else {
            return match operation {
                Operation::Encode => timed_encode(scratch, encode),
                Operation::Decode => timed_decode(|| (codec.decode)(black_box(encoded))),
                Operation::DecodeBorrowed => Err("the value suite has no borrowed decode".into()),
                Operation::Roundtrip => timed_roundtrip(scratch, encode, codec.decode),
            };
        };
        match operation {
            Operation::Encode => timed_encode(scratch, |out| pack.pack(encode, out)),
            Operation::Decode => {
                timed_decode(|| unpack.unpack(black_box(encoded)).and_then(codec.decode))
            }
            Operation::DecodeBorrowed => Err("the value suite has no borrowed decode".into()),
            Operation::Roundtrip => timed_roundtrip(
                scratch,
                |out| pack.pack(encode, out),
                |bytes| unpack.unpack(bytes).and_then(codec.decode),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Json;
    use crate::format::Runs;
    use crate::{FORMATS, Mode, Suite};

    #[test]
    fn every_cell_is_measured_in_plan_order() {
        let plan = Plan::new(
            Mode::Ci,
            Suite::Value,
            FORMATS.iter().collect(),
            vec![Dataset::NestedDeep.into()],
            Some(2),
        )
        .unwrap();
        let value = Dataset::NestedDeep.load(plan.mode.scale()).unwrap();
        let results =
            measure_dataset(&plan, Dataset::NestedDeep, &value, &ProgressBar::hidden()).unwrap();
        let ops = Suite::Value.operations();
        assert_eq!(results.len(), plan.formats.len() * ops.len());
        for (i, m) in results.iter().enumerate() {
            assert_eq!(m.format, plan.formats[i / ops.len()]);
            assert_eq!(m.operation, ops[i % ops.len()]);
            assert_eq!(m.stats.samples, 2);
            assert!(m.size_bytes > 0);
            if m.format.is_compressed() {
                assert_eq!(m.zstd_bytes, None, "{}", m.format.name);
                // The pipeline's size is its base format's size after zstd.
                let base = results
                    .iter()
                    .find(|b| Some(b.format.name) == m.format.zstd_of())
                    .unwrap();
                assert_eq!(Some(m.size_bytes), base.zstd_bytes, "{}", m.format.name);
            } else {
                assert!(m.zstd_bytes.is_some_and(|z| z > 0));
            }
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
            needs_schema: false,
            runs: Runs::Codec {
                codec: &Json,
                value_suite: true,
                counted: false,
            },
            messages: None,
        };
        let lossy = ValueCodec {
            encode: |v, buf| Ok(serde_json::to_writer(buf, v)?),
            decode: lossy_decode,
        };
        let value = Value::Map(vec![("a".into(), Value::Null), ("b".into(), Value::Null)]);
        let err = check_round_trip(&LOSSY, lossy, Dataset::Canada, &value, None).unwrap_err();
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
