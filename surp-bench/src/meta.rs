//! `meta.json`: everything needed to judge and reproduce a run's numbers
//! (machine, toolchain, allocator, datasets, formats, git commit) and the
//! regression check's findings.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde::Serialize;
use surp_datasets::{DATASET_VERSION, manifest};

use crate::regression::{NOISY_CV_PCT, REFERENCE_FORMAT, TIME_THRESHOLD_PCT};
use crate::{Comparison, Plan, SURP_FORMAT_VERSION};

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
    /// The datasets' version.
    pub dataset_version: &'static str,
    /// The PRNG behind the generated datasets.
    pub prng: &'static str,
    /// Each measured dataset as the manifest pins it.
    pub datasets: Vec<DatasetMeta>,
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
    /// What Protobuf's times include.
    pub protobuf: &'static str,
    /// How JSON carries bytes.
    pub json_bytes: &'static str,
    /// The clock.
    pub timer: &'static str,
}

const METHODOLOGY: Methodology = Methodology {
    encode_buffer: "each format encodes into its own Vec<u8> through its writer API \
                    (surp_dedup: surp_dedup::append_to_vec); the Vec is cleared (capacity kept) \
                    before every encode, so timed encodes never grow it",
    decode: "from a slice holding the format's encoding; the clock stops before the decoded \
             value is dropped",
    order: "per dataset: warm-up runs of every operation per format; then each timed \
            iteration runs encode, decode and roundtrip in turn, each round-robin over the formats; \
            the format that goes first rotates from one iteration to the next",
    p95: "nearest rank; with fewer than 20 samples it is the maximum (reports label it max)",
    throughput: "serialized bytes / median time, in MB/s (10^6 bytes/s); roundtrip counts the \
                 bytes once",
    protobuf: "prost with a generic Value message; encode includes converting the neutral value \
               into it, decode includes converting back",
    json_bytes: "JSON has no bytes type: bytes are written as base64 strings and decode as \
                 strings; its round-trip check expects those strings",
    timer: "std::time::Instant around each single run",
};

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
    /// The size of its canonical bytes.
    pub canonical_len: u64,
    /// The sha256 of its canonical bytes, which the run verified.
    pub sha256: String,
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
            .filter_map(|&d| manifest().entry(d, scale))
            .map(|e| DatasetMeta {
                name: e.dataset.name(),
                seed: e.seed,
                records: e.records,
                canonical_len: e.canonical_len,
                sha256: e.sha256.clone(),
            })
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
            dataset_scale: scale.name(),
            iterations: plan.iterations,
            warmup_iterations: plan.warmup,
            methodology: METHODOLOGY,
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
            dataset_version: DATASET_VERSION,
            prng: PRNG,
            datasets,
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
        for name in ["serde_json", "rmp-serde", "ciborium", "prost"] {
            assert!(locked_version(name).is_some(), "{name}");
        }
        assert_eq!(locked_version("no-such-crate"), None);
    }

    #[test]
    fn rustc_was_captured() {
        assert!(env!("SURP_BENCH_RUSTC_VERSION").starts_with("rustc "));
    }
}
