//! A committed run of the Python benchmark: the `python/` folder inside a
//! run folder, read back and checked for completeness, and against the Rust
//! run beside it, before any page shows it.

use std::fs;
use std::path::{Path, PathBuf};

use surp_bench::{Dataset, Mode, Operation, Stats, csv_rows};

use crate::DocsError;
use crate::meta::RunMeta;
use crate::python_meta::PythonMeta;
use crate::run::check_every_cell_once;

/// The subfolder of a run folder that holds the Python run of the same
/// version.
pub const PYTHON_DIR: &str = "python";
/// The Python run's table, with the columns of `summary.csv`.
pub const PYTHON_SUMMARY: &str = "python_summary.csv";
/// The Python run's metadata.
pub const PYTHON_META: &str = "python_meta.json";
/// The Python run's one chart.
pub const PYTHON_CHART: &str = "python_chart.svg";

/// One committed Python run.
#[derive(Clone, Debug)]
pub struct PythonRun {
    /// The folder, `<run folder>/python`.
    pub dir: PathBuf,
    /// Its `python_meta.json`.
    pub meta: PythonMeta,
    /// The mode `python_meta.json` names.
    pub mode: Mode,
    /// The formats, by their names in `python_summary.csv`, in the order of
    /// their first row.
    pub formats: Vec<String>,
    /// The datasets, in the order of their first row.
    pub datasets: Vec<Dataset>,
    /// The operations, in the order of their first row.
    pub operations: Vec<Operation>,
    /// Every row of `python_summary.csv`, in file order.
    pub measurements: Vec<PythonMeasurement>,
}

/// One row of `python_summary.csv`: one format, dataset and operation.
#[derive(Clone, Debug, PartialEq)]
pub struct PythonMeasurement {
    /// The format's name, a key of the meta's `packages`.
    pub format: String,
    /// The dataset.
    pub dataset: Dataset,
    /// `encode` (dumps) or `decode` (loads).
    pub operation: Operation,
    /// The statistics of the timed samples.
    pub stats: Stats,
    /// Throughput as the harness wrote it, in MB/s.
    pub mb_per_s: f64,
    /// The size of the format's encoding of the dataset, in bytes.
    pub size_bytes: u64,
}

