//! The generator end to end, on real runs of the harness written into a
//! temporary `docs/` folder: pages for any number of runs, newest first,
//! byte-identical on regeneration, stale files reported, and incomplete runs
//! refused.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use docs_gen::{DocsError, LIST_END, LIST_START, Site, Stale};
use surp_bench::{Dataset, FORMATS, Mode, Options, Plan, Suite};

const FORMAT_NAMES: [&str; 5] = [
    "surp",
    "surp_dedup",
    "msgpack",
    "surp_zstd",
    "surp_dedup_zstd",
];
const DATASETS: [Dataset; 2] = [Dataset::NestedDeep, Dataset::StringHeavy];

/// One small real run, made once and copied into each test's folder.
fn run_dir() -> &'static Path {
    static RUN: OnceLock<tempfile::TempDir> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let formats = FORMATS
            .iter()
            .filter(|f| FORMAT_NAMES.contains(&f.name))
            .collect();
        let datasets = DATASETS.map(Into::into).to_vec();
        let plan = Plan::new(Mode::Ci, Suite::Value, formats, datasets, Some(1)).unwrap();
        surp_bench::run(&Options {
            plans: vec![plan],
            output: dir.path().to_owned(),
            baseline: None,
            progress: false,
        })
        .unwrap();
        dir
    })
    .path()
}

/// A `docs/` folder with a SUMMARY.md and a copy of the run under each of
/// `versions`.
fn docs_with_runs(versions: &[&str]) -> tempfile::TempDir {
    let docs = tempfile::tempdir().unwrap();
    fs::create_dir_all(docs.path().join("src")).unwrap();
    fs::write(
        docs.path().join("src/SUMMARY.md"),
        format!("# Summary\n\n- [Benchmarks](bench/index.md)\n    {LIST_START}\n    {LIST_END}\n"),
    )
    .unwrap();
    for version in versions {
        copy_dir(run_dir(), &docs.path().join("assets/bench").join(version));
    }
    docs
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn page<'a>(site: &'a Site, name: &str) -> &'a str {
    &site.files[&PathBuf::from(format!("src/bench/{name}"))]
}

/// The data rows of the Markdown table under `heading`.
fn table_rows<'a>(page: &'a str, heading: &str) -> Vec<&'a str> {
    let after = &page[page.find(heading).expect("the heading is on the page")..];
    after
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .collect()
}

#[test]
fn without_runs_the_pages_say_that_no_run_is_committed() {
    let docs = docs_with_runs(&[]);
    let site = Site::generate(docs.path()).unwrap();
    assert!(site.runs.is_empty());
    assert!(page(&site, "index.md").contains("No benchmark run is committed yet"));
    assert!(page(&site, "dedup-measured.md").contains("No benchmark run is committed yet"));
    assert!(page(&site, "dedup-zstd.md").contains("No benchmark run is committed yet"));
    assert!(page(&site, "dedup-shapes.md").contains("does not measure this option"));
    assert_eq!(
        site.files.len(),
        5,
        "SUMMARY.md, the index and the three dedup fragments"
    );
}

