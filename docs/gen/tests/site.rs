//! The generator end to end, on real runs of the harness written into a
//! temporary `docs/` folder: pages for any number of runs, newest first,
//! byte-identical on regeneration, stale files reported, and incomplete runs
//! refused.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{DATASETS, FORMAT_NAMES, docs_with_runs, page, run_dir, table_rows};
use docs_gen::{DocsError, Site, Stale};
use surp_bench::Suite;

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
