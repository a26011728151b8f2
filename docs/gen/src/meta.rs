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
    /// "value", "typed" or "messages"; runs made before the typed suite
    /// have none and are value-suite runs.
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
    /// How each workload's stream was cut (messages suite only).
    #[serde(default)]
    pub workloads: Vec<WorkloadMeta>,
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
    /// Regressions found against the baseline.
    pub regressions: Vec<Regression>,
    /// Size changes against the baseline.
    pub size_changes: Vec<SizeChange>,
    /// Cells that moved past the threshold but were too noisy to judge.
    pub noisy: Vec<NoisyCell>,
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

/// How one workload's stream was cut (`surp_bench`'s `WorkloadMeta`).
#[derive(Clone, Debug, Deserialize)]
pub struct WorkloadMeta {
    /// The workload's name.
    pub name: String,
    /// The dataset its records come from.
    pub dataset: String,
    /// What one message is.
    pub message: String,
    /// The records the dataset has at the run's scale.
    pub records: u64,
    /// The first records, which train and are never sent.
    pub training_records: u64,
    /// The records that are sent, each at least once.
    pub distinct_messages: u64,
    /// The messages in a stream.
    pub messages: u64,
    /// How many times each sent record is sent, on average.
    pub sends_per_record: f64,
}

impl WorkloadMeta {
    /// Whether the stream sends some records more than once.
    pub fn cycles(&self) -> bool {
        self.messages > self.distinct_messages
    }
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

/// Something that got worse against the baseline (`surp_bench::Regression`).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Regression {
    /// One of the project's formats changed size without a new format
    /// version.
    Size {
        /// The format's name.
        format: String,
        /// The dataset's name.
        dataset: String,
        /// The size in the baseline, in bytes.
        baseline_bytes: u64,
        /// The size in this run, in bytes.
        current_bytes: u64,
        /// This run's size minus the baseline's.
        delta_bytes: i64,
    },
    /// A cell's time grew relative to the reference format's.
    Time {
        /// The format's name.
        format: String,
        /// The dataset's name.
        dataset: String,
        /// The operation.
        op: String,
        /// Median over the reference's median, in the baseline.
        baseline_ratio: f64,
        /// Median over the reference's median, in this run.
        current_ratio: f64,
        /// How much the ratio grew, in percent.
        change_pct: f64,
    },
}

/// A size that differs from the baseline's (`surp_bench::SizeChange`).
#[derive(Clone, Debug, Deserialize)]
pub struct SizeChange {
    /// The format's name.
    pub format: String,
    /// The dataset's name.
    pub dataset: String,
    /// The size in the baseline, in bytes.
    pub baseline_bytes: u64,
    /// The size in this run, in bytes.
    pub current_bytes: u64,
    /// This run's size minus the baseline's.
    pub delta_bytes: i64,
    /// The change as a percentage of the baseline's size.
    pub delta_pct: f64,
    /// Whether the change counts as a regression.
    pub regression: bool,
}

/// A time ratio that grew past the threshold in a cell too noisy to judge
/// (`surp_bench::NoisyCell`).
#[derive(Clone, Debug, Deserialize)]
pub struct NoisyCell {
    /// The format's name.
    pub format: String,
    /// The dataset's name.
    pub dataset: String,
    /// The operation.
    pub op: String,
    /// Median over the reference's median, in the baseline.
    pub baseline_ratio: f64,
    /// Median over the reference's median, in this run.
    pub current_ratio: f64,
    /// How much the ratio grew, in percent.
    pub change_pct: f64,
    /// The highest CV of the cells behind the two ratios, in percent.
    pub cv_pct: f64,
}
