//! `surp-bench`: the deterministic comparison harness for Surp and its peers.
//!
//! It measures three suites ([`Suite`]):
//!
//! - the **value** suite: every format in [`FORMATS`] that is in it
//!   ([`Format::in_suite`]) encodes, decodes and round-trips the same dynamic
//!   value tree (the neutral model of `surp-datasets`) of every [`Dataset`];
//! - the **typed** suite: every format, the schema-bound ones (postcard,
//!   bitcode, MessagePack compact, typed Protobuf) included, encodes and
//!   decodes the derived Rust types of every typed dataset
//!   (`surp_datasets::typed`), owned and, where the type and the format
//!   allow, borrowing its strings from the input (`decode_borrowed`);
//! - the **messages** suite: every [`Workload`] is a stream of many small
//!   messages, one record of a dataset each, and every format of the suite
//!   sends the whole stream, each message framed as `surp::frame` frames a
//!   document, and receives it back; besides Surp, its peers and the
//!   schema-bound formats (typed workloads only), it measures Surp with
//!   zstd per message, with a dictionary ([`DICTIONARY_BYTES`]) and as one
//!   stream. A format sends through a stream codec whose encoder and
//!   decoder live for the whole stream, so stateful formats fit (see the
//!   `stream` module).
//!
//! Each suite writes into its folder of the run ([`Suite::subfolder`]: the
//! value suite at the top, the typed suite in `typed/`, the messages suite
//! in `messages/`):
//!
//! - `summary.csv`, one row per format x dataset x operation, with the
//!   header [`CSV_HEADER`] (raw size and size after zstd level 3; the
//!   messages suite's [`CSV_HEADER_MESSAGES`] adds the stream's messages
//!   and the size and time per message);
//! - `summary.md`, the same numbers as Markdown tables for the docs site;
//! - `meta.json`, the machine, toolchain, datasets, git commit and the
//!   regressions found against a baseline run;
//! - `charts/*.svg`, one per [`Suite::charts`]: size, size after zstd, and
//!   the median time of each operation (per message in the messages suite).
//!
//! With `--instructions`, the run also counts the instructions of encode
//! and decode of Surp's own formats at ci scale under callgrind and writes
//! `instructions.csv`; with `--check` a count more than
//! [`INSTRUCTION_THRESHOLD_PCT`] percent above the committed
//! [`INSTRUCTION_BASELINE`] fails the run (see the `instructions` module).
//!
//! The binary is a thin command line over [`run`]; tests drive the same
//! function:
//!
//! ```text
//! cargo run -p surp-bench --release -- --mode ci --output bench/results
//! cargo run -p surp-bench --release -- --mode full   # docs/assets/bench/v<version>/
//! ```
//!
//! `--formats` and `--datasets` filter (comma-separated names),
//! `--iterations` overrides the mode's count, `--baseline DIR` picks the run
//! to compare with, `--check` exits with status 3 on a regression, and
//! `--no-progress` hides the progress bar. Build with `--features jemalloc`
//! to measure on jemalloc.
//!
//! `surp-bench export --output DIR [--mode ci|full]` runs nothing: it writes
//! every dataset as `<name>.surp` and `<name>.json` for the harnesses and
//! tests of other languages (see [`export`]).
//!
//! ```no_run
//! use surp_bench::{BenchDataset, FORMATS, Mode, Options, Plan, Suite};
//! use surp_datasets::Dataset;
//!
//! let datasets = vec![BenchDataset::Value(Dataset::Canada)];
//! let plan = Plan::new(Mode::Ci, Suite::Value, FORMATS.iter().collect(), datasets, Some(3))?;
//! let options =
//!     Options { plans: vec![plan], output: "bench/results".into(), baseline: None, progress: false };
//! let report = surp_bench::run(&options)?;
//! print!("{}", report.table());
//! # Ok::<(), surp_bench::BenchError>(())
//! ```
//!
//! # Methodology
//!
//! - **One model.** Every format encodes the neutral `surp_datasets::Value`
//!   and decodes back into it. Before anything is timed, each format encodes
//!   each dataset twice (the two outputs must be identical) and decodes it
//!   back (the result must equal the input); a difference stops the run with
//!   the path of the first differing value. The one documented exception:
//!   JSON has no bytes type, so the model writes bytes as base64 strings,
//!   which decode as strings; for JSON the check expects those strings in
//!   place of the bytes (see [`Format::expected_decode`]).
//! - **Protobuf** goes through a generic Value message (see the `protobuf`
//!   module); its encode time includes converting the neutral value into that
//!   message, and its decode time includes converting back.
//! - **Datasets** are verified against the pinned manifest (sha256 of their
//!   canonical bytes) before anything is timed; a mismatch stops the run.
//! - **Encode buffer.** Each format encodes into its own `Vec<u8>`, cleared
//!   (capacity kept) before every encode, through the format's writer API
//!   (for `surp_dedup`, `surp_dedup::append_to_vec`, which builds the
//!   document in the buffer it is given). After the first encode no timed
//!   run grows the buffer, so encode times measure the codec, not the
//!   allocator's growth policy.
//! - **Decode** times stop before the decoded value is dropped; freeing the
//!   tree is not counted for any format.
//! - **Order.** Within a dataset every format first runs its warm-up runs
//!   of each operation. Then each timed iteration runs encode, decode and
//!   roundtrip in turn, each round-robin over the formats, so slow drift of
//!   the machine hits every cell of the dataset alike. The format that goes
//!   first rotates from one iteration to the next, so the cold caches the
//!   previous operation leaves behind do not always fall on the same format.
//! - **Statistics** per cell: median, p95 (nearest rank; with fewer than 20
//!   samples that is the maximum and is labelled "max"), minimum, and the
//!   coefficient of variation (sample standard deviation over mean).
//!   Throughput is serialized bytes over the median time, in MB/s
//!   (10^6 bytes per second); a roundtrip counts the serialized bytes once.
//! - **Typed suite.** Each format works on the dataset's own Rust types
//!   through serde, except Protobuf, which encodes prost messages derived
//!   for each dataset type (no protoc); the conversion into those messages
//!   happens once, outside the clock. The check before timing compares the
//!   owned decode with the dataset (`PartialEq`) and the borrowed decode by
//!   its serde_json text. cbor4ii and postcard take the reused buffer by
//!   value and hand it back; bitcode's serde API returns a new `Vec` on
//!   every encode, which its encode time includes.
//! - **Compressed size** (`zstd_bytes`): each encoding compressed once with
//!   zstd at level 3, not timed.
//! - **Compressed pipelines** (`surp_zstd`, `surp_dedup_zstd`): Surp and
//!   Surp+Dedup followed by zstd at level 3, timed like formats (encode then
//!   compress; decompress into a reused buffer then decode). Their size is
//!   the compressed size and their `zstd_bytes` is empty. Charts and the
//!   per-format tables leave them out; `summary.md` gives them a table of
//!   their own.
//! - **Regressions** are checked against a baseline run; see [`Comparison`].
//!   Times are compared as ratios to JSON's time in the same run, and a
//!   flagged cell whose CV is above 10% is reported as noisy, not as a pass
//!   or a regression. Because times on a shared machine are that noisy, the
//!   check CI relies on is the instruction count (`--instructions`), which
//!   is the same on every run of the same binary.
//! - **Messages suite.** One timed run is one whole stream: its encoder or
//!   decoder is made before the clock starts, and the clock covers every
//!   message; a time per message is that time over the stream's messages.
//!   Each workload's first records (a fifth, at most [`TRAINING_MAX`])
//!   train the zstd dictionary and are never sent; the rest are sent in
//!   order, [`Mode::messages_per_stream`] per stream, cycling when the
//!   dataset has fewer. How each stream was cut, repeats included, is in
//!   `meta.json` ([`StreamShape`]), because repeats favour the formats that
//!   keep state through the stream. Decoded messages are dropped after the
//!   clock stops. Instructions are not counted for this suite.

