//! `meta.json`: everything needed to judge and reproduce a run's numbers
//! (machine, toolchain, allocator, datasets, formats, git commit) and the
//! regression check's findings.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde::Serialize;
use surp_datasets::Scale;
use surp_datasets::manifest;
use surp_datasets::typed::{TypedDataset, typed_manifest};

use crate::regression::{NOISY_CV_PCT, REFERENCE_FORMAT, TIME_THRESHOLD_PCT};
use crate::{
    BenchDataset, Comparison, DICTIONARY_BYTES, FORMATS, Format, Mode, Plan, SURP_FORMAT_VERSION,
    StreamShape, Suite, TRAINING_MAX, Workload, ZSTD_LEVEL,
};

include!(concat!(env!("OUT_DIR"), "/locked_versions.rs"));

/// The PRNG behind the generated datasets, as `meta.json` names it.
pub const PRNG: &str = "xorshift128 via rand_xorshift, seeds in datasets/manifest.toml";

/// The contents of `meta.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Meta {
    /// The harness and its version.
    pub harness: String,
    /// "ci" or "full".
    pub mode: &'static str,
    /// "value", "typed" or "messages".
    pub suite: &'static str,
    /// The scale of the generated datasets.
    pub dataset_scale: &'static str,
    /// Timed iterations per cell.
    pub iterations: usize,
    /// Untimed warm-up runs per format before each operation.
    pub warmup_iterations: usize,
    /// How the numbers were taken.
    pub methodology: Methodology,
    /// The machine.
    pub machine: Machine,
    /// The compiler, as `rustc --version` printed it.
    pub rustc: &'static str,
    /// Where [`Meta::rustc`] comes from.
    pub rustc_source: &'static str,
    /// "release", or "debug" for an unoptimised build whose times mean little.
    pub build_profile: &'static str,
    /// The global allocator.
    pub allocator: &'static str,
    /// The datasets' version ([`Suite::dataset_version`]).
    pub dataset_version: &'static str,
    /// The PRNG behind the generated datasets.
    pub prng: &'static str,
    /// Each measured dataset as the manifest pins it; in the messages
    /// suite, the datasets the workloads are cut from.
    pub datasets: Vec<DatasetMeta>,
    /// How each workload's stream was cut (messages suite only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workloads: Vec<WorkloadMeta>,
    /// Each measured format and the version of the crate implementing it.
    pub formats: Vec<FormatMeta>,
    /// The Surp format version the sizes are pinned to.
    pub surp_format_version: u64,
    /// The commit the harness ran from.
    pub git: Git,
    /// The regression check's settings.
    pub thresholds: Thresholds,
    /// The regression check's findings (`baseline`, `regressions`,
    /// `size_changes`, `noisy`, `notes`).
    #[serde(flatten)]
    pub comparison: Comparison,
}

/// How the numbers were taken, in words.
#[derive(Clone, Debug, Serialize)]
pub struct Methodology {
    /// The encode buffer policy.
    pub encode_buffer: &'static str,
    /// What a decode time covers.
    pub decode: &'static str,
    /// How runs are ordered.
    pub order: &'static str,
    /// How p95 is computed.
    pub p95: &'static str,
    /// How throughput is computed.
    pub throughput: &'static str,
    /// What Protobuf's times include (not in the messages suite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protobuf: Option<&'static str>,
    /// How JSON carries bytes (not in the messages suite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json_bytes: Option<&'static str>,
    /// The clock.
    pub timer: &'static str,
    /// What the compressed-size column is.
    pub zstd: String,
    /// What the borrowed decode measures (typed suite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub borrowed_decode: Option<String>,
    /// How a workload's stream is cut from its dataset (messages suite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streams: Option<String>,
    /// How messages are framed (messages suite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framing: Option<&'static str>,
    /// Which formats need the schema to decode.
    pub schema: String,
    /// What became of the v0.1.0 run's encode anomaly, measured (not in the
    /// messages suite, whose formats and ratios are others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encode_anomaly_v0_1_0: Option<&'static str>,
}

