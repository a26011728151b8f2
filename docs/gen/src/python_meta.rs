//! `python_meta.json` as the generator reads it back: the fields the Python
//! benchmark page shows. The Python harness (`bench/python/bench_surp.py`)
//! writes the file; fields it adds later are ignored here, and a field
//! missing here is an error that names it.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::meta::Git;

/// The parts of a Python run's `python_meta.json` that its page shows.
#[derive(Clone, Debug, Deserialize)]
pub struct PythonMeta {
    /// The harness, such as "bench/python/bench_surp.py".
    pub harness: String,
    /// "ci" or "full", the mode of the export the run measured.
    pub mode: String,
    /// Timed iterations per cell.
    pub iterations: usize,
    /// Untimed warm-up runs per format and operation.
    pub warmup_iterations: usize,
    /// The interpreter.
    pub python: Interpreter,
    /// Each measured format, by its name in `python_summary.csv`: the
    /// package implementing it and how the harness calls it.
    pub packages: BTreeMap<String, Package>,
    /// The version of matplotlib, which drew the chart.
    pub matplotlib: String,
    /// The machine.
    pub machine: PythonMachine,
    /// The datasets' version.
    pub dataset_version: String,
    /// The Surp wire format version.
    pub surp_format_version: u64,
    /// Each exported dataset, with the sha256 the export pinned.
    pub datasets: Vec<PythonDataset>,
    /// The commit the harness ran from.
    pub git: Git,
    /// How the numbers were taken, one sentence per aspect.
    pub methodology: BTreeMap<String, String>,
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

/// One measured format's implementation.
#[derive(Clone, Debug, Deserialize)]
pub struct Package {
    /// The package (or stdlib module) implementing the format.
    pub package: String,
    /// Its installed version.
    pub version: String,
    /// How the harness calls it to dump and load.
    pub call: String,
    /// How bytes travel: "native", or "base64 text" for formats without a
    /// bytes type.
    pub bytes: String,
}

/// The machine a Python run was made on.
#[derive(Clone, Debug, Deserialize)]
pub struct PythonMachine {
    /// The operating system.
    pub os: String,
    /// The kernel release.
    pub release: String,
    /// The CPU architecture.
    pub arch: String,
    /// The CPU model.
    pub cpu_model: String,
    /// Logical cores, as Python counts them (`None` when it cannot tell).
    pub cores: Option<usize>,
}

/// One exported dataset.
#[derive(Clone, Debug, Deserialize)]
pub struct PythonDataset {
    /// Its name.
    pub name: String,
    /// The sha256 of its canonical bytes.
    pub sha256: String,
}