mod baseline;
mod cell;
mod chart;
mod cli;
mod codec;
mod dataset;
mod difference;
mod error;
mod export;
mod format;
mod harness;
mod instructions;
mod lane;
mod markdown;
mod measure;
mod meta;
mod operation;
mod plan;
mod protobuf;
mod regression;
mod stats;
mod stream;
mod stream_session;
mod stream_zstd;
mod suite;
mod summary;
mod table;
mod typed;
mod units;
mod workload;

pub use baseline::{Baseline, default_baseline};
pub use chart::Chart;
pub use cli::{Cli, Command, ExportArgs};
pub use dataset::BenchDataset;
pub use error::BenchError;
pub use export::{EXPORT_INDEX, ExportIndex, ExportedDataset, Notation, export};
pub use format::{FORMATS, Format, SURP_FORMAT_VERSION};
pub use harness::{Options, Report, run, workspace_root};
pub use instructions::{
    DumpCounts, INSTRUCTION_BASELINE, INSTRUCTION_THRESHOLD_PCT, InstructionComparison,
    InstructionCount, cells_to_count, compare_instructions, count as count_instructions,
    counted_formats, parse_callgrind_dump, parse_instructions_csv, to_instructions_csv,
    worker as instructions_worker,
};
pub use lane::ZSTD_LEVEL;
pub use markdown::{COMPRESSED_HEADING, markdown_tables};
pub use measure::Measurement;
pub use meta::Meta;
pub use operation::Operation;
pub use plan::{Mode, Plan};
pub use regression::{
    Comparison, NOISY_CV_PCT, NoisyCell, REFERENCE_FORMAT, Regression, SizeChange,
    TIME_THRESHOLD_PCT, compare,
};
pub use stats::Stats;
pub use stream::Sharing;
pub use stream_zstd::DICTIONARY_BYTES;
pub use suite::Suite;
pub use summary::{
    CSV_HEADER, CSV_HEADER_MESSAGES, CSV_HEADER_V1, CsvRow, csv_rows, parse_csv, to_csv,
};
pub use units::{duration, thousands};
pub use workload::{StreamShape, TRAINING_MAX, WORKLOAD_DATASET_VERSION, Workload};

pub use surp_datasets::Dataset;