impl Methodology {
    /// How a suite's numbers are taken. The sentences that list formats or
    /// datasets are written from [`FORMATS`] and the typed datasets'
    /// [`TypedDataset::has_strings`], so they name what the harness measures.
    fn of(suite: Suite) -> Methodology {
        let value = Methodology {
            encode_buffer: "each format encodes into its own Vec<u8> through its writer API \
                            (surp_dedup: surp_dedup::append_to_vec; surp_dedup_shapes: the same \
                            with Options::dedup_strings(false)); the Vec is cleared (capacity \
                            kept) before every encode, so timed encodes never grow it",
            decode: "from a slice holding the format's encoding; the clock stops before the \
                     decoded value is dropped. After the drop, outside the clock, the harness \
                     allocates and frees one 4 KiB block, so that the free work glibc's allocator \
                     defers to its next large request (merging its fast bins) is not timed as \
                     part of the next run; the roundtrip's drop is followed by the same",
            order: "per dataset: warm-up runs of every operation per format; then each timed \
                    iteration runs encode, decode and roundtrip in turn, each round-robin over \
                    the formats; the format that goes first rotates from one iteration to the \
                    next",
            p95: "nearest rank; with fewer than 20 samples it is the maximum (reports label it \
                  max)",
            throughput: "serialized bytes / median time, in MB/s (10^6 bytes/s); roundtrip counts \
                         the bytes once",
            protobuf: Some(
                "prost with a generic Value message; encode includes converting the neutral \
                 value into it, decode includes converting back",
            ),
            json_bytes: Some(
                "JSON has no bytes type: bytes are written as base64 strings and decode as \
                 strings; its round-trip check expects those strings",
            ),
            timer: "std::time::Instant around each single run",
            zstd: format!(
                "zstd_bytes is the encoding compressed with zstd level {ZSTD_LEVEL} (the zstd \
                 crate, one shot, no dictionary); it is computed once per format and dataset, not \
                 timed. The pipelines {} are timed: encode is the format's encode into a reused \
                 Vec, then zstd level {ZSTD_LEVEL} into the lane's Vec as one frame that records \
                 its size; decode reads that size, decompresses into a reused Vec and decodes \
                 from it (a borrowed decode borrows from it). The zstd contexts are made once per \
                 lane, outside the clock; their size_bytes is the compressed size (so their \
                 mb_per_s is compressed bytes per second) and their zstd_bytes is empty",
                and_list(FORMATS.iter().filter(|f| f.is_compressed()).map(|f| f.name)),
            ),
            borrowed_decode: None,
            streams: None,
            framing: None,
            schema: schema_note(Suite::Value),
            encode_anomaly_v0_1_0: Some(ENCODE_ANOMALY),
        };
        match suite {
            Suite::Value => value,
            // The value suite's, with these changes.
            Suite::Typed => Methodology {
                encode_buffer: "each format encodes into its own reused Vec<u8>, cleared before \
                                every encode, through its writer API where it has one; cbor4ii \
                                (serde::to_vec) and postcard (to_extend) take the Vec by value \
                                and hand it back, so its capacity is reused too; bitcode's serde \
                                API (bitcode::serialize) always returns a new Vec, so its encode \
                                time includes that allocation",
                decode: "owned decode into the dataset's Rust type (String fields) from a slice \
                         holding the format's encoding; the clock stops before the value is \
                         dropped, and after the drop one 4 KiB block is allocated and freed, \
                         untimed, as in the value suite",
                protobuf: Some(
                    "prost with one derived message type per dataset type (no protoc); the \
                     dataset is converted into its messages once, outside the clock, so encode \
                     and decode time prost on its own message types; the round-trip check \
                     converts back",
                ),
                json_bytes: Some("the typed datasets hold no byte strings"),
                schema: schema_note(Suite::Typed),
                borrowed_decode: Some(borrowed_decode_note()),
                ..value
            },
            Suite::Messages => Methodology {
                encode_buffer: "one run encodes a whole stream: each message is encoded by the \
                                stream's one encoder into a reused Vec<u8> (cleared, capacity \
                                kept) through its format's writer API, then framed onto the end \
                                of the stream's reused Vec<u8> by surp::frame::write_frame_bytes. \
                                The encoder is made before the clock starts, as a connection's \
                                would be, and the clock covers every message of the stream",
                decode: "one run decodes a whole stream from a slice holding it: the frames are \
                         read in place, and each message is decoded by the stream's one decoder \
                         (made before the clock starts) into the workload's own type \
                         (LogRecord<String>, EntityUpdate) or the neutral value, and pushed onto \
                         a reused Vec; the clock stops before the decoded messages are dropped, \
                         and one 4 KiB block is allocated and freed after the drop, untimed, as \
                         in the other suites",
                order: "per workload: each format trains (outside the clock) and is checked; \
                        warm-up runs of encode and decode per format; then each timed iteration \
                        runs encode, then decode, each round-robin over the formats; the format \
                        that goes first rotates from one iteration to the next. Before timing, \
                        each format encodes the stream twice (the bytes must match: every stream \
                        starts afresh) and decodes it (every message must equal the one sent)",
                throughput: "the whole stream's bytes / the median time of the whole stream, in \
                             MB/s (10^6 bytes/s)",
                protobuf: None,
                json_bytes: None,
                timer: "std::time::Instant around one whole stream; a time per message is that \
                        time over the stream's messages",
                zstd: stream_zstd_note(),
                streams: Some(streams_note()),
                framing: Some(
                    "every message of every format is framed as surp::frame frames a document: \
                     its length in 4 bytes, little-endian, then the message. The 4 bytes count \
                     in its size",
                ),
                schema: schema_note(Suite::Messages),
                encode_anomaly_v0_1_0: None,
                ..value
            },
        }
    }
}

