//! The generator end to end, on real runs of the harness written into a
//! temporary `docs/` folder: pages for any number of runs, newest first,
//! byte-identical on regeneration, stale files reported, and incomplete runs
//! refused.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use docs_gen::{DocsError, LIST_END, LIST_START, Site, Stale};
use surp_bench::{Chart, Dataset, FORMATS, Mode, Operation, Options, Plan};

const FORMAT_NAMES: [&str; 3] = ["surp", "surp_dedup", "msgpack"];
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
        let plan = Plan::new(Mode::Ci, formats, DATASETS.to_vec(), Some(1)).unwrap();
        surp_bench::run(&Options {
            plan,
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
    assert_eq!(
        site.files.len(),
        3,
        "SUMMARY.md, the index and the dedup fragment"
    );
}

#[test]
fn a_run_gets_a_page_with_its_charts_and_every_cell() {
    let docs = docs_with_runs(&["v0.1.0"]);
    let site = Site::generate(docs.path()).unwrap();
    let text = page(&site, "v0.1.0.md");

    for chart in Chart::ALL {
        let link = format!("(../assets/bench/v0.1.0/charts/{})", chart.file_name());
        assert!(text.contains(&link), "{link}");
    }
    let rows = table_rows(text, docs_gen::EVERY_CELL_HEADING);
    assert_eq!(
        rows.len(),
        FORMAT_NAMES.len() * DATASETS.len() * Operation::ALL.len()
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
        assert!(line.ends_with(&format!("| {} |", surp_bench::thousands(m.size_bytes))));
    }

    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(run_dir().join("meta.json")).unwrap()).unwrap();
    for dataset in meta["datasets"].as_array().unwrap() {
        assert!(text.contains(dataset["sha256"].as_str().unwrap()));
    }
    if let Some(commit) = meta["git"]["commit"].as_str() {
        assert!(text.contains(&format!("git checkout {commit}")));
    }
    assert!(text.contains("--iterations 1 --formats surp,surp_dedup,msgpack --datasets"));

    let summary = &site.files[&PathBuf::from("src/SUMMARY.md")];
    assert!(summary.contains("    - [v0.1.0](bench/v0.1.0.md)\n"));
    let dedup = page(&site, "dedup-measured.md");
    assert!(dedup.contains("[v0.1.0 run](bench/v0.1.0.md)"));
    assert_eq!(table_rows(dedup, "| dataset |").len(), DATASETS.len());
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
        message(docs.path()).contains("summary.csv has 17 rows"),
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