#[test]
fn a_run_gets_a_page_with_its_charts_and_every_cell() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let site = Site::generate(docs.path()).unwrap();
    let text = page(&site, "v0.1.0.md");

    for chart in Suite::Value.charts() {
        let link = format!("(../assets/bench/v0.1.0/charts/{})", chart.file_name());
        assert!(text.contains(&link), "{link}");
    }
    let rows = table_rows(text, docs_gen::EVERY_CELL_HEADING);
    assert_eq!(
        rows.len(),
        FORMAT_NAMES.len() * DATASETS.len() * Suite::Value.operations().len()
    );

    // Every row of the CSV is on the page, with its size.
    let csv = fs::read_to_string(run_dir().join("summary.csv")).unwrap();
    let (measurements, _) = surp_bench::parse_csv(&csv).unwrap();
    for m in &measurements {
        let row = format!("| {} | {} | {} | ", m.format.label, m.dataset, m.operation);
        let line = rows
            .iter()
            .find(|r| r.starts_with(&row))
            .unwrap_or_else(|| panic!("no row {row}"));
        // A compressed pipeline's size is compressed already.
        let zstd = m
            .zstd_bytes
            .map_or_else(|| "-".to_owned(), surp_bench::thousands);
        let sizes = format!("| {} | {zstd} |", surp_bench::thousands(m.size_bytes));
        assert!(line.ends_with(&sizes), "{line}");
    }

    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(run_dir().join("meta.json")).unwrap()).unwrap();
    for dataset in meta["datasets"].as_array().unwrap() {
        assert!(text.contains(dataset["sha256"].as_str().unwrap()));
    }
    if let Some(commit) = meta["git"]["commit"].as_str() {
        assert!(text.contains(&format!("git checkout {commit}")));
    }
    assert!(text.contains(
        "--iterations 1 --formats surp,surp_dedup,msgpack,surp_zstd,surp_dedup_zstd --datasets"
    ));

    let summary = &site.files[&PathBuf::from("src/SUMMARY.md")];
    assert!(summary.contains("    - [v0.1.0](bench/v0.1.0.md)\n"));
    let dedup = page(&site, "dedup-measured.md");
    assert!(dedup.contains("[v0.1.0 run](bench/v0.1.0.md)"));
    assert_eq!(table_rows(dedup, "| dataset |").len(), DATASETS.len());
}

#[test]
fn the_pipelines_have_their_own_table_and_the_dedup_page_compares_them() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let site = Site::generate(docs.path()).unwrap();

    // The run page: no pipeline among the formats compared, a table of
    // their own with the formats they compress.
    let text = page(&site, "v0.1.0.md");
    let size_rows = table_rows(text, "## Serialized size");
    assert!(!size_rows.is_empty());
    let size_table = &text[text.find("## Serialized size").unwrap()..];
    let header = size_table
        .lines()
        .find(|l| l.starts_with("| dataset"))
        .unwrap();
    assert!(!header.contains("zstd"), "{header}");
    let compressed = table_rows(text, surp_bench::COMPRESSED_HEADING);
    assert_eq!(compressed.len(), 4 * DATASETS.len(), "{compressed:?}");
    assert!(
        compressed.iter().all(|r| !r.contains(" - |")),
        "{compressed:?}"
    );
    assert!(text.contains("<span class=\"stat-value\">3</span><span class=\"stat-label\">formats"));

    // The dedup page: four rows per dataset, every time measured.
    let zstd = page(&site, "dedup-zstd.md");
    assert!(zstd.contains("[v0.1.0 run](bench/v0.1.0.md)"));
    assert!(!zstd.contains("made before surp-bench timed"));
    let rows = table_rows(zstd, "| dataset | encoding |");
    assert_eq!(rows.len(), 4 * DATASETS.len());
    assert!(rows.iter().all(|r| !r.contains(" - |")), "{rows:?}");
    assert!(zstd.contains("- **Size.** Surp+zstd is smaller than Surp+Dedup on"));
    assert!(zstd.contains("Surp+Dedup+zstd is strictly the smallest of the four on"));
    for line in ["- **Decode** time", "- **Encode** time"] {
        let line = zstd.lines().find(|l| l.starts_with(line)).unwrap();
        for way in ["Surp+Dedup ", "Surp+zstd ", "Surp+Dedup+zstd "] {
            assert!(line.contains(way), "{line}");
        }
    }
}