/// How the zstd formats of the messages suite work.
fn stream_zstd_note() -> String {
    format!(
        "zstd level {ZSTD_LEVEL}, with the zstd crate. surp_zstd compresses each message alone \
         into one frame that records its size (one reused bulk Compressor per stream). \
         surp_zstd_dict does the same with a dictionary of at most {DICTIONARY_BYTES} bytes, \
         trained by zstd::dict::from_samples on the plain Surp encoding of each training record \
         and prepared once per workload for compressing and decompressing, outside the clock; \
         both ends hold it before the stream starts. surp_zstd_stream writes each message into \
         one zstd::stream::Encoder for the whole stream and flushes it after the message, so \
         what the flush wrote decodes to the whole message; the receiver feeds each message's \
         bytes to one streaming decoder (zstd::stream::raw::Decoder). A message of that stream \
         needs every message before it. The stream is never finished, as a connection's is not \
         while it is open. None of these formats has a zstd_bytes. surp_session is a Surp \
         session (docs/spec.md section 9, surp_dedup::SessionEncoder and SessionDecoder with \
         the default budget): the stream opens with the session's header as its first frame, \
         counted in its size, and each message refers to the strings and shapes of the messages \
         before it. surp_dictionary is a Surp dictionary (surp_dedup::Dictionary::from_samples) \
         learnt from the training records outside the clock: each message is a dictionary \
         document that decodes alone. surp_session_zstd_stream writes a session's messages \
         through one zstd stream, as surp_zstd_stream does plain Surp's"
    )
}

/// How a workload's stream is cut, with both modes' stream lengths.
fn streams_note() -> String {
    format!(
        "each workload's dataset is verified against its manifest, then cut: its first records \
         (a fifth, at most {}) are the training records, which train the zstd \
         dictionary and are never sent; the rest are sent in dataset order, one record per \
         message, {} messages per stream in full mode and {} in ci mode. When fewer records \
         are left than a stream's messages, the stream cycles through them and records repeat: \
         the workloads list of this file gives each stream's distinct records. A repeated record \
         favours every scheme that keeps state through the stream (a zstd stream finds the \
         earlier copy within its window), so on a cycled workload such a scheme's size is \
         smaller than fresh records would make it",
        thousands_text(TRAINING_MAX),
        thousands_text(Mode::Full.messages_per_stream()),
        thousands_text(Mode::Ci.messages_per_stream()),
    )
}

