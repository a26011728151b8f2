//! The generated part of the book as a whole: every file the generator
//! owns, computed in memory, then either written or compared with what is
//! on disk (the staleness check CI runs).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::dedup::{dedup_fragment, dedup_shapes_fragment, dedup_zstd_fragment};
use crate::index::{index_page, with_run_entries};
use crate::js_meta::JsMeta;
use crate::js_page::js_page;
use crate::lang_meta::LangMeta;
use crate::page::run_page;
use crate::python_meta::PythonMeta;
use crate::python_page::python_page;
use crate::run::find_runs;
use crate::{DocsError, Run};

/// The folder, relative to `docs/`, that the generator owns entirely: any
/// file in it that the generator does not produce is stale.
pub const GENERATED_DIR: &str = "src/bench";
/// The book's table of contents, relative to `docs/`; the generator owns
/// only the lines between its markers.
pub const SUMMARY: &str = "src/SUMMARY.md";
/// Where the runs are, relative to `docs/`.
pub const BENCH_ROOT: &str = "assets/bench";

/// Every generated file, by path relative to `docs/`, with its contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The runs found, newest first, by folder name.
    pub runs: Vec<String>,
    /// Path relative to `docs/` to contents.
    pub files: BTreeMap<PathBuf, String>,
}

/// A difference between the generated files and the ones on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stale {
    /// The file should exist but does not.
    Missing(PathBuf),
    /// The file exists with other contents.
    Differs(PathBuf),
    /// A file in the generated folder that the generator does not produce.
    Extra(PathBuf),
}

impl std::fmt::Display for Stale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stale::Missing(p) => write!(f, "docs/{} is missing", p.display()),
            Stale::Differs(p) => write!(
                f,
                "docs/{} differs from what the committed runs generate",
                p.display()
            ),
            Stale::Extra(p) => write!(
                f,
                "docs/{} is not generated from any committed run",
                p.display()
            ),
        }
    }
}

impl Site {
    /// Reads every run under `docs/assets/bench/` and the current
    /// `SUMMARY.md`, and computes every generated file.
    pub fn generate(docs: &Path) -> Result<Site, DocsError> {
        let runs = find_runs(&docs.join(BENCH_ROOT))?;
        let summary_path = docs.join(SUMMARY);
        let summary = fs::read_to_string(&summary_path).map_err(DocsError::io(&summary_path))?;
        let summary = with_run_entries(&summary, &runs)
            .ok_or(DocsError::MissingSummaryMarkers { path: summary_path })?;

        let dir = Path::new(GENERATED_DIR);
        let mut files = BTreeMap::new();
        files.insert(PathBuf::from(SUMMARY), summary);
        files.insert(dir.join("index.md"), index_page(&runs));
        files.insert(dir.join("dedup-measured.md"), dedup_fragment(&runs));
        files.insert(dir.join("dedup-zstd.md"), dedup_zstd_fragment(&runs));
        files.insert(dir.join("dedup-shapes.md"), dedup_shapes_fragment(&runs));
        for run in &runs {
            files.insert(dir.join(format!("{}.md", run.name())), run_page(run));
            for other in run.other_suites() {
                files.insert(
                    dir.join(format!("{}.md", other.page_name())),
                    run_page(other),
                );
            }
            if let Some(py) = &run.python {
                files.insert(
                    dir.join(format!("{}.md", run.lang_page_name(&PythonMeta::LANG))),
                    python_page(run, py),
                );
            }
            if let Some(js) = &run.js {
                files.insert(
                    dir.join(format!("{}.md", run.lang_page_name(&JsMeta::LANG))),
                    js_page(run, js),
                );
            }
        }
        Ok(Site {
            runs: runs.iter().map(Run::name).collect(),
            files,
        })
    }

    /// How the files on disk differ from the generated ones; empty when
    /// they are up to date.
    pub fn stale(&self, docs: &Path) -> Result<Vec<Stale>, DocsError> {
        let mut stale = Vec::new();
        for (path, text) in &self.files {
            match fs::read_to_string(docs.join(path)) {
                Ok(on_disk) if on_disk == *text => {}
                Ok(_) => stale.push(Stale::Differs(path.clone())),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                    stale.push(Stale::Missing(path.clone()));
                }
                Err(err) => return Err(DocsError::io(docs.join(path))(err)),
            }
        }
        for path in self.extra_files(docs)? {
            stale.push(Stale::Extra(path));
        }
        Ok(stale)
    }

    /// Writes every generated file that differs from the one on disk and
    /// removes the extra ones; returns what it changed.
    pub fn write(&self, docs: &Path) -> Result<Vec<Stale>, DocsError> {
        let stale = self.stale(docs)?;
        for change in &stale {
            match change {
                Stale::Missing(path) | Stale::Differs(path) => {
                    let full = docs.join(path);
                    if let Some(parent) = full.parent() {
                        fs::create_dir_all(parent).map_err(DocsError::io(parent))?;
                    }
                    fs::write(&full, &self.files[path]).map_err(DocsError::io(&full))?;
                }
                Stale::Extra(path) => {
                    let full = docs.join(path);
                    fs::remove_file(&full).map_err(DocsError::io(&full))?;
                }
            }
        }
        Ok(stale)
    }

    /// Files in the generated folder (relative to `docs/`) that are not
    /// generated.
    fn extra_files(&self, docs: &Path) -> Result<Vec<PathBuf>, DocsError> {
        let dir = docs.join(GENERATED_DIR);
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(err) => return Err(DocsError::io(&dir)(err)),
        };
        let mut extra = Vec::new();
        for entry in entries {
            let entry = entry.map_err(DocsError::io(&dir))?;
            let path = Path::new(GENERATED_DIR).join(entry.file_name());
            if !self.files.contains_key(&path) {
                extra.push(path);
            }
        }
        extra.sort();
        Ok(extra)
    }
}
