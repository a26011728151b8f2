//! A committed run of a harness in another language (Python, JavaScript):
//! its subfolder inside a run folder, read back and checked for
//! completeness, and against the Rust run beside it, before any page shows
//! it.

use std::fs;
use std::path::{Path, PathBuf};

use surp_bench::{Dataset, Mode, Operation, Stats, csv_rows};

use crate::DocsError;
use crate::lang_meta::{HarnessMeta, LangMeta};
use crate::meta::RunMeta;
use crate::run::check_every_cell_once;

/// One committed run of a language harness, whose metadata is `M`.
#[derive(Clone, Debug)]
pub struct LangRun<M> {
    /// The folder, `<run folder>/<language's folder>`.
    pub dir: PathBuf,
    /// Its metadata file.
    pub meta: M,
    /// The mode the metadata names.
    pub mode: Mode,
    /// The formats, by their names in the summary, in the order of their
    /// first row.
    pub formats: Vec<String>,
    /// The datasets, in the order of their first row.
    pub datasets: Vec<Dataset>,
    /// The operations, in the order of their first row.
    pub operations: Vec<Operation>,
    /// Every row of the summary, in file order.
    pub measurements: Vec<LangMeasurement>,
}

/// One row of a language harness's summary: one format, dataset and
/// operation.
#[derive(Clone, Debug, PartialEq)]
pub struct LangMeasurement {
    /// The format's name, a key of the meta's `packages`.
    pub format: String,
    /// The dataset.
    pub dataset: Dataset,
    /// `encode` or `decode`.
    pub operation: Operation,
    /// The statistics of the timed samples.
    pub stats: Stats,
    /// Throughput as the harness wrote it, in MB/s.
    pub mb_per_s: f64,
    /// The size of the format's encoding of the dataset, in bytes.
    pub size_bytes: u64,
}

impl<M: LangMeta> LangRun<M> {
    /// The fields of the metadata that every language harness writes.
    pub fn common(&self) -> &HarnessMeta {
        self.meta.common()
    }

    /// Reads and checks the run in `dir`, which sits in the run folder
    /// whose `meta.json` is `rust`: the summary must hold exactly one row
    /// per format x dataset x operation, every format must be described in
    /// the metadata, which must agree with it, the chart must be there, and
    /// the run must have measured the same data (mode, dataset version and
    /// each dataset's sha256) as the Rust run.
    pub fn load(dir: &Path, rust: &RunMeta) -> Result<LangRun<M>, DocsError> {
        let lang = M::LANG;
        let (summary, meta_file) = (lang.summary, lang.meta);
        let bad = |reason: String| DocsError::bad_run(dir, reason);
        let meta_path = dir.join(meta_file);
        let meta_text = fs::read_to_string(&meta_path).map_err(DocsError::io(&meta_path))?;
        let meta: M =
            serde_json::from_str(&meta_text).map_err(|err| bad(format!("{meta_file}: {err}")))?;
        let common = meta.common();
        let csv_path = dir.join(summary);
        let csv = fs::read_to_string(&csv_path).map_err(DocsError::io(&csv_path))?;
        let measurements = parse_rows(&csv, common, meta_file)
            .map_err(|reason| bad(format!("{summary}: {reason}")))?;
        if measurements.is_empty() {
            return Err(bad(format!("{summary} has no rows")));
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
        check_every_cell_once(summary, &rows, &names, &datasets, &operations, |_, _| true)
            .map_err(bad)?;
        if let Some(extra) = common.packages.keys().find(|name| !formats.contains(name)) {
            return Err(bad(format!(
                "{meta_file} describes the format `{extra}`, which {summary} has no row for"
            )));
        }
        if let Some(m) = measurements
            .iter()
            .find(|m| m.stats.samples != common.iterations)
        {
            return Err(bad(format!(
                "{summary} gives {} iterations for {} {} on {}, but {meta_file} says {}",
                m.stats.samples, m.format, m.operation, m.dataset, common.iterations
            )));
        }
        let mode = Mode::from_name(&common.mode).ok_or_else(|| {
            bad(format!(
                "{meta_file} names an unknown mode `{}`",
                common.mode
            ))
        })?;

        // Beside the Rust run, the run must have measured the same data, or
        // the two pages would compare different things.
        if common.mode != rust.mode {
            return Err(bad(format!(
                "{meta_file} says mode {}, but the Rust run's meta.json says {}",
                common.mode, rust.mode
            )));
        }
        if common.dataset_version != rust.dataset_version {
            return Err(bad(format!(
                "{meta_file} says dataset version {}, but the Rust run's meta.json says {}",
                common.dataset_version, rust.dataset_version
            )));
        }
        for &d in &datasets {
            let exported = common
                .datasets
                .iter()
                .find(|p| p.name == d.name())
                .ok_or_else(|| bad(format!("{meta_file} does not list the dataset {d}")))?;
            if let Some(rust) = rust.datasets.iter().find(|r| r.name == d.name())
                && rust.sha256 != exported.sha256
            {
                return Err(bad(format!(
                    "{meta_file} gives the dataset {d} the sha256 {}, but the Rust run's \
                     meta.json gives {}: the two runs measured different data",
                    exported.sha256, rust.sha256
                )));
            }
        }
        if !dir.join(lang.chart).is_file() {
            return Err(bad(format!("{} is missing", lang.chart)));
        }
        Ok(LangRun {
            dir: dir.to_owned(),
            meta,
            mode,
            formats,
            datasets,
            operations,
            measurements,
        })
    }

    /// The run in the language's subfolder of the run folder `run_dir`,
    /// whose `meta.json` is `rust`: `None` when there is no such subfolder.
    pub(crate) fn load_beside(
        run_dir: &Path,
        rust: &RunMeta,
    ) -> Result<Option<LangRun<M>>, DocsError> {
        let dir = run_dir.join(M::LANG.dir);
        if dir.is_dir() {
            LangRun::load(&dir, rust).map(Some)
        } else if dir.exists() {
            Err(DocsError::bad_run(
                run_dir,
                format!("{} is not a folder", M::LANG.dir),
            ))
        } else {
            Ok(None)
        }
    }

    /// The measurement of one cell, if the run has it.
    pub fn cell(&self, format: &str, dataset: Dataset, op: Operation) -> Option<&LangMeasurement> {
        self.measurements
            .iter()
            .find(|m| m.format == format && m.dataset == dataset && m.operation == op)
    }

    /// Whether the run measured the format called `name`.
    pub fn has(&self, name: &str) -> bool {
        self.formats.iter().any(|f| f == name)
    }

    /// Whether the run measured every format of `names`.
    pub fn has_all(&self, names: &[&str]) -> bool {
        names.iter().all(|name| self.has(name))
    }
}

/// The rows of a language harness's summary. Unlike a Rust run's
/// `summary.csv`, a row naming something unknown is an error: every format
/// must be one that the metadata (`meta_file`, named in messages) describes,
/// and every dataset and operation one this build knows.
fn parse_rows(
    text: &str,
    meta: &HarnessMeta,
    meta_file: &str,
) -> Result<Vec<LangMeasurement>, String> {
    let mut rows = Vec::new();
    for row in csv_rows(text)? {
        let line = row.line;
        let format = row.format;
        if !meta.packages.contains_key(format) {
            return Err(format!(
                "line {line} names the format `{format}`, which {meta_file} does not describe"
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
        rows.push(LangMeasurement {
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
