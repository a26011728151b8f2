//! `meta.json` as the generator reads it back: the fields the benchmark
//! pages show. The harness writes the file (`surp_bench::Meta`); fields it
//! adds later are ignored here, and a field missing here is an error that
//! names it.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The parts of a run's `meta.json` that its page shows.
#[derive(Clone, Debug, Deserialize)]
pub struct RunMeta {
    /// The harness and its version, such as "surp-bench 0.1.0".
    pub harness: String,
    /// "ci" or "full".
    pub mode: String,
    /// "value" or "typed"; runs made before the typed suite have none and
    /// are value-suite runs.
    #[serde(default)]
    pub suite: Option<String>,
    /// The scale of the generated datasets.
    pub dataset_scale: String,
    /// Timed iterations per cell.
    pub iterations: usize,
    /// Untimed warm-up runs per format before each operation.
    pub warmup_iterations: usize,
    /// How the numbers were taken, one sentence per aspect.
    pub methodology: BTreeMap<String, String>,
    /// The machine.
    pub machine: Machine,
    /// `rustc --version` of the compiler that built the harness.
    pub rustc: String,
    /// "release" or "debug".
    pub build_profile: String,
    /// The global allocator.
    pub allocator: String,
    /// The datasets' version.
    pub dataset_version: String,
    /// The PRNG behind the generated datasets.
    pub prng: String,
    /// Each measured dataset as the manifest pins it.
    pub datasets: Vec<DatasetMeta>,
    /// Each measured format and its implementation.
    pub formats: Vec<FormatMeta>,
    /// The Surp wire format version.
    pub surp_format_version: u64,
    /// The commit the harness ran from.
    pub git: Git,
    /// The regression check's settings.
    pub thresholds: Thresholds,
    /// The run compared with, if any.
    pub baseline: Option<String>,
    /// Regressions found against the baseline, as the harness wrote them.
    pub regressions: Vec<serde_json::Value>,
    /// Size changes against the baseline.
    pub size_changes: Vec<serde_json::Value>,
    /// Cells that moved past the threshold but were too noisy to judge.
    pub noisy: Vec<serde_json::Value>,
    /// Remarks of the regression check.
    pub notes: Vec<String>,
}

/// The machine a run was made on.
#[derive(Clone, Debug, Deserialize)]
pub struct Machine {
    /// The operating system.
    pub os: String,
    /// The CPU architecture.
    pub arch: String,
    /// The CPU model.
    pub cpu_model: String,
    /// Logical cores available to the harness.
    pub cores: usize,
}

/// One measured dataset.
#[derive(Clone, Debug, Deserialize)]
pub struct DatasetMeta {
    /// Its name.
    pub name: String,
    /// Its generator seed (0 for corpus documents).
    pub seed: u64,
    /// Its record count.
    pub records: u64,
    /// The size of its canonical bytes.
    pub canonical_len: u64,
    /// The sha256 of its canonical bytes, verified by the run.
    pub sha256: String,
}

/// One measured format.
#[derive(Clone, Debug, Deserialize)]
pub struct FormatMeta {
    /// The format's name.
    pub name: String,
    /// The crate implementing it.
    pub implementation: String,
    /// That crate's locked version.
    pub version: Option<String>,
}

/// The commit a run was made from.
#[derive(Clone, Debug, Deserialize)]
pub struct Git {
    /// The commit hash, if git could tell.
    pub commit: Option<String>,
    /// Whether tracked files had uncommitted changes.
    pub dirty: Option<bool>,
}

/// The regression check's settings.
#[derive(Clone, Debug, Deserialize)]
pub struct Thresholds {
    /// The format every median is divided by.
    pub reference_format: String,
    /// How much a ratio may grow before it is flagged, in percent.
    pub time_regression_pct: f64,
    /// The CV above which a flagged cell is noisy, in percent.
    pub noisy_cv_pct: f64,
}
