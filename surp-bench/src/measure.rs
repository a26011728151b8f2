//! Timing: checks that every format round-trips a dataset exactly, runs the
//! warm-up, then the timed iterations, each of which runs every operation of
//! every format once (formats round-robin, the first one rotating), and turns the samples into
//! [`Measurement`]s. The loop is shared by both suites through [`Lane`].

use std::hint::black_box;
use std::time::Instant;

use indicatif::ProgressBar;
use surp_datasets::{Dataset, Value};

use crate::difference::first_difference;
use crate::format::{CodecError, ValueCodec};
use crate::{BenchDataset, BenchError, Format, Operation, Plan, Stats};

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
    /// in rows read from a run made before the column existed.
    pub zstd_bytes: Option<u64>,
}

/// The zstd level of the compressed-size column and of the compressed
/// pipelines: zstd's default, what users reach for first.
pub const ZSTD_LEVEL: i32 = 3;

/// The zstd half of a compressed pipeline's lane: a compressor and a
/// decompressor, each with its buffer, made once before anything is timed
/// and reused by every run, as a program that compresses many documents
/// would keep them.
pub(crate) struct ZstdStep {
    pub(crate) pack: Packer,
    pub(crate) unpack: Unpacker,
}

/// Encodes into its own buffer, then compresses that into the caller's.
pub(crate) struct Packer {
    compressor: zstd::bulk::Compressor<'static>,
    /// The plain encoding, cleared (capacity kept) before each encode.
    plain: Vec<u8>,
}

/// Decompresses into its own buffer, which the decode then reads.
pub(crate) struct Unpacker {
    decompressor: zstd::bulk::Decompressor<'static>,
    /// The decompressed encoding, cleared (capacity kept) before each run.
    unpacked: Vec<u8>,
}

impl ZstdStep {
    /// The step a format's lane needs: `None` for a plain format; for a
    /// compressed pipeline, a compressor at [`ZSTD_LEVEL`] and a
    /// decompressor, with empty buffers.
    pub(crate) fn for_format(format: &Format) -> Result<Option<ZstdStep>, CodecError> {
        if !format.is_compressed() {
            return Ok(None);
        }
        Ok(Some(ZstdStep {
            pack: Packer {
                compressor: zstd::bulk::Compressor::new(ZSTD_LEVEL)?,
                plain: Vec::new(),
            },
            unpack: Unpacker {
                decompressor: zstd::bulk::Decompressor::new()?,
                unpacked: Vec::new(),
            },
        }))
    }
}

impl Packer {
    /// Runs `encode` into the plain buffer, then compresses the plain
    /// encoding into `out` (which the caller has cleared) as one zstd frame
    /// that records its size.
    pub(crate) fn pack(
        &mut self,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<(), CodecError>,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        self.plain.clear();
        encode(&mut self.plain)?;
        out.clear();
        out.reserve(zstd::compress_bound(self.plain.len()));
        self.compressor.compress_to_buffer(&self.plain, out)?;
        Ok(())
    }
}