fn thousands_text(n: usize) -> String {
    crate::thousands(n as u64)
}

/// Names as a list in a sentence: "a", "a and b", "a, b and c".
fn and_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The labels of a suite's formats, pipelines left out, that `keep` picks.
fn labels(suite: Suite, keep: impl Fn(&Format) -> bool) -> String {
    and_list(
        FORMATS
            .iter()
            .filter(|f| f.in_suite(suite) && !f.is_pipeline_in(suite) && keep(f))
            .map(|f| f.label),
    )
}

/// Which formats need the schema to decode, from [`Format::needs_schema`].
fn schema_note(suite: Suite) -> String {
    match suite {
        Suite::Value => {
            let mut note = String::from(
                "no format of the value suite needs a schema of the dataset: each writes the \
                 data's map keys and value types on the wire",
            );
            let generic = labels(suite, |f| f.needs_schema);
            if !generic.is_empty() {
                note.push_str(&format!(", {generic} through one generic Value message"));
            }
            note
        }
        Suite::Typed => format!(
            "{} write no field names or types: a reader needs the schema to decode them. {} \
             are self-describing",
            labels(suite, |f| f.needs_schema_in(suite)),
            labels(suite, |f| !f.needs_schema_in(suite)),
        ),
        Suite::Messages => format!(
            "{} write no field names or types: a reader needs the Rust type to decode them, so \
             they send only the typed workloads ({}). {} are self-describing",
            labels(suite, |f| f.needs_schema_in(suite)),
            and_list(
                Workload::ALL
                    .into_iter()
                    .filter(|w| w.is_typed())
                    .map(Workload::name)
            ),
            labels(suite, |f| !f.needs_schema_in(suite)),
        ),
    }
}

/// Which datasets and formats have a borrowed decode.
fn borrowed_decode_note() -> String {
    format!(
        "decode_borrowed decodes into the same types with &str in place of String, where the \
         dataset has strings ({}) and the format can borrow from a slice (all but {}, which \
         cannot borrow from their input); the check before timing compares its serde_json \
         text with the dataset's",
        and_list(
            TypedDataset::ALL
                .into_iter()
                .filter(|d| d.has_strings())
                .map(|d| d.name())
        ),
        and_list(
            FORMATS
                .iter()
                .filter(|f| f.in_suite(Suite::Typed) && !f.is_compressed())
                .filter(|f| !f.codec().borrows())
                .map(|f| f.implementation)
        ),
    )
}

// Written into every run's meta.json, so that each run's methodology page
// says why noisy cells are flagged and CI counts instructions, not time.
const ENCODE_ANOMALY: &str = "the v0.1.0 run's Surp/MessagePack encode ratios of 1.56 \
     (twitter) and 1.41 (citm_catalog) do not reproduce. The v0.1.0 harness itself (commit \
     be87b89), rebuilt and run twice in full mode on the same kind of machine, gave 0.98 and \
     0.97 on twitter and 0.92 and 1.14 on citm_catalog (medians of 20); its published cells had \
     CVs of 17-41%, so MessagePack's p95 was above Surp's median. Underneath the noise, Surp \
     executes 35% fewer instructions than rmp-serde for these encodes (callgrind: 1.80 M vs \
     2.78 M on twitter, 4.75 M vs 7.34 M on citm_catalog) and in a warm loop takes 0.76x and \
     0.84x its time (min of 200). In the harness, where each encode runs after every format's \
     decode and roundtrip have evicted the value tree from the caches, both formats wait on the \
     same memory and the gap narrows to 0.93-0.94x by minimum time, small enough for a noisy \
     median to cross 1. The harness therefore marks cells with a CV above 10% as noisy, and the \
     regression check CI relies on counts instructions instead of timing";

/// The machine a run was made on.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// The operating system.
    pub os: &'static str,
    /// The CPU architecture.
    pub arch: &'static str,
    /// The CPU model, from /proc/cpuinfo where there is one.
    pub cpu_model: String,
    /// Logical cores available to the process.
    pub cores: usize,
}