#[test]
fn a_run_from_before_the_pipelines_still_gets_their_sizes() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let run = docs.path().join("assets/bench/v0.1.0");
    let csv = fs::read_to_string(run.join("summary.csv")).unwrap();
    let without: String = csv
        .lines()
        .filter(|l| !l.starts_with("surp_zstd,") && !l.starts_with("surp_dedup_zstd,"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(without.len() < csv.len());
    fs::write(run.join("summary.csv"), without).unwrap();
    let site = Site::generate(docs.path()).unwrap();

    let text = page(&site, "v0.1.0.md");
    assert!(!text.contains(surp_bench::COMPRESSED_HEADING));
    let zstd = page(&site, "dedup-zstd.md");
    assert!(zstd.contains("made before surp-bench timed the compressed pipelines"));
    let rows = table_rows(zstd, "| dataset | encoding |");
    assert_eq!(rows.len(), 4 * DATASETS.len());
    for row in rows.iter().filter(|r| r.contains("zstd |")) {
        // The size, from zstd_bytes; no time.
        let cells: Vec<&str> = row.split(" | ").collect();
        assert_ne!(cells[2], "-", "{row}");
        assert!(row.ends_with("| - | - |"), "{row}");
    }
    let decode = zstd
        .lines()
        .find(|l| l.starts_with("- **Decode** time"))
        .unwrap();
    assert!(!decode.contains("zstd"), "{decode}");
}

#[test]
fn the_regression_check_is_a_table_without_the_machine_s_paths() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let meta_path = docs.path().join("assets/bench/v0.1.0/meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&meta_path).unwrap()).unwrap();
    meta["baseline"] = "/home/someone/surp/docs/assets/bench/v0.0.9/".into();
    meta["regressions"] = serde_json::json!([{
        "kind": "time", "format": "msgpack", "dataset": "nested_deep", "op": "decode",
        "baseline_ratio": 0.5, "current_ratio": 0.75, "change_pct": 50.0
    }]);
    meta["size_changes"] = serde_json::json!([{
        "format": "surp_dedup", "dataset": "string_heavy", "baseline_bytes": 1200,
        "current_bytes": 1000, "delta_bytes": -200, "delta_pct": -16.666666666666668,
        "regression": false
    }]);
    meta["noisy"] = serde_json::json!([{
        "format": "msgpack", "dataset": "string_heavy", "op": "encode",
        "baseline_ratio": 1.0, "current_ratio": 1.3, "change_pct": 30.000000000000004,
        "cv_pct": 12.34
    }]);
    meta["notes"] =
        serde_json::json!(["the baseline /home/someone/surp/bench/results has no typed suite"]);
    fs::write(&meta_path, meta.to_string()).unwrap();

    let site = Site::generate(docs.path()).unwrap();
    let text = page(&site, "v0.1.0.md");
    assert!(!text.contains("/home/someone"), "{text}");
    assert!(text.contains(
        "Compared with the run in `docs/assets/bench/v0.0.9/`: 1 regression, 1 size change, \
         1 noisy cell."
    ));
    assert_eq!(
        table_rows(text, "#### Regressions"),
        ["| MessagePack | `nested_deep` | decode time over JSON's | 0.50 | 0.75 | +50.0% |"]
    );
    assert_eq!(
        table_rows(text, "#### Size changes"),
        ["| Surp+Dedup | `string_heavy` | 1,200 | 1,000 | -200 (-16.67%) | no |"]
    );
    assert_eq!(
        table_rows(text, "#### Noisy cells"),
        ["| MessagePack | `string_heavy` | encode | 1.00 | 1.30 | +30.0% | 12.3% |"]
    );
    assert!(text.contains("- Note: the baseline bench/results has no typed suite\n"));
    assert!(
        text.contains("<span class=\"stat-value\">1</span><span class=\"stat-label\">regressions")
    );
}

#[test]
fn runs_are_listed_newest_first() {
    let docs = docs_with_runs(&["v0.2.0", "v0.10.0", "v0.1.0"]);
    let site = Site::generate(docs.path()).unwrap();
    assert_eq!(site.runs, ["v0.10.0", "v0.2.0", "v0.1.0"]);
    let summary = &site.files[&PathBuf::from("src/SUMMARY.md")];
    let order: Vec<usize> = site
        .runs
        .iter()
        .map(|name| summary.find(&format!("[{name}]")).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{summary}");
    assert!(page(&site, "dedup-measured.md").contains("[v0.10.0 run]"));
}

#[test]
fn regenerating_gives_identical_files_and_nothing_stale() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let first = Site::generate(docs.path()).unwrap();
    let written = first.write(docs.path()).unwrap();
    assert_eq!(written.len(), first.files.len(), "{written:?}");
    let second = Site::generate(docs.path()).unwrap();
    assert_eq!(first, second);
    assert_eq!(second.stale(docs.path()).unwrap(), []);
    assert_eq!(second.write(docs.path()).unwrap(), []);
}

#[test]
fn hand_edits_and_pages_of_removed_runs_are_stale() {
    let docs = docs_with_runs(&["v0.1.0"]);
    Site::generate(docs.path())
        .unwrap()
        .write(docs.path())
        .unwrap();
    let page_path = docs.path().join("src/bench/v0.1.0.md");
    fs::write(&page_path, "typed by hand").unwrap();
    fs::write(docs.path().join("src/bench/v0.0.9.md"), "an old page").unwrap();

    let site = Site::generate(docs.path()).unwrap();
    assert_eq!(
        site.stale(docs.path()).unwrap(),
        [
            Stale::Differs("src/bench/v0.1.0.md".into()),
            Stale::Extra("src/bench/v0.0.9.md".into())
        ]
    );
    site.write(docs.path()).unwrap();
    assert_eq!(site.stale(docs.path()).unwrap(), []);
    assert!(!docs.path().join("src/bench/v0.0.9.md").exists());

    // The run itself is gone: its page is stale, and the list is empty.
    fs::remove_dir_all(docs.path().join("assets/bench/v0.1.0")).unwrap();
    let site = Site::generate(docs.path()).unwrap();
    assert!(
        site.stale(docs.path())
            .unwrap()
            .contains(&Stale::Extra("src/bench/v0.1.0.md".into()))
    );
}

#[test]
fn an_incomplete_run_is_refused_with_the_reason() {
    let message = |docs: &Path| Site::generate(docs).unwrap_err().to_string();

    let docs = docs_with_runs(&["v0.1.0"]);
    let run = docs.path().join("assets/bench/v0.1.0");
    fs::remove_file(run.join("charts/decode.svg")).unwrap();
    assert!(message(docs.path()).ends_with("charts/decode.svg is missing"));

    let docs = docs_with_runs(&["v0.1.0"]);
    let csv_path = docs.path().join("assets/bench/v0.1.0/summary.csv");
    let csv = fs::read_to_string(&csv_path).unwrap();
    let shorter: Vec<&str> = csv.lines().take(csv.lines().count() - 1).collect();
    fs::write(&csv_path, shorter.join("\n")).unwrap();
    assert!(
        message(docs.path()).contains("summary.csv has 29 rows"),
        "{}",
        message(docs.path())
    );

    let docs = docs_with_runs(&["latest"]);
    assert!(matches!(
        Site::generate(docs.path()).unwrap_err(),
        DocsError::NotAVersionFolder { .. }
    ));

    let docs = docs_with_runs(&[]);
    fs::write(docs.path().join("src/SUMMARY.md"), "# Summary\n").unwrap();
    assert!(matches!(
        Site::generate(docs.path()).unwrap_err(),
        DocsError::MissingSummaryMarkers { .. }
    ));
}

// --- the Python run beside a Rust run ---------------------------------------
//
// Running the Python harness needs the extension built into a venv, which a
// cargo test cannot count on; so these tests write a small Python run in the
// format of a real one (the keys and shapes of bench_surp.py's
// python_meta.json and python_summary.csv), for the datasets of the real
// Rust run above and with its sha256s. Its numbers are made up for the
// test and appear only in temporary folders. `bash docs/ci.sh` checks a real
// Python run end to end.

const PYTHON_FORMATS: [(&str, &str, &str); 3] = [
    ("surp", "surp.dumps(v) / surp.loads(b)", "native"),
    (
        "msgpack",
        "msgpack.packb(v) / msgpack.unpackb(b), defaults (C extension; bin type for bytes)",
        "native",
    ),
    (
        "orjson",
        "orjson.dumps(v, default=<bytes to base64 str>) / orjson.loads(b)",
        "base64 text",
    ),
];
const PYTHON_OPERATIONS: [&str; 2] = ["encode", "decode"];
const PYTHON_COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

/// Writes `python/` into the run folder `run`: `mode` and `iterations` as
/// given, the datasets and their sha256s from the run's meta.json.
fn write_python_run(run: &Path, mode: &str, iterations: usize) {
    let rust: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(run.join("meta.json")).unwrap()).unwrap();
    let datasets: Vec<serde_json::Value> = rust["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| serde_json::json!({"name": d["name"], "sha256": d["sha256"]}))
        .collect();
    let packages: serde_json::Map<String, serde_json::Value> = PYTHON_FORMATS
        .iter()
        .map(|(name, call, bytes)| {
            let version = if *name == "surp" { "0.1.0" } else { "9.9.9" };
            let package = serde_json::json!({
                "package": name, "version": version, "call": call, "bytes": bytes
            });
            (name.to_string(), package)
        })
        .collect();
    let meta = serde_json::json!({
        "harness": "bench/python/bench_surp.py",
        "mode": mode,
        "iterations": iterations,
        "warmup_iterations": 1,
        "python": {"version": "3.11.7", "implementation": "CPython", "compiler": "GCC 12.2.0"},
        "packages": packages,
        "matplotlib": "3.11.2",
        "machine": {
            "os": "Linux", "release": "6.1.0", "arch": "x86_64",
            "cpu_model": "Test CPU 3000", "cores": 2
        },
        "dataset_version": rust["dataset_version"],
        "surp_format_version": 1,
        "datasets": datasets,
        "git": {"commit": PYTHON_COMMIT, "dirty": false},
        "methodology": {
            "check": "each format round-trips each dataset before timing",
            "order": "round-robin over the formats",
            "timer": "time.perf_counter_ns around one call",
            "gc": "the cyclic garbage collector is off while a dataset is measured",
            "p95": "nearest rank",
            "throughput": "serialized bytes / median time",
            "ops": "encode is dumps, decode is loads",
            "later": "an entry this generator has no label for"
        }
    });
    let dir = run.join(docs_gen::PYTHON_DIR);
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join(docs_gen::PYTHON_META),
        serde_json::to_string_pretty(&meta).unwrap(),
    )
    .unwrap();
    let mut csv = format!("{}\n", surp_bench::CSV_HEADER_V1);
    let mut n = 0u64;
    // In the export's order, Dataset::ALL's, as the harness measures them.
    let datasets = Dataset::ALL.into_iter().filter(|d| DATASETS.contains(d));
    for d in datasets {
        for (i, (format, _, _)) in PYTHON_FORMATS.iter().enumerate() {
            let size = 1000 * (i as u64 + 1) + d as u64;
            for op in PYTHON_OPERATIONS {
                n += 1;
                let median = 10_000 * n;
                csv.push_str(&format!(
                    "{format},{d},{op},{iterations},{median},{},{},{:.2},{:.2},{size}\n",
                    median + 500,
                    median - 500,
                    n as f64 * 1.5,
                    size as f64 * 1e3 / median as f64
                ));
            }
        }
    }
    fs::write(dir.join(docs_gen::PYTHON_SUMMARY), csv).unwrap();
    fs::write(
        dir.join(docs_gen::PYTHON_CHART),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>\n",
    )
    .unwrap();
}

