//! A committed benchmark run: one `docs/assets/bench/v<version>/` folder,
//! read back and checked for completeness before any page shows it.

use std::fs;
use std::path::{Path, PathBuf};

use semver::Version;
use surp_bench::{Chart, Dataset, Format, Measurement, Mode, Operation, Plan, parse_csv};

use crate::DocsError;
use crate::meta::RunMeta;
use crate::python_run::{PYTHON_DIR, PythonRun};

/// The files of a run folder that its page links to, besides the charts.
pub const RAW_FILES: [&str; 3] = ["summary.csv", "meta.json", "summary.md"];

/// One committed run.
#[derive(Clone, Debug)]
pub struct Run {
    /// The version in the folder's name.
    pub version: Version,
    /// The folder.
    pub dir: PathBuf,
    /// Its `meta.json`.
    pub meta: RunMeta,
    /// What it measured, rebuilt from `meta.json` and `summary.csv`.
    pub plan: Plan,
    /// Every row of `summary.csv`, in file order.
    pub measurements: Vec<Measurement>,
    /// The Python run of the same version, when the folder has a `python/`
    /// subfolder.
    pub python: Option<PythonRun>,
}

impl Run {
    /// The folder's name, `v<version>`, which is also the page's name.
    pub fn name(&self) -> String {
        format!("v{}", self.version)
    }

    /// The name of the page of the run's Python benchmark,
    /// `v<version>-python`.
    pub fn python_page_name(&self) -> String {
        format!("{}-python", self.name())
    }

    /// Reads and checks a run folder: `summary.csv` must hold exactly one
    /// row per format x dataset x operation, every row must be one this
    /// build knows (nothing is left off a page silently), `meta.json` must
    /// agree with it, and every chart and raw file must be there. A
    /// `python/` subfolder is read as the Python run of the same version
    /// ([`PythonRun::load`]).
    pub fn load(dir: &Path, version: Version) -> Result<Run, DocsError> {
        let bad = |reason: String| DocsError::bad_run(dir, reason);
        let csv_path = dir.join("summary.csv");
        let csv = fs::read_to_string(&csv_path).map_err(DocsError::io(&csv_path))?;
        let (measurements, skipped) =
            parse_csv(&csv).map_err(|reason| bad(format!("summary.csv: {reason}")))?;
        if let Some(row) = skipped.first() {
            return Err(bad(format!(
                "summary.csv has {} row(s) naming a format, dataset or operation this build \
                 does not know, such as `{row}`",
                skipped.len()
            )));
        }
        let meta_path = dir.join("meta.json");
        let meta_text = fs::read_to_string(&meta_path).map_err(DocsError::io(&meta_path))?;
        let meta: RunMeta =
            serde_json::from_str(&meta_text).map_err(|err| bad(format!("meta.json: {err}")))?;

        let mode = Mode::from_name(&meta.mode)
            .ok_or_else(|| bad(format!("meta.json names an unknown mode `{}`", meta.mode)))?;
        let mut formats: Vec<&'static Format> = Vec::new();
        let mut datasets: Vec<Dataset> = Vec::new();
        for m in &measurements {
            if !formats.contains(&m.format) {
                formats.push(m.format);
            }
            if !datasets.contains(&m.dataset) {
                datasets.push(m.dataset);
            }
        }
        let plan = Plan::new(mode, formats, datasets, Some(meta.iterations))
            .map_err(|err| bad(err.to_string()))?;
        let rows: Vec<_> = measurements
            .iter()
            .map(|m| (m.format.name, m.dataset, m.operation))
            .collect();
        let names: Vec<&str> = plan.formats.iter().map(|f| f.name).collect();
        check_every_cell_once(
            "summary.csv",
            &rows,
            &names,
            &plan.datasets,
            &Operation::ALL,
        )
        .map_err(bad)?;
        if let Some(m) = measurements
            .iter()
            .find(|m| m.stats.samples != meta.iterations)
        {
            return Err(bad(format!(
                "summary.csv gives {} iterations for {} {} on {}, but meta.json says {}",
                m.stats.samples, m.format.name, m.operation, m.dataset, meta.iterations
            )));
        }
        for name in RAW_FILES {
            if !dir.join(name).is_file() {
                return Err(bad(format!("{name} is missing")));
            }
        }
        for chart in Chart::ALL {
            if !dir.join("charts").join(chart.file_name()).is_file() {
                return Err(bad(format!("charts/{} is missing", chart.file_name())));
            }
        }
        let python_dir = dir.join(PYTHON_DIR);
        let python = if python_dir.is_dir() {
            Some(PythonRun::load(&python_dir, &meta)?)
        } else if python_dir.exists() {
            return Err(bad(format!("{PYTHON_DIR} is not a folder")));
        } else {
            None
        };
        Ok(Run {
            version,
            dir: dir.to_owned(),
            meta,
            plan,
            measurements,
            python,
        })
    }

    /// The measurement of one cell, if the run has it.
    pub fn cell(&self, format: &str, dataset: Dataset, op: Operation) -> Option<&Measurement> {
        self.measurements
            .iter()
            .find(|m| m.format.name == format && m.dataset == dataset && m.operation == op)
    }
}

/// Checks that a summary's rows, given as (format, dataset, operation),
/// hold every combination of `formats` x `datasets` x `operations` exactly
/// once; `file` names the summary in the error.
pub(crate) fn check_every_cell_once(
    file: &str,
    rows: &[(&str, Dataset, Operation)],
    formats: &[&str],
    datasets: &[Dataset],
    operations: &[Operation],
) -> Result<(), String> {
    let expected = formats.len() * datasets.len() * operations.len();
    if rows.len() != expected {
        return Err(format!(
            "{file} has {} rows, but {} formats x {} datasets x {} operations make {expected}",
            rows.len(),
            formats.len(),
            datasets.len(),
            operations.len()
        ));
    }
    for &f in formats {
        for &d in datasets {
            for &op in operations {
                let n = rows.iter().filter(|&&row| row == (f, d, op)).count();
                if n != 1 {
                    return Err(format!("{file} has {n} rows for {f} {op} on {d}, not one"));
                }
            }
        }
    }
    Ok(())
}

/// Every run folder under `bench_root` (normally `docs/assets/bench/`),
/// newest version first. A missing `bench_root` has no runs; a folder in it
/// whose name is not `v<semver>` is an error, so a misnamed run is never
/// silently left off the site. Plain files are ignored.
pub fn find_runs(bench_root: &Path) -> Result<Vec<Run>, DocsError> {
    let entries = match fs::read_dir(bench_root) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(DocsError::io(bench_root)(err)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(DocsError::io(bench_root))?;
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let version = entry
            .file_name()
            .to_str()
            .and_then(|name| name.strip_prefix('v'))
            .and_then(|v| Version::parse(v).ok())
            .ok_or_else(|| DocsError::NotAVersionFolder { path: path.clone() })?;
        found.push((version, path));
    }
    found.sort_by(|a, b| b.0.cmp(&a.0));
    found
        .into_iter()
        .map(|(version, path)| Run::load(&path, version))
        .collect()
}