/// One measured dataset as the manifest pins it.
#[derive(Clone, Debug, Serialize)]
pub struct DatasetMeta {
    /// The dataset's name.
    pub name: &'static str,
    /// Its generator seed (0 for corpus documents).
    pub seed: u64,
    /// Its record count.
    pub records: u64,
    /// The size of its canonical bytes (for a typed dataset: of its
    /// serde_json encoding).
    pub canonical_len: u64,
    /// The sha256 of those bytes, which the run verified.
    pub sha256: String,
}

/// How one workload's stream was cut from its dataset (see the `workload`
/// module).
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadMeta {
    /// The workload's name.
    pub name: &'static str,
    /// The dataset its records come from.
    pub dataset: &'static str,
    /// What one message is.
    pub message: &'static str,
    /// The counts of records and messages.
    #[serde(flatten)]
    pub shape: StreamShape,
    /// How many times each sent record is sent, on average: above 1 when
    /// the stream cycles.
    pub sends_per_record: f64,
}

impl WorkloadMeta {
    /// Describes a workload's stream.
    pub fn new(workload: Workload, shape: StreamShape) -> WorkloadMeta {
        WorkloadMeta {
            name: workload.name(),
            dataset: workload.dataset().name(),
            message: workload.description(),
            shape,
            sends_per_record: (shape.sends_per_record() * 100.0).round() / 100.0,
        }
    }
}

impl DatasetMeta {
    /// The dataset as its manifest pins it at this scale (for a workload,
    /// the dataset it is cut from); `None` if the manifest lacks it.
    fn pinned(dataset: BenchDataset, scale: Scale) -> Option<DatasetMeta> {
        match dataset {
            BenchDataset::Value(d) => manifest().entry(d, scale).map(|e| DatasetMeta {
                name: e.dataset.name(),
                seed: e.seed,
                records: e.records,
                canonical_len: e.canonical_len,
                sha256: e.sha256.clone(),
            }),
            BenchDataset::Typed(d) => typed_manifest()
                .unwrap_or_default()
                .iter()
                .find(|e| e.dataset == d.name() && e.scale == scale.name())
                .map(|e| DatasetMeta {
                    name: d.name(),
                    seed: e.seed,
                    records: e.records,
                    canonical_len: e.json_len,
                    sha256: e.sha256.clone(),
                }),
            BenchDataset::Messages(w) => DatasetMeta::pinned(w.dataset(), scale),
        }
    }
}

/// One measured format.
#[derive(Clone, Debug, Serialize)]
pub struct FormatMeta {
    /// The format's name.
    pub name: &'static str,
    /// The crate implementing it.
    pub implementation: &'static str,
    /// That crate's version in Cargo.lock.
    pub version: Option<&'static str>,
}

/// The commit the harness ran from.
#[derive(Clone, Debug, Serialize)]
pub struct Git {
    /// `git rev-parse HEAD`, if git could tell.
    pub commit: Option<String>,
    /// Whether tracked files had uncommitted changes when the run started
    /// (`git status --porcelain --untracked-files=no`).
    pub dirty: Option<bool>,
}

/// The regression check's settings.
#[derive(Clone, Debug, Serialize)]
pub struct Thresholds {
    /// The format every median is divided by.
    pub reference_format: &'static str,
    /// How much a ratio may grow before it is flagged, in percent.
    pub time_regression_pct: f64,
    /// The CV above which a flagged cell is noisy, in percent.
    pub noisy_cv_pct: f64,
}

impl Git {
    /// Asks git about the repository at `root`; unknown fields stay `None`.
    pub fn capture(root: &Path) -> Git {
        let git = |args: &[&str]| {
            Command::new("git")
                .arg("-C")
                .arg(root)
                .args(args)
                .output()
                .ok()
                .filter(|out| out.status.success())
                .and_then(|out| String::from_utf8(out.stdout).ok())
        };
        Git {
            commit: git(&["rev-parse", "HEAD"]).map(|s| s.trim().to_owned()),
            dirty: git(&["status", "--porcelain", "--untracked-files=no"])
                .map(|s| !s.trim().is_empty()),
        }
    }
}

