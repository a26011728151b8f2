//! A committed benchmark run: one `docs/assets/bench/v<version>/` folder,
//! read back and checked for completeness before any page shows it.

use std::fs;
use std::path::{Path, PathBuf};

use semver::Version;
use surp_bench::{
    BenchDataset, Chart, Format, Measurement, Mode, Operation, Plan, Suite, parse_csv,
};

use crate::DocsError;
use crate::js_meta::{JsMeta, JsRun};
use crate::lang_meta::{Lang, LangMeta};
use crate::lang_page::peers;
use crate::meta::RunMeta;
use crate::python_meta::{PythonMeta, PythonRun};

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
    /// The JavaScript run of the same version, when the folder has a `js/`
    /// subfolder.
    pub js: Option<JsRun>,
    /// The typed suite of the same run, when the folder has a `typed/`
    /// subfolder.
    pub typed: Option<Box<Run>>,
    /// The messages suite of the same run, when the folder has a
    /// `messages/` subfolder.
    pub messages: Option<Box<Run>>,
}

/// The page of a language harness's run beside a Rust run's page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangLink {
    /// The language.
    pub lang: Lang,
    /// The page's name, `v<version>-<language's folder>`.
    pub page: String,
    /// The formats it measures other than surp's, as a sentence fragment
    /// naming packages.
    pub peers: String,
}

impl Run {
    /// The folder's name, `v<version>`, which is also the page's name.
    pub fn name(&self) -> String {
        format!("v{}", self.version)
    }

    /// The suite the run measured.
    pub fn suite(&self) -> Suite {
        self.plan.suite
    }

    /// The name of this suite's page: `v<version>` for the value suite,
    /// `v<version>-<suite>` for the others (`v0.2.0-typed`).
    pub fn page_name(&self) -> String {
        match self.suite() {
            Suite::Value => self.name(),
            suite => format!("{}-{suite}", self.name()),
        }
    }

    /// The suite's folder under `docs/assets/bench/`.
    pub fn assets_dir(&self) -> String {
        match self.suite().subfolder() {
            "" => self.name(),
            folder => format!("{}/{folder}", self.name()),
        }
    }

    /// The runs of the other suites beside this value-suite run, in the
    /// order a run measures them.
    pub fn other_suites(&self) -> impl Iterator<Item = &Run> {
        self.typed.iter().chain(&self.messages).map(|run| &**run)
    }

    /// The charts the run has: its suite's, less the compressed-size chart
    /// in runs made before sizes were compressed (the compressed pipelines,
    /// which have no `zstd_bytes` and are in no chart, do not count).
    pub fn charts(&self) -> Vec<Chart> {
        let compressed = self
            .measurements
            .iter()
            .filter(|m| !m.format.is_compressed())
            .all(|m| m.zstd_bytes.is_some());
        self.suite()
            .charts()
            .into_iter()
            .filter(|c| compressed || *c != Chart::ZstdSize)
            .collect()
    }

    /// The name of the page of the run's benchmark in `lang`,
    /// `v<version>-<language's folder>`: `v0.1.0-python`.
    pub fn lang_page_name(&self, lang: &Lang) -> String {
        format!("{}-{}", self.name(), lang.dir)
    }

    /// The pages of the language harnesses' runs beside this one, Python
    /// first.
    pub fn lang_links(&self) -> Vec<LangLink> {
        let mut links = Vec::new();
        if let Some(py) = &self.python {
            links.push(LangLink {
                lang: PythonMeta::LANG,
                page: self.lang_page_name(&PythonMeta::LANG),
                peers: peers(py),
            });
        }
        if let Some(js) = &self.js {
            links.push(LangLink {
                lang: JsMeta::LANG,
                page: self.lang_page_name(&JsMeta::LANG),
                peers: peers(js),
            });
        }
        links
    }