fn python_rows(run: &Path) -> Vec<Vec<String>> {
    let csv = fs::read_to_string(run.join("python").join(docs_gen::PYTHON_SUMMARY)).unwrap();
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

/// Turns the run at `run` (a copy of the small ci run) into a full-mode run
/// of 20 iterations, as far as the generator can tell.
fn make_full_mode(run: &Path) {
    let meta_path = run.join("meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&meta_path).unwrap()).unwrap();
    meta["mode"] = "full".into();
    meta["iterations"] = 20.into();
    fs::write(&meta_path, meta.to_string()).unwrap();
    let csv_path = run.join("summary.csv");
    let csv: Vec<String> = fs::read_to_string(&csv_path)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let mut fields: Vec<&str> = line.split(',').collect();
            if i > 0 {
                fields[3] = "20";
            }
            fields.join(",")
        })
        .collect();
    fs::write(&csv_path, csv.join("\n") + "\n").unwrap();
}

#[test]
fn a_python_run_gets_a_page_of_its_own_with_its_chart_and_every_row() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let run = docs.path().join("assets/bench/v0.1.0");
    write_python_run(&run, "ci", 1);
    let site = Site::generate(docs.path()).unwrap();
    let text = page(&site, "v0.1.0-python.md");

    let chart = "(../assets/bench/v0.1.0/python/python_chart.svg)";
    assert_eq!(text.matches(chart).count(), 2, "shown and linked once");
    assert!(text.contains(&format!("[![{}]", docs_gen::PYTHON_CHART_ALT)));
    assert!(text.contains("(../assets/bench/v0.1.0/python/python_summary.csv)"));
    assert!(text.contains("(../assets/bench/v0.1.0/python/python_meta.json)"));
    assert!(text.contains("[its own page](v0.1.0.md)"));

    // Every CSV row is a table row, in order, with its size.
    let rows = table_rows(text, docs_gen::EVERY_CELL_HEADING);
    let csv = python_rows(&run);
    assert_eq!(rows.len(), csv.len());
    assert_eq!(
        csv.len(),
        PYTHON_FORMATS.len() * DATASETS.len() * PYTHON_OPERATIONS.len()
    );
    for (row, fields) in rows.iter().zip(&csv) {
        let start = format!("| {} | {} | {} | ", fields[0], fields[1], fields[2]);
        assert!(row.starts_with(&start), "{row} should start with {start}");
        let size: u64 = fields[9].parse().unwrap();
        assert!(row.ends_with(&format!("| {} |", surp_bench::thousands(size))));
        let median = surp_bench::duration(fields[4].parse().unwrap());
        assert!(row.contains(&format!("| {median} |")), "{row}");
    }
    // One iteration: the spread column is the maximum.
    assert!(text.contains("| format | dataset | op | median | max | min |"));

    // The metadata, packages and methodology come from python_meta.json.
    for expected in [
        "CPython 3.11.7, built with GCC 12.2.0",
        "Linux 6.1.0 x86\\_64, Test CPU 3000, 2 logical cores",
        "matplotlib 3.11.2",
        &format!("`{PYTHON_COMMIT}`"),
        "| `msgpack` | `msgpack` | 9.9.9 |",
        "| `surp` | `surp.dumps(v) / surp.loads(b)` | native |",
        "| `orjson` | `orjson.dumps(v, default=<bytes to base64 str>) / orjson.loads(b)` | base64 text |",
        "base64 text",
        "- **Garbage collector**: the cyclic garbage collector is off",
        "- **later**: an entry this generator has no label for.",
    ] {
        assert!(text.contains(expected), "the page lacks {expected}");
    }
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(run.join("meta.json")).unwrap()).unwrap();
    for d in DATASETS {
        let sha = meta["datasets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == d.name())
            .unwrap()["sha256"]
            .as_str()
            .unwrap();
        assert!(text.contains(&format!("| `{d}` | `{sha}` |")));
    }

    // surp over msgpack and orjson, per dataset, from the same rows.
    let ratios = table_rows(text, "## `surp` against");
    assert_eq!(ratios.len(), DATASETS.len());
    let median = |format: &str, d: Dataset, op: &str| -> f64 {
        let row = csv
            .iter()
            .find(|r| r[0] == format && r[1] == d.name() && r[2] == op)
            .unwrap();
        row[4].parse().unwrap()
    };
    let first = Dataset::from_name(&csv[0][1]).unwrap();
    let dumps = median("surp", first, "encode") / median("msgpack", first, "encode");
    assert!(ratios[0].starts_with(&format!("| `{first}` | {dumps:.2} | ")));

    // How to reproduce: the setup, then the exact commands of a ci run.
    assert!(text.contains(&format!(
        "git checkout {PYTHON_COMMIT}\nbash surp-py/ci.sh\n"
    )));
    // The small Rust run measured two datasets, so the export (whose list
    // the fixture's python_meta.json copies) had only those two.
    assert!(text.contains(
        "\ncargo run -p surp-bench --release -- export --mode ci --output bench/results/export-ci \
         --datasets string_heavy,nested_deep\n"
    ));
    let formats: Vec<&str> = PYTHON_FORMATS.iter().map(|f| f.0).collect();
    assert!(text.contains(&format!(
        "\ntarget/py-venv/bin/python bench/python/bench_surp.py --export bench/results/export-ci \\\n    \
         --formats {} \\\n    --iterations 1 \\\n    --output bench/results/python\n```\n",
        formats.join(",")
    )));

    // The Rust page, the index and the table of contents lead to it.
    assert!(page(&site, "v0.1.0.md").contains("[its own page](v0.1.0-python.md)"));
    assert!(
        page(&site, "index.md").contains("| [v0.1.0](v0.1.0.md) ([Python](v0.1.0-python.md)) |")
    );
    let summary = &site.files[&PathBuf::from("src/SUMMARY.md")];
    assert!(
        summary.contains(
            "    - [v0.1.0](bench/v0.1.0.md)\n        - [Python](bench/v0.1.0-python.md)\n"
        )
    );
}