impl PythonRun {
    /// Reads and checks the Python run in `dir`, which sits in the run
    /// folder whose `meta.json` is `rust`: `python_summary.csv` must hold
    /// exactly one row per format x dataset x operation, every format must
    /// be described in `python_meta.json`, which must agree with it, the
    /// chart must be there, and the run must have measured the same data
    /// (mode, dataset version and each dataset's sha256) as the Rust run.
    pub fn load(dir: &Path, rust: &RunMeta) -> Result<PythonRun, DocsError> {
        let bad = |reason: String| DocsError::bad_run(dir, reason);
        let meta_path = dir.join(PYTHON_META);
        let meta_text = fs::read_to_string(&meta_path).map_err(DocsError::io(&meta_path))?;
        let meta: PythonMeta =
            serde_json::from_str(&meta_text).map_err(|err| bad(format!("{PYTHON_META}: {err}")))?;
        let csv_path = dir.join(PYTHON_SUMMARY);
        let csv = fs::read_to_string(&csv_path).map_err(DocsError::io(&csv_path))?;
        let measurements =
            parse_rows(&csv, &meta).map_err(|reason| bad(format!("{PYTHON_SUMMARY}: {reason}")))?;
        if measurements.is_empty() {
            return Err(bad(format!("{PYTHON_SUMMARY} has no rows")));
        }

        let mut formats: Vec<String> = Vec::new();
        let mut datasets: Vec<Dataset> = Vec::new();
        let mut operations: Vec<Operation> = Vec::new();
        for m in &measurements {
            if !formats.contains(&m.format) {
                formats.push(m.format.clone());
            }
            if !datasets.contains(&m.dataset) {
                datasets.push(m.dataset);
            }
            if !operations.contains(&m.operation) {
                operations.push(m.operation);
            }
        }
        let rows: Vec<_> = measurements
            .iter()
            .map(|m| (m.format.as_str(), m.dataset, m.operation))
            .collect();
        let names: Vec<&str> = formats.iter().map(String::as_str).collect();
        check_every_cell_once(PYTHON_SUMMARY, &rows, &names, &datasets, &operations)
            .map_err(bad)?;
        if let Some(extra) = meta.packages.keys().find(|name| !formats.contains(name)) {
            return Err(bad(format!(
                "{PYTHON_META} describes the format `{extra}`, which {PYTHON_SUMMARY} has no \
                 row for"
            )));
        }
        if let Some(m) = measurements
            .iter()
            .find(|m| m.stats.samples != meta.iterations)
        {
            return Err(bad(format!(
                "{PYTHON_SUMMARY} gives {} iterations for {} {} on {}, but {PYTHON_META} says {}",
                m.stats.samples, m.format, m.operation, m.dataset, meta.iterations
            )));
        }
        let mode = Mode::from_name(&meta.mode).ok_or_else(|| {
            bad(format!(
                "{PYTHON_META} names an unknown mode `{}`",
                meta.mode
            ))
        })?;

        // Beside the Rust run, the Python run must have measured the same
        // data, or the two pages would compare different things.
        if meta.mode != rust.mode {
            return Err(bad(format!(
                "{PYTHON_META} says mode {}, but the Rust run's meta.json says {}",
                meta.mode, rust.mode
            )));
        }
        if meta.dataset_version != rust.dataset_version {
            return Err(bad(format!(
                "{PYTHON_META} says dataset version {}, but the Rust run's meta.json says {}",
                meta.dataset_version, rust.dataset_version
            )));
        }
        for &d in &datasets {
            let python = meta
                .datasets
                .iter()
                .find(|p| p.name == d.name())
                .ok_or_else(|| bad(format!("{PYTHON_META} does not list the dataset {d}")))?;
            if let Some(rust) = rust.datasets.iter().find(|r| r.name == d.name())
                && rust.sha256 != python.sha256
            {
                return Err(bad(format!(
                    "{PYTHON_META} gives the dataset {d} the sha256 {}, but the Rust run's \
                     meta.json gives {}: the two runs measured different data",
                    python.sha256, rust.sha256
                )));
            }
        }
        if !dir.join(PYTHON_CHART).is_file() {
            return Err(bad(format!("{PYTHON_CHART} is missing")));
        }
        Ok(PythonRun {
            dir: dir.to_owned(),
            meta,
            mode,
            formats,
            datasets,
            operations,
            measurements,
        })
    }

    /// The measurement of one cell, if the run has it.
    pub fn cell(
        &self,
        format: &str,
        dataset: Dataset,
        op: Operation,
    ) -> Option<&PythonMeasurement> {
        self.measurements
            .iter()
            .find(|m| m.format == format && m.dataset == dataset && m.operation == op)
    }
}

/// The rows of `python_summary.csv`. Unlike a Rust run's `summary.csv`, a
/// row naming something unknown is an error: every format must be one that
/// `python_meta.json` describes, and every dataset and operation one this
/// build knows.
fn parse_rows(text: &str, meta: &PythonMeta) -> Result<Vec<PythonMeasurement>, String> {
    let mut rows = Vec::new();
    for row in csv_rows(text)? {
        let line = row.line;
        let format = row.format;
        if !meta.packages.contains_key(format) {
            return Err(format!(
                "line {line} names the format `{format}`, which {PYTHON_META} does not describe"
            ));
        }
        let dataset = Dataset::from_name(row.dataset).ok_or_else(|| {
            format!(
                "line {line} names the dataset `{}`, unknown here",
                row.dataset
            )
        })?;
        let operation = Operation::from_name(row.op)
            .ok_or_else(|| format!("line {line} names the operation `{}`, unknown here", row.op))?;
        rows.push(PythonMeasurement {
            format: format.to_owned(),
            dataset,
            operation,
            stats: row.stats,
            mb_per_s: row.mb_per_s,
            size_bytes: row.size_bytes,
        });
    }
    Ok(rows)
}