    /// Reads and checks a run folder: `summary.csv` must hold exactly one
    /// row per format x dataset x operation, every row must be one this
    /// build knows (nothing is left off a page silently), `meta.json` must
    /// agree with it, and every chart and raw file must be there. A
    /// `python/` subfolder is read as the Python run of the same version,
    /// a `js/` subfolder as the JavaScript run ([`crate::LangRun::load`]).
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
        let suite = match meta.suite.as_deref() {
            None => Suite::Value,
            Some(name) => Suite::from_name(name)
                .ok_or_else(|| bad(format!("meta.json names an unknown suite `{name}`")))?,
        };
        let mut formats: Vec<&'static Format> = Vec::new();
        let mut datasets: Vec<BenchDataset> = Vec::new();
        for m in &measurements {
            if !formats.contains(&m.format) {
                formats.push(m.format);
            }
            if !datasets.contains(&m.dataset) {
                datasets.push(m.dataset);
            }
        }
        let plan = Plan::new(mode, suite, formats, datasets, Some(meta.iterations))
            .map_err(|err| bad(err.to_string()))?;
        let rows: Vec<_> = measurements
            .iter()
            .map(|m| (m.format.name, m.dataset, m.operation))
            .collect();
        let names: Vec<&str> = plan.formats.iter().map(|f| f.name).collect();
        // Borrowed decoding is optional per cell (not every format can
        // borrow, not every dataset has strings); every other operation of
        // the suite must be there for every format and dataset it measures
        // (in the messages suite, the formats that need the schema send
        // only the typed workloads).
        let required: Vec<Operation> = suite
            .operations()
            .iter()
            .copied()
            .filter(|&op| op != Operation::DecodeBorrowed)
            .collect();
        let (optional, required_rows): (Vec<_>, Vec<_>) = rows
            .iter()
            .partition(|(_, _, op)| *op == Operation::DecodeBorrowed);
        let measures =
            |name: &str, d: BenchDataset| Format::from_name(name).is_some_and(|f| f.measures(d));
        check_every_cell_once(
            "summary.csv",
            &required_rows,
            &names,
            &plan.datasets,
            &required,
            measures,
        )
        .map_err(bad)?;
        for (i, row) in optional.iter().enumerate() {
            if optional[..i].contains(row) {
                return Err(bad(format!(
                    "summary.csv has more than one row for {} {} on {}",
                    row.0, row.2, row.1
                )));
            }
        }
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
        let (python, js) = match suite {
            Suite::Typed | Suite::Messages => (None, None),
            Suite::Value => (
                PythonRun::load_beside(dir, &meta)?,
                JsRun::load_beside(dir, &meta)?,
            ),
        };
        // The other suites of a run sit in their folders of the value
        // suite's.
        let beside = |other: Suite| -> Result<Option<Box<Run>>, DocsError> {
            let other_dir = dir.join(other.subfolder());
            if suite != Suite::Value || !other_dir.is_dir() {
                return Ok(None);
            }
            let run = Run::load(&other_dir, version.clone())?;
            if run.suite() != other {
                return Err(bad(format!(
                    "{}/meta.json is not a {other}-suite run",
                    other.subfolder()
                )));
            }
            Ok(Some(Box::new(run)))
        };
        let typed = beside(Suite::Typed)?;
        let messages = beside(Suite::Messages)?;
        let run = Run {
            version,
            dir: dir.to_owned(),
            meta,
            plan,
            measurements,
            python,
            js,
            typed,
            messages,
        };
        for chart in run.charts() {
            if !dir.join("charts").join(chart.file_name()).is_file() {
                return Err(bad(format!("charts/{} is missing", chart.file_name())));
            }
        }
        Ok(run)
    }

    /// The measurement of one cell, if the run has it.
    pub fn cell(&self, format: &str, dataset: BenchDataset, op: Operation) -> Option<&Measurement> {
        self.measurements
            .iter()
            .find(|m| m.format.name == format && m.dataset == dataset && m.operation == op)
    }
}

/// Checks that a summary's rows, given as (format, dataset, operation),
/// hold every combination of `formats` x `datasets` x `operations` for
/// which `measures(format, dataset)` exactly once; `file` names the summary
/// in the error.
pub(crate) fn check_every_cell_once<D: Copy + PartialEq + std::fmt::Display>(
    file: &str,
    rows: &[(&str, D, Operation)],
    formats: &[&str],
    datasets: &[D],
    operations: &[Operation],
    measures: impl Fn(&str, D) -> bool,
) -> Result<(), String> {
    let pairs = formats
        .iter()
        .map(|&f| datasets.iter().filter(|&&d| measures(f, d)).count())
        .sum::<usize>();
    let expected = pairs * operations.len();
    if rows.len() != expected {
        let all = formats.len() * datasets.len();
        let pairs = if pairs == all {
            format!("{} formats x {} datasets", formats.len(), datasets.len())
        } else {
            format!("{pairs} pairs of a format and a dataset it measures")
        };
        return Err(format!(
            "{file} has {} rows, but {pairs} x {} operations make {expected}",
            rows.len(),
            operations.len()
        ));
    }
    for &f in formats {
        for &d in datasets.iter().filter(|&&d| measures(f, d)) {
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