#[test]
fn a_full_python_run_gives_the_full_mode_commands() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let run = docs.path().join("assets/bench/v0.1.0");
    make_full_mode(&run);
    write_python_run(&run, "full", 20);
    let site = Site::generate(docs.path()).unwrap();
    let text = page(&site, "v0.1.0-python.md");
    let formats: Vec<&str> = PYTHON_FORMATS.iter().map(|f| f.0).collect();
    let expected = format!(
        "```text\ngit checkout {PYTHON_COMMIT}\nbash surp-py/ci.sh\n\
         cargo run -p surp-bench --release -- export --mode full --output bench/results/export-full \
         --datasets string_heavy,nested_deep\n\
         target/py-venv/bin/python bench/python/bench_surp.py --export bench/results/export-full \\\n    \
         --formats {} \\\n    --output docs/assets/bench/v0.1.0/python\n```\n",
        formats.join(",")
    );
    assert!(text.contains(&expected), "{text}");
    assert!(!text.contains("This is a ci-mode run"));
    assert!(text.contains("| format | dataset | op | median | p95 | min |"));
}

#[test]
fn a_run_without_python_gets_the_same_pages_as_before() {
    let plain = Site::generate(docs_with_runs(&["v0.1.0"]).path()).unwrap();
    assert!(
        !plain
            .files
            .keys()
            .any(|p| p.to_string_lossy().contains("python"))
    );
    for text in plain.files.values() {
        assert!(!text.contains("Python"), "{text}");
    }

    // With python/, the Rust page gains only the paragraph that links the
    // Python page, and the other pages only the links to it.
    let docs = docs_with_runs(&["v0.1.0"]);
    write_python_run(&docs.path().join("assets/bench/v0.1.0"), "ci", 1);
    let with_python = Site::generate(docs.path()).unwrap();
    let rust_page = page(&with_python, "v0.1.0.md");
    let paragraph = rust_page
        .split("\n\n")
        .find(|p| p.starts_with("The Python benchmark of this version"))
        .expect("the Rust page links the Python page");
    assert_eq!(
        rust_page.replacen(&format!("{paragraph}\n\n"), "", 1),
        page(&plain, "v0.1.0.md")
    );
    assert_eq!(
        page(&with_python, "dedup-measured.md"),
        page(&plain, "dedup-measured.md")
    );
    assert_eq!(with_python.files.len(), plain.files.len() + 1);
}

