//! The page of a run's JavaScript benchmark, beside the Rust run's page:
//! its metadata, its chart (the committed SVG file itself), surp's ratios
//! to the other JavaScript codecs, `surp_dedup` against msgpackr's records,
//! JSON with and without the conversion to bytes, every row of the run's
//! `summary.csv`, the methodology as its `meta.json` records it, and how to
//! reproduce the run. The parts every language's page has are
//! [`crate::lang_page`]'s.

use surp_bench::{Dataset, Mode, Operation, duration, thousands};

use crate::js_meta::{JS_CHART, JS_DIR, JS_META, JS_SUMMARY, JsRun};
use crate::lang_page::{
    Column, RunRows, SUBJECT, median, page_start, peers, push_chart, push_dataset_table,
    push_every_cell, push_methodology, push_run_table, ratio, reproduce, rows_sentence, size,
    with_options,
};
use crate::page::escape;
use crate::run::Run;

/// The script that draws the chart, from the repository's root.
pub const JS_CHART_SCRIPT: &str = "js/bench/chart.mjs";
/// Every format the JavaScript harness measures when its command line names
/// none (`FORMATS` in `js/bench/formats.mjs`).
pub const JS_FORMATS: [&str; 10] = [
    "surp",
    "surp_dedup",
    "msgpackr",
    "msgpackr_records",
    "cbor_x",
    "msgpack_js",
    "jsonpack_msgpack",
    "jsonpack_cbor",
    "json",
    "json_string",
];
/// The formats surp's times are divided by: every other one that neither
/// deduplicates nor writes record definitions, and JSON as a program sends
/// it, as bytes.
const RATIO_BASES: [&str; 6] = [
    "msgpackr",
    "cbor_x",
    "msgpack_js",
    "jsonpack_msgpack",
    "jsonpack_cbor",
    "json",
];
/// Surp with deduplication, and the format it is compared with: msgpackr
/// with record definitions, which also writes a repeated shape once.
const DEDUP_PAIR: [&str; 2] = ["surp_dedup", "msgpackr_records"];
/// JSON with the conversion to and from bytes, and without it.
const JSON_PAIR: [&str; 2] = ["json", "json_string"];
/// A section of the page that compares a pair of formats.
type Section = fn(&mut String, &JsRun);
/// The operations the JavaScript harness times.
const OPS: [Operation; 2] = [Operation::Encode, Operation::Decode];

/// The Markdown page of `run`'s JavaScript benchmark `js`.
pub fn js_page(run: &Run, js: &JsRun) -> String {
    let meta = &js.meta;
    let iterations = meta.common.iterations;
    let warmup = escape(&meta.warmup);
    let node = format!(
        "{} (V8 {})",
        escape(&meta.node.version),
        escape(&meta.node.v8)
    );
    let mut out = page_start(
        run,
        js,
        &format!(
            "the `surp` npm package (this repository's `js/` folder, TypeScript compiled to \
             JavaScript) against {}, encoding and decoding the datasets the Rust harness \
             exports, in Node.js",
            peers(js)
        ),
        &format!("{iterations} timed runs per cell after a warm-up in which {warmup}"),
        "the Node.js version, packages and machine",
    );
    push_run_table(
        &mut out,
        js,
        RunRows {
            iterations: format!("{iterations} timed per cell"),
            more: vec![("warm-up", warmup.clone()), ("Node.js", node)],
            chart_by: format!("`{JS_CHART_SCRIPT}`"),
            datasets: "The Rust harness exported each dataset as a Surp file (`surp-bench \
                       export`); the harness decodes it with the `surp` package and checks \
                       that encoding the value again and decoding that gives the same value. \
                       A float with an integral value is a JavaScript number like any integer, \
                       so the package may encode it as an integer: its sizes can differ from \
                       the Rust run's.",
        },
    );
    push_chart(&mut out, run, js, "encode and decode");
    push_ratios(&mut out, js);
    for (pair, push) in [(DEDUP_PAIR, push_dedup as Section), (JSON_PAIR, push_json)] {
        if js.has_all(&pair) {
            push(&mut out, js);
        }
    }
    push_every_cell(
        &mut out,
        js,
        "`encode` is the value to bytes (to a string for `json_string`), `decode` is those \
         bytes (or that string) back to the value",
    );
    push_methodology(
        &mut out,
        js,
        "Every library encodes the same JavaScript value of each dataset (as the `surp` package \
         decodes it from the exported file), or the view of it that the format can carry, and \
         decodes it back.",
        "How the harness calls each library, and how bytes travel (formats without a bytes \
         type carry them as base64 text)",
        "encode / decode",
    );
    push_reproduce(&mut out, run, js);
    out
}

/// Per dataset, surp's median encode and decode time over each base
/// format's, one table per operation, for the bases the run has.
fn push_ratios(out: &mut String, js: &JsRun) {
    let bases: Vec<&str> = RATIO_BASES.into_iter().filter(|b| js.has(b)).collect();
    if bases.is_empty() || !js.has(SUBJECT) {
        return;
    }
    out.push_str(&format!(
        "\n## `{SUBJECT}` against the others\n\nPer dataset, the median time of `{SUBJECT}` \
         divided by that of each other format that neither deduplicates nor writes record \
         definitions, from the table of every cell below. Below 1 `{SUBJECT}` is faster.\n"
    ));
    for op in OPS.into_iter().filter(|op| js.operations.contains(op)) {
        out.push_str(&format!("\n### `{}` time\n\n", op.name()));
        let columns: Vec<Column<'_>> = bases
            .iter()
            .map(|&b| {
                Column::new(format!("`{SUBJECT}` / `{b}`"), move |d| {
                    ratio(median(js, SUBJECT, d, op), median(js, b, d, op), 2)
                })
            })
            .collect();
        push_dataset_table(out, js, &columns);
    }
}

