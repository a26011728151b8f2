//! The JavaScript run's `meta.json` as the generator reads it back: the
//! fields the JavaScript benchmark page shows. The JavaScript harness
//! (`js/bench/bench.mjs`) writes the file; fields it adds later are ignored
//! here, and a field missing here is an error that names it.

use serde::Deserialize;

use crate::lang_meta::{HarnessMeta, Lang, LangMeta};
use crate::lang_run::LangRun;

/// The subfolder of a run folder that holds the JavaScript run of the same
/// version.
pub const JS_DIR: &str = "js";
/// The JavaScript run's table, with the columns of `summary.csv`.
pub const JS_SUMMARY: &str = "summary.csv";
/// The JavaScript run's metadata.
pub const JS_META: &str = "meta.json";
/// The JavaScript run's one chart.
pub const JS_CHART: &str = "chart.svg";
/// The JavaScript harness, from the repository's root.
pub const JS_HARNESS: &str = "js/bench/bench.mjs";
/// What the JavaScript chart shows, as its image's alternative text.
pub const JS_CHART_ALT: &str = "JavaScript: serialized size, median encode time and median decode time per format and \
     dataset";

/// One committed JavaScript run.
pub type JsRun = LangRun<JsMeta>;

/// The parts of a JavaScript run's `meta.json` that its page shows.
#[derive(Clone, Debug, Deserialize)]
pub struct JsMeta {
    /// The fields every language harness writes.
    #[serde(flatten)]
    pub common: HarnessMeta,
    /// How each format warmed up before the timed runs, as a sentence.
    pub warmup: String,
    /// The runtime.
    pub node: Node,
}

impl LangMeta for JsMeta {
    const LANG: Lang = Lang {
        name: "JavaScript",
        dir: JS_DIR,
        summary: JS_SUMMARY,
        meta: JS_META,
        chart: JS_CHART,
        harness: JS_HARNESS,
        subject: "the `surp` npm package",
        chart_alt: JS_CHART_ALT,
    };

    fn common(&self) -> &HarnessMeta {
        &self.common
    }
}

/// The Node.js a run used.
#[derive(Clone, Debug, Deserialize)]
pub struct Node {
    /// Such as "20.20.2".
    pub version: String,
    /// The version of its V8 engine.
    pub v8: String,
}