#[test]
fn regenerating_with_a_python_run_is_identical_and_its_changes_are_stale() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let run = docs.path().join("assets/bench/v0.1.0");
    write_python_run(&run, "ci", 1);
    let first = Site::generate(docs.path()).unwrap();
    first.write(docs.path()).unwrap();
    let second = Site::generate(docs.path()).unwrap();
    assert_eq!(first, second);
    assert_eq!(second.stale(docs.path()).unwrap(), []);

    // A changed number in python_summary.csv makes the Python page stale.
    let csv_path = run.join("python").join(docs_gen::PYTHON_SUMMARY);
    let csv = fs::read_to_string(&csv_path).unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_owned).collect();
    let mut fields: Vec<String> = lines[1].split(',').map(str::to_owned).collect();
    fields[4] = "123456789".to_owned();
    lines[1] = fields.join(",");
    fs::write(&csv_path, lines.join("\n") + "\n").unwrap();
    let site = Site::generate(docs.path()).unwrap();
    assert_eq!(
        site.stale(docs.path()).unwrap(),
        [Stale::Differs("src/bench/v0.1.0-python.md".into())]
    );
    let changed = format!("| {} |", surp_bench::duration(123_456_789));
    assert!(page(&site, "v0.1.0-python.md").contains(&changed));

    // Without python/, the Python page is extra and the links go.
    fs::remove_dir_all(run.join("python")).unwrap();
    let site = Site::generate(docs.path()).unwrap();
    let stale = site.stale(docs.path()).unwrap();
    assert!(stale.contains(&Stale::Extra("src/bench/v0.1.0-python.md".into())));
    assert!(stale.contains(&Stale::Differs("src/bench/v0.1.0.md".into())));
    assert!(stale.contains(&Stale::Differs("src/SUMMARY.md".into())));
}

