//! The page of a run's Python benchmark, beside the Rust run's page: its
//! metadata, its chart (the committed SVG file itself), surp's ratios to
//! msgpack, ormsgpack and orjson, every row of `python_summary.csv`, the methodology
//! as `python_meta.json` records it, and how to reproduce the run. The
//! parts every language's page has are [`crate::lang_page`]'s.

use surp_bench::{Mode, Operation};

use crate::front::and_list;
use crate::lang_page::{
    Column, RunRows, SUBJECT, median, page_start, peers, push_chart, push_dataset_table,
    push_every_cell, push_methodology, push_run_table, ratio, reproduce, rows_sentence, size,
    with_options,
};
use crate::page::escape;
use crate::python_meta::{PYTHON_CHART, PYTHON_DIR, PYTHON_META, PYTHON_SUMMARY, PythonRun};
use crate::run::Run;

/// The script that builds the venv and the extension (and runs the tests
/// and a ci-mode run).
pub const PYTHON_SETUP: &str = "surp-py/ci.sh";
/// Where [`PYTHON_SETUP`] puts the venv, under the cargo target directory.
const VENV_PYTHON: &str = "target/py-venv/bin/python";
/// The formats surp is divided by in the ratio table: the reference
/// MessagePack library, the fastest binary peer, and the fastest JSON
/// library.
const RATIO_BASES: [&str; 3] = ["msgpack", "ormsgpack", "orjson"];

/// The Markdown page of `run`'s Python benchmark `py`.
pub fn python_page(run: &Run, py: &PythonRun) -> String {
    let meta = &py.meta;
    let iterations = meta.common.iterations;
    let mut out = page_start(
        run,
        py,
        &format!(
            "the `surp` Python module (this repository's crates, built as an extension with \
             PyO3) against {}, dumping and loading the datasets the Rust harness exports",
            peers(py)
        ),
        &describe_iterations(iterations, meta.warmup_iterations),
        "the interpreter, packages and machine",
    );
    let compiler = if meta.python.compiler.is_empty() {
        String::new()
    } else {
        format!(", built with {}", escape(&meta.python.compiler))
    };
    push_run_table(
        &mut out,
        py,
        RunRows {
            iterations: format!(
                "{iterations} timed per cell, after {} warm-up per format and operation",
                meta.warmup_iterations
            ),
            more: vec![(
                "Python",
                format!(
                    "{} {}{compiler}",
                    escape(&meta.python.implementation),
                    escape(&meta.python.version)
                ),
            )],
            chart_by: format!("matplotlib {}", escape(&meta.matplotlib)),
            datasets: "The Rust harness exported each dataset as a Surp file (`surp-bench \
                       export`); the harness loads it with `surp.loads` and checks that \
                       re-encoding gives the same bytes.",
        },
    );
    push_chart(&mut out, run, py, "dumps (encode) and loads (decode)");
    push_ratios(&mut out, py);
    push_every_cell(
        &mut out,
        py,
        "`encode` is dumps (object to bytes), `decode` is loads (bytes to object)",
    );
    push_methodology(
        &mut out,
        py,
        "Every library dumps the same Python object of each dataset (as `surp.loads` reads it \
         from the exported file) and loads it back.",
        "How the harness calls each library, and how bytes travel (formats without a bytes \
         type carry them as base64 text and give back that text)",
        "dumps / loads",
    );
    push_reproduce(&mut out, run, py);
    out
}

/// "20 timed runs per cell after 2 warm-up runs per format and operation".
fn describe_iterations(iterations: usize, warmup: usize) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    format!(
        "{iterations} timed run{} per cell after {warmup} warm-up run{} per format and operation",
        plural(iterations),
        plural(warmup)
    )
}

/// Per dataset, surp's median dumps and loads time and its size over each
/// base format's, for the bases the run has.
fn push_ratios(out: &mut String, py: &PythonRun) {
    let bases: Vec<&str> = RATIO_BASES.into_iter().filter(|b| py.has(b)).collect();
    if bases.is_empty() || !py.has(SUBJECT) {
        return;
    }
    let ops: Vec<Operation> = [Operation::Encode, Operation::Decode]
        .into_iter()
        .filter(|op| py.operations.contains(op))
        .collect();
    out.push_str(&format!(
        "\n## `{SUBJECT}` against {}\n\nPer dataset, the median time and the size of `{SUBJECT}` \
         divided by those of each other format, from the table below. Below 1 `{SUBJECT}` is \
         faster or smaller.\n\n",
        and_list(&bases.iter().map(|b| format!("`{b}`")).collect::<Vec<_>>())
    ));
    let mut columns = Vec::new();
    for &b in &bases {
        for &op in &ops {
            columns.push(Column::new(format!("{} / `{b}`", op_title(op)), move |d| {
                ratio(median(py, SUBJECT, d, op), median(py, b, d, op), 2)
            }));
        }
        columns.push(Column::new(format!("size / `{b}`"), move |d| {
            ratio(size(py, SUBJECT, d), size(py, b, d), 3)
        }));
    }
    push_dataset_table(out, py, &columns);
}

/// What an operation is called in Python.
fn op_title(op: Operation) -> &'static str {
    match op {
        Operation::Encode => "dumps",
        Operation::Decode => "loads",
        Operation::DecodeBorrowed => "loads (borrowed)",
        Operation::Roundtrip => "round trip",
    }
}

/// "Reproduce": the setup, the export, and the harness with the run's
/// formats and the options that differ from its defaults.
fn push_reproduce(out: &mut String, run: &Run, py: &PythonRun) {
    let mode = py.mode;
    let parts = reproduce(py);
    // The harness's own list of formats is not recorded, so the run's list
    // is always given: the command measures exactly these.
    let mut options = vec![format!("--formats {}", py.formats.join(","))];
    options.extend(parts.options);
    let output = match mode {
        Mode::Full => format!("docs/assets/bench/{}/{PYTHON_DIR}", run.name()),
        Mode::Ci => format!("bench/results/{PYTHON_DIR}"),
    };
    options.push(format!("--output {output}"));
    let bench = with_options(
        &format!(
            "{VENV_PYTHON} {} --export {}",
            py.meta.common.harness, parts.export_dir
        ),
        &options,
    );
    out.push_str(&format!(
        "\n## Reproduce\n\nFrom a clone of the repository, with the pinned Rust toolchain and \
         Python 3 with `venv`:\n\n\
         ```text\n{}bash {PYTHON_SETUP}\n{}\n{bench}\n```\n\n\
         `{PYTHON_SETUP}` is the setup: it makes a venv in `target/py-venv` (under \
         `$CARGO_TARGET_DIR` when that is set) with the pinned packages of \
         `surp-py/requirements.txt`, builds the `surp` extension into it with `maturin develop \
         --release`, and runs the Python tests and a small ci-mode run. The `cargo` command \
         exports the {mode}-mode datasets with the Rust harness, which also fixes the iteration \
         counts; the last command runs the Python benchmark on them and writes `{PYTHON_SUMMARY}`, \
         `{PYTHON_META}` and `{PYTHON_CHART}` into `{output}/`. Sizes come out identical with the \
         Python and package versions above; {}\n",
        parts.checkout,
        parts.export,
        rows_sentence(py)
    ));
}
