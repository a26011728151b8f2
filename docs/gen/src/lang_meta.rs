//! The metadata every harness in another language writes beside its
//! summary (the Python harness's `python_meta.json`, the JavaScript
//! harness's `meta.json`), as the generator reads it back: the fields those
//! runs share. Each language's own fields are in its module
//! ([`crate::python_meta`], [`crate::js_meta`]); fields a harness adds later
//! are ignored, and a field missing here is an error that names it.

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::meta::Git;

/// The fields of a language harness's metadata that every such run has.
#[derive(Clone, Debug, Deserialize)]
pub struct HarnessMeta {
    /// The harness, such as "bench/python/bench_surp.py".
    pub harness: String,
    /// "ci" or "full", the mode of the export the run measured.
    pub mode: String,
    /// Timed iterations per cell.
    pub iterations: usize,
    /// Each measured format, by its name in the run's summary: the package
    /// implementing it and how the harness calls it.
    pub packages: BTreeMap<String, Package>,
    /// The machine.
    pub machine: HarnessMachine,
    /// The datasets' version.
    pub dataset_version: String,
    /// The Surp wire format version.
    pub surp_format_version: u64,
    /// Each measured dataset, with the sha256 the export pinned.
    pub datasets: Vec<HarnessDataset>,
    /// The commit the harness ran from.
    pub git: Git,
    /// How the numbers were taken, one sentence per aspect.
    pub methodology: BTreeMap<String, String>,
}

/// One measured format's implementation.
#[derive(Clone, Debug, Deserialize)]
pub struct Package {
    /// The package (or standard library module) implementing the format.
    pub package: String,
    /// Its installed version.
    pub version: String,
    /// How the harness calls it to encode and decode.
    pub call: String,
    /// How bytes travel: "native", or "base64 text" for formats without a
    /// bytes type.
    pub bytes: String,
}

/// The machine a language harness ran on.
#[derive(Clone, Debug, Deserialize)]
pub struct HarnessMachine {
    /// The operating system.
    pub os: String,
    /// The kernel release.
    pub release: String,
    /// The CPU architecture.
    pub arch: String,
    /// The CPU model.
    pub cpu_model: String,
    /// Logical cores, as the runtime counts them (`None` when it cannot
    /// tell).
    pub cores: Option<usize>,
}

/// One exported dataset.
#[derive(Clone, Debug, Deserialize)]
pub struct HarnessDataset {
    /// Its name.
    pub name: String,
    /// The sha256 of its canonical bytes.
    pub sha256: String,
}

/// A language whose harness measures the `surp` binding against that
/// language's serializers: where its run sits in a run folder and what its
/// pages call it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lang {
    /// Its name, as the table of contents and the index link it: "Python".
    pub name: &'static str,
    /// The subfolder of a run folder that holds its run; its page is
    /// `v<version>-<dir>.md`.
    pub dir: &'static str,
    /// The run's table, with the columns of `summary.csv`.
    pub summary: &'static str,
    /// The run's metadata.
    pub meta: &'static str,
    /// The run's one chart.
    pub chart: &'static str,
    /// The harness, from the repository's root.
    pub harness: &'static str,
    /// What it measures, as the subject of a sentence: "the `surp` Python
    /// module".
    pub subject: &'static str,
    /// What the chart shows, as its image's alternative text.
    pub chart_alt: &'static str,
}

/// A language harness's metadata file: the shared fields, and the language
/// it belongs to.
pub trait LangMeta: DeserializeOwned + Clone + Debug {
    /// The language.
    const LANG: Lang;

    /// The fields every language harness writes.
    fn common(&self) -> &HarnessMeta;
}