#[test]
fn an_incomplete_or_mismatched_python_run_is_refused_with_the_reason() {
    let refused = |change: &dyn Fn(&Path)| -> String {
        let docs = docs_with_runs(&["v0.1.0"]);
        let run = docs.path().join("assets/bench/v0.1.0");
        write_python_run(&run, "ci", 1);
        change(&run.join("python"));
        let err = Site::generate(docs.path()).unwrap_err();
        assert!(matches!(
            err,
            DocsError::BadRun { .. } | DocsError::Io { .. }
        ));
        err.to_string()
    };
    let edit_csv = |dir: &Path, edit: &dyn Fn(Vec<String>) -> Vec<String>| {
        let path = dir.join(docs_gen::PYTHON_SUMMARY);
        let lines = fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        fs::write(&path, edit(lines).join("\n") + "\n").unwrap();
    };
    let edit_meta = |dir: &Path, edit: &dyn Fn(&mut serde_json::Value)| {
        let path = dir.join(docs_gen::PYTHON_META);
        let mut meta: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        edit(&mut meta);
        fs::write(&path, meta.to_string()).unwrap();
    };

    let message = refused(&|dir| fs::remove_file(dir.join(docs_gen::PYTHON_CHART)).unwrap());
    assert!(
        message.ends_with("python_chart.svg is missing"),
        "{message}"
    );

    let message = refused(&|dir| fs::remove_file(dir.join(docs_gen::PYTHON_META)).unwrap());
    assert!(message.contains("python_meta.json"), "{message}");

    let message = refused(&|dir| {
        edit_csv(dir, &|mut lines| {
            lines.pop();
            lines
        })
    });
    assert!(
        message.contains(
            "python_summary.csv has 11 rows, but 3 formats x 2 datasets x 2 operations make 12"
        ),
        "{message}"
    );

    let message = refused(&|dir| {
        edit_csv(dir, &|mut lines| {
            lines[1] = lines[1].replacen("surp,", "yaml,", 1);
            lines
        })
    });
    assert!(
        message
            .contains("line 2 names the format `yaml`, which python_meta.json does not describe"),
        "{message}"
    );

    let message = refused(&|dir| {
        edit_meta(dir, &|meta| meta["iterations"] = 3.into());
    });
    assert!(
        message.contains(
            "gives 1 iterations for surp encode on string_heavy, but python_meta.json says 3"
        ),
        "{message}"
    );

    let message = refused(&|dir| {
        edit_meta(dir, &|meta| meta["mode"] = "full".into());
    });
    assert!(
        message.contains("python_meta.json says mode full, but the Rust run's meta.json says ci"),
        "{message}"
    );

    let message = refused(&|dir| {
        edit_meta(dir, &|meta| {
            for d in meta["datasets"].as_array_mut().unwrap() {
                if d["name"] == "nested_deep" {
                    d["sha256"] = "00".repeat(32).into();
                }
            }
        });
    });
    assert!(
        message.contains("the two runs measured different data"),
        "{message}"
    );

    let message = refused(&|dir| {
        edit_meta(dir, &|meta| {
            meta["packages"]["pickle"] = meta["packages"]["surp"].clone();
        });
    });
    assert!(
        message.contains("describes the format `pickle`, which python_summary.csv has no row for"),
        "{message}"
    );
}