/// Per dataset, `surp_dedup`'s median times over `msgpackr_records`', and
/// both sizes with their ratio (for a run that has both).
fn push_dedup(out: &mut String, js: &JsRun) {
    let [dedup, records] = DEDUP_PAIR;
    out.push_str(&format!(
        "\n### `{dedup}` against `{records}`\n\nBoth write what repeats in a document once: \
         `{dedup}` with Surp's deduplication, `{records}` with msgpackr's record definitions, \
         which travel inside each document. Per dataset, the median times of `{dedup}` \
         divided by those of `{records}`, and the two sizes. Below 1 `{dedup}` is faster or \
         smaller.\n\n"
    ));
    let mut columns: Vec<Column<'_>> = OPS
        .into_iter()
        .filter(|op| js.operations.contains(op))
        .map(|op| {
            Column::new(format!("{} / `{records}`", op.name()), move |d| {
                ratio(median(js, dedup, d, op), median(js, records, d, op), 2)
            })
        })
        .collect();
    let bytes = |format: &'static str| {
        move |d: Dataset| size(js, format, d).map_or_else(|| "-".to_owned(), thousands)
    };
    columns.push(Column::new(format!("`{dedup}` bytes"), bytes(dedup)));
    columns.push(Column::new(format!("`{records}` bytes"), bytes(records)));
    columns.push(Column::new(format!("size / `{records}`"), move |d| {
        ratio(size(js, dedup, d), size(js, records, d), 2)
    }));
    push_dataset_table(out, js, &columns);
}

/// Per dataset, JSON's median times with the conversion between text and
/// bytes and without it, and surp's times over the string-only ones (for a
/// run that has both JSON formats).
fn push_json(out: &mut String, js: &JsRun) {
    let [bytes, string] = JSON_PAIR;
    out.push_str(&format!(
        "\n### JSON with and without bytes\n\n`{bytes}` is JSON as a program sends it: the \
         text converted to bytes and back (see how each library is called, below). \
         `{string}` is `JSON.stringify` and `JSON.parse` alone, on strings. Per dataset, the \
         median times of both, and those of `{SUBJECT}` divided by the string-only ones.\n\n"
    ));
    let ops: Vec<Operation> = OPS
        .into_iter()
        .filter(|op| js.operations.contains(op))
        .collect();
    let mut columns: Vec<Column<'_>> = Vec::new();
    for &op in &ops {
        for format in [bytes, string] {
            columns.push(Column::new(format!("{} `{format}`", op.name()), move |d| {
                median(js, format, d, op).map_or_else(|| "-".to_owned(), duration)
            }));
        }
    }
    if js.has(SUBJECT) {
        for &op in &ops {
            columns.push(Column::new(
                format!("{} `{SUBJECT}` / `{string}`", op.name()),
                move |d| ratio(median(js, SUBJECT, d, op), median(js, string, d, op), 2),
            ));
        }
    }
    push_dataset_table(out, js, &columns);
}

/// "Reproduce": the export, the build of the package, and the harness
/// with the options that differ from its defaults.
fn push_reproduce(out: &mut String, run: &Run, js: &JsRun) {
    let mode = js.mode;
    let parts = reproduce(js);
    let mut options = Vec::new();
    // The harness measures all its formats unless told otherwise, in the
    // order of its own list whatever the order given.
    if !(js.has_all(&JS_FORMATS) && js.formats.len() == JS_FORMATS.len()) {
        options.push(format!("--formats {}", js.formats.join(",")));
    }
    options.extend(parts.options);
    let output = match mode {
        Mode::Full => format!("docs/assets/bench/{}/{JS_DIR}", run.name()),
        Mode::Ci => format!("bench/results/{JS_DIR}"),
    };
    options.push(format!("--output ../{output}"));
    // The harness runs in js/, so paths from the root start with ../.
    let harness = js.meta.common.harness.trim_start_matches("js/");
    let bench = with_options(
        &format!("node {harness} --export ../{}", parts.export_dir),
        &options,
    );
    out.push_str(&format!(
        "\n## Reproduce\n\nFrom a clone of the repository, with the pinned Rust toolchain and \
         Node.js 20 or later:\n\n\
         ```text\n{}{}\ncd js && npm ci && npm run build\n{bench}\n```\n\n\
         The `cargo` command exports the {mode}-mode datasets with the Rust harness, which also \
         fixes the iteration count. `npm ci` installs the packages pinned in \
         `js/package-lock.json`, and `npm run build` compiles the `surp` package into \
         `js/dist/`, which the harness imports. The last command runs the JavaScript benchmark \
         on the export, each dataset in Node.js processes of its own (see the methodology), and writes \
         `{JS_SUMMARY}`, `{JS_META}` and `{JS_CHART}` into `{output}/`. Sizes come out \
         identical with the Node.js and package versions above; {}\n",
        parts.checkout,
        parts.export,
        rows_sentence(js)
    ));
}