impl Unpacker {
    /// Decompresses one frame into the buffer, sized from the size the
    /// frame records, and returns the plain encoding.
    pub(crate) fn unpack(&mut self, compressed: &[u8]) -> Result<&[u8], CodecError> {
        let size = zstd::bulk::Decompressor::upper_bound(compressed)
            .ok_or("the zstd frame does not record its decompressed size")?;
        self.unpacked.clear();
        self.unpacked.reserve(size);
        self.decompressor
            .decompress_to_buffer(compressed, &mut self.unpacked)?;
        Ok(&self.unpacked)
    }
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

/// The nanoseconds since `start`, saturated.
fn elapsed_ns(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Times one encode into `scratch`, cleared first (capacity kept): every
/// lane's encode runs go through here, so they are timed alike.
pub(crate) fn timed_encode(
    scratch: &mut Vec<u8>,
    encode: impl FnOnce(&mut Vec<u8>) -> Result<(), CodecError>,
) -> Result<u64, CodecError> {
    scratch.clear();
    let start = Instant::now();
    encode(scratch)?;
    let ns = elapsed_ns(start);
    black_box(&scratch);
    Ok(ns)
}

/// Bytes of the block [`settle_allocator`] asks for: above glibc's small
/// bins (up to 1,008 bytes) and its thread cache, and far below the size
/// from which it maps memory instead (128 KiB by default).
const SETTLE_BYTES: usize = 4096;

/// Finishes, outside the clock, the free work that dropping a decoded value
/// left behind. glibc's allocator keeps small freed blocks in "fast bins" and
/// merges them only when a later request is too large for a small bin; so
/// after a value tree of thousands of small blocks is dropped, that merge
/// (`malloc_consolidate`) runs inside whatever timed operation next asks for
/// a large block. Which operation that is depends on the order of the runs:
/// a decoder that allocates a table early paid for the previous format's
/// drop, and `surp_dedup`'s nested_deep decode had medians that jumped
/// between 8.7 and 12 ms from one run to the next (CV above 20%). One large
/// request here makes the allocator do it now. With another allocator
/// (`--features jemalloc`) it is one more allocation, untimed.
#[inline(never)]
fn settle_allocator() {
    drop(black_box(Vec::<u8>::with_capacity(SETTLE_BYTES)));
}

/// Times one decode; the decoded value is dropped after the clock stops:
/// freeing it is not decoding (nor is the work the allocator defers from it,
/// see [`settle_allocator`]).
pub(crate) fn timed_decode<T>(
    decode: impl FnOnce() -> Result<T, CodecError>,
) -> Result<u64, CodecError> {
    let start = Instant::now();
    let decoded = decode()?;
    let ns = elapsed_ns(start);
    drop(black_box(decoded));
    settle_allocator();
    Ok(ns)
}

/// Times an encode into `scratch` (cleared first) and the decode of what
/// it wrote, as one run; the decoded value is dropped after the clock.
pub(crate) fn timed_roundtrip<T>(
    scratch: &mut Vec<u8>,
    encode: impl FnOnce(&mut Vec<u8>) -> Result<(), CodecError>,
    decode: impl FnOnce(&[u8]) -> Result<T, CodecError>,
) -> Result<u64, CodecError> {
    scratch.clear();
    let start = Instant::now();
    encode(scratch)?;
    let decoded = decode(black_box(scratch))?;
    let ns = elapsed_ns(start);
    drop(black_box(decoded));
    settle_allocator();
    Ok(ns)
}

/// One format's state while a dataset is measured: its checked encoding and
/// whatever its runs need. The value suite and the typed suite each have
/// their own lanes; the timing loop ([`measure_lanes`]) serves both.
pub(crate) trait Lane {
    /// The format.
    fn format(&self) -> &'static Format;
    /// The checked encoding of the dataset, which decode runs read.
    fn encoded(&self) -> &[u8];
    /// Whether the format can run this operation on this dataset.
    fn supports(&self, operation: Operation) -> bool;
    /// One run of the operation; returns its time in nanoseconds. Only the
    /// operation is timed: clearing the buffer before and dropping the
    /// decoded value after are not.
    fn run(&mut self, operation: Operation) -> Result<u64, CodecError>;
}

/// A value-suite lane: the format's functions over the neutral value.
struct ValueLane<'v> {
    format: &'static Format,
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
    let mut lanes: Vec<Box<dyn Lane + '_>> = Vec::with_capacity(plan.formats.len());
    for &format in &plan.formats {
        progress.set_message(format!("{dataset}: checking {}", format.name));
        let mut zstd = ZstdStep::for_format(format).map_err(|err| BenchError::Codec {
            format: format.name,
            dataset: dataset.into(),
            operation: Operation::Encode,
            message: format!("zstd: {err}"),
        })?;
        let encoded = check_round_trip(format, dataset, value, zstd.as_mut())?;
        lanes.push(Box::new(ValueLane {
            format,
            codec: format.value_codec(),
            value,
            encoded,
            scratch: Vec::new(),
            zstd,
        }));
    }
    measure_lanes(plan, dataset.into(), &mut lanes, progress)
}

/// The timing loop over checked lanes: warm-up runs, then the timed
/// iterations, then one [`Measurement`] per lane and supported operation.
pub(crate) fn measure_lanes(
    plan: &Plan,
    dataset: BenchDataset,
    lanes: &mut [Box<dyn Lane + '_>],
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
        for lane in lanes.iter_mut().filter(|l| l.supports(operation)) {
            for _ in 0..plan.warmup {
                lane.run(operation)
                    .map_err(failed(lane.format(), operation))?;
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
                let lane = &mut lanes[index];
                if !lane.supports(operation) {
                    continue;
                }
                let ns = lane
                    .run(operation)
                    .map_err(failed(lane.format(), operation))?;
                samples[index][op_index].push(ns);
                progress.inc(1);
            }
        }
    }
    let mut results = Vec::with_capacity(lanes.len() * operations.len());
    for (lane, lane_samples) in lanes.iter().zip(&samples) {
        let size_bytes = lane.encoded().len() as u64;
        // A compressed pipeline's size is already its size after zstd;
        // compressing its output again would measure nothing.
        let zstd_bytes = if lane.format().is_compressed() {
            None
        } else {
            let compressed = zstd::bulk::compress(lane.encoded(), ZSTD_LEVEL).map_err(|err| {
                BenchError::Codec {
                    format: lane.format().name,
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
                format: lane.format(),
                dataset,
                operation,
                stats,
                size_bytes,
                zstd_bytes,
            });
        }
    }
    Ok(results)
}

/// Encodes the value twice (the bytes must match) and decodes it (the result
/// must equal the value); returns the encoding. For a compressed pipeline
/// (`zstd` given) the encodings are compressed and the decode decompresses
/// first, through the same step the timed runs use.
fn check_round_trip(
    format: &'static Format,
    dataset: Dataset,
    value: &Value,
    mut zstd: Option<&mut ZstdStep>,
) -> Result<Vec<u8>, BenchError> {
    let codec = format.value_codec();
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
    fn format(&self) -> &'static Format {
        self.format
    }

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
                    .find(|b| Some(b.format.name) == m.format.zstd_of)
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
            zstd_of: None,
            codec: crate::Codec::Json,
            value: Some(ValueCodec {
                encode: |v, buf| Ok(serde_json::to_writer(buf, v)?),
                decode: lossy_decode,
            }),
        };
        let value = Value::Map(vec![("a".into(), Value::Null), ("b".into(), Value::Null)]);
        let err = check_round_trip(&LOSSY, Dataset::Canada, &value, None).unwrap_err();
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
