//! `docs-gen`: the generated part of the docs site.
//!
//! The benchmark pages are never typed by hand. For every committed run
//! folder `docs/assets/bench/v<version>/` (written by `surp-bench --mode
//! full`), this crate writes `docs/src/bench/v<version>.md` from the run's
//! `summary.csv` and `meta.json`, with the tables drawn by the harness's own
//! [`surp_bench::markdown_tables`] and the charts linked where they are
//! committed. It also writes the Benchmarks index, the Deduplication
//! chapter's table of measured numbers, and the list of benchmark pages in
//! `SUMMARY.md` (between two marker lines).
//!
//! A run folder may hold the Python benchmark of the same version in a
//! `python/` subfolder (written by `bench/python/bench_surp.py`); it gets a
//! page of its own, `docs/src/bench/v<version>-python.md`, from its
//! `python_summary.csv` and `python_meta.json`, with its chart linked where
//! it is committed, and the Rust run's page links to it. The JavaScript
//! benchmark of the same version, in a `js/` subfolder (written by
//! `js/bench/bench.mjs`), gets `docs/src/bench/v<version>-js.md` the same
//! way, from its `summary.csv`, `meta.json` and `chart.svg`.
//!
//! ```text
//! cargo run -p docs-gen             # regenerate the pages
//! cargo run -p docs-gen -- --check  # fail if the committed pages are stale
//! ```
//!
//! The output depends only on the committed files: the same runs give
//! byte-identical pages.
//!
//! The crate's tests also run every Rust example of the guide
//! (`docs/examples/*.rs`), so the code, numbers and error messages the guide
//! shows are the ones the crates produce.

mod dedup;
mod error;
mod front;
mod index;
mod js_meta;
mod js_page;
mod lang_meta;
mod lang_page;
mod lang_run;
mod messages_page;
mod meta;
mod page;
mod python_meta;
mod python_page;
mod run;
mod site;

pub use error::DocsError;
pub use index::{LIST_END, LIST_START};
pub use js_meta::{
    JS_CHART, JS_CHART_ALT, JS_DIR, JS_HARNESS, JS_META, JS_SUMMARY, JsMeta, JsRun, Node,
};
pub use js_page::{JS_CHART_SCRIPT, JS_FORMATS};
pub use lang_meta::{HarnessDataset, HarnessMachine, HarnessMeta, Lang, LangMeta, Package};
pub use lang_run::{LangMeasurement, LangRun};
pub use messages_page::GUIDANCE_HEADING;
pub use meta::RunMeta;
pub use page::{ASSETS_FROM_BENCH, EVERY_CELL_HEADING, chart_alt};
pub use python_meta::{
    Interpreter, PYTHON_CHART, PYTHON_CHART_ALT, PYTHON_DIR, PYTHON_HARNESS, PYTHON_META,
    PYTHON_SUMMARY, PythonMeta, PythonRun,
};
pub use python_page::PYTHON_SETUP;
pub use run::{LangLink, RAW_FILES, Run, find_runs};
pub use site::{BENCH_ROOT, GENERATED_DIR, SUMMARY, Site, Stale};

use std::path::{Path, PathBuf};

/// The `docs/` folder of this repository.
pub fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("docs-gen sits in docs/gen")
        .to_owned()
}
