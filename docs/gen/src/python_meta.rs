//! `python_meta.json` as the generator reads it back: the fields the Python
//! benchmark page shows. The Python harness (`bench/python/bench_surp.py`)
//! writes the file; fields it adds later are ignored here, and a field
//! missing here is an error that names it.

use serde::Deserialize;

use crate::lang_meta::{HarnessMeta, Lang, LangMeta};
use crate::lang_run::LangRun;

/// The subfolder of a run folder that holds the Python run of the same
/// version.
pub const PYTHON_DIR: &str = "python";
/// The Python run's table, with the columns of `summary.csv`.
pub const PYTHON_SUMMARY: &str = "python_summary.csv";
/// The Python run's metadata.
pub const PYTHON_META: &str = "python_meta.json";
/// The Python run's one chart.
pub const PYTHON_CHART: &str = "python_chart.svg";
/// The Python harness (a run's page names the one its meta records).
pub const PYTHON_HARNESS: &str = "bench/python/bench_surp.py";
/// What the Python chart shows, as its image's alternative text.
pub const PYTHON_CHART_ALT: &str =
    "Python: serialized size, median dumps time and median loads time per format and dataset";

/// One committed Python run.
pub type PythonRun = LangRun<PythonMeta>;

/// The parts of a Python run's `python_meta.json` that its page shows.
#[derive(Clone, Debug, Deserialize)]
pub struct PythonMeta {
    /// The fields every language harness writes.
    #[serde(flatten)]
    pub common: HarnessMeta,
    /// Untimed warm-up runs per format and operation.
    pub warmup_iterations: usize,
    /// The interpreter.
    pub python: Interpreter,
    /// The version of matplotlib, which drew the chart.
    pub matplotlib: String,
}

impl LangMeta for PythonMeta {
    const LANG: Lang = Lang {
        name: "Python",
        dir: PYTHON_DIR,
        summary: PYTHON_SUMMARY,
        meta: PYTHON_META,
        chart: PYTHON_CHART,
        harness: PYTHON_HARNESS,
        subject: "the `surp` Python module",
        chart_alt: PYTHON_CHART_ALT,
    };

    fn common(&self) -> &HarnessMeta {
        &self.common
    }
}

/// The Python interpreter a run used.
#[derive(Clone, Debug, Deserialize)]
pub struct Interpreter {
    /// Such as "3.11.2".
    pub version: String,
    /// Such as "CPython".
    pub implementation: String,
    /// The C compiler that built the interpreter.
    pub compiler: String,
}