impl Meta {
    /// Describes a run of `plan` on this machine and build.
    pub fn new(plan: &Plan, git: Git, comparison: Comparison) -> Meta {
        let scale = plan.mode.scale();
        let datasets = plan
            .datasets
            .iter()
            .filter_map(|&d| DatasetMeta::pinned(d, scale))
            .collect();
        let formats = plan
            .formats
            .iter()
            .map(|f| FormatMeta {
                name: f.name,
                implementation: f.implementation,
                version: locked_version(f.implementation),
            })
            .collect();
        Meta {
            harness: format!("surp-bench {}", env!("CARGO_PKG_VERSION")),
            mode: plan.mode.name(),
            suite: plan.suite.name(),
            dataset_scale: scale.name(),
            iterations: plan.iterations,
            warmup_iterations: plan.warmup,
            methodology: Methodology::of(plan.suite),
            machine: Machine {
                os: std::env::consts::OS,
                arch: std::env::consts::ARCH,
                cpu_model: cpu_model(),
                cores: std::thread::available_parallelism().map_or(0, |n| n.get()),
            },
            rustc: env!("SURP_BENCH_RUSTC_VERSION"),
            rustc_source: "captured when the harness was built: build.rs runs `$RUSTC --version`",
            build_profile: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            },
            allocator: ALLOCATOR,
            dataset_version: plan.suite.dataset_version(),
            prng: PRNG,
            datasets,
            workloads: Vec::new(),
            formats,
            surp_format_version: SURP_FORMAT_VERSION,
            git,
            thresholds: Thresholds {
                reference_format: REFERENCE_FORMAT,
                time_regression_pct: TIME_THRESHOLD_PCT,
                noisy_cv_pct: NOISY_CV_PCT,
            },
            comparison,
        }
    }

    /// The pretty-printed JSON written to `meta.json`.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("Meta serializes");
        text.push('\n');
        text
    }
}

/// The global allocator the binary installs (see `main.rs`).
const ALLOCATOR: &str = if cfg!(feature = "jemalloc") {
    "jemalloc (tikv-jemallocator)"
} else {
    "system"
};

/// The version Cargo.lock pins for a crate, if it lists exactly one.
fn locked_version(name: &str) -> Option<&'static str> {
    let mut versions = LOCKED_VERSIONS.iter().filter(|(n, _)| *n == name);
    match (versions.next(), versions.next()) {
        (Some((_, v)), None) => Some(v),
        _ => None,
    }
}

fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, model)| model.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peer_crates_have_locked_versions() {
        for name in crate::FORMATS.iter().map(|f| f.implementation) {
            assert!(locked_version(name).is_some(), "{name}");
        }
        assert_eq!(locked_version("no-such-crate"), None);
    }

    #[test]
    fn names_in_a_sentence_read_as_a_list() {
        assert_eq!(and_list([]), "");
        assert_eq!(and_list(["a"]), "a");
        assert_eq!(and_list(["a", "b"]), "a and b");
        assert_eq!(and_list(["a", "b", "c"]), "a, b and c");
    }

    #[test]
    fn the_notes_that_name_formats_and_datasets_follow_the_tables() {
        let value = Methodology::of(Suite::Value);
        assert!(
            value
                .schema
                .ends_with(", Protobuf through one generic Value message")
        );
        assert!(
            value
                .zstd
                .contains("The pipelines surp_zstd and surp_dedup_zstd are timed")
        );
        assert_eq!(value.borrowed_decode, None);
        let typed = Methodology::of(Suite::Typed);
        assert!(typed.schema.starts_with(
            "MessagePack compact, postcard, bitcode and Protobuf write no field names or types"
        ));
        let borrowed = typed.borrowed_decode.unwrap();
        assert!(borrowed.contains("dataset has strings (log, game_save and request_log)"));
        assert!(borrowed.contains("(all but ciborium and prost, which cannot borrow"));
    }

    #[test]
    fn rustc_was_captured() {
        assert!(env!("SURP_BENCH_RUSTC_VERSION").starts_with("rustc "));
    }
}
