//! The Python run beside a Rust run, end to end: its page, the links to it,
//! and the runs refused with the reason. The run is written in the format
//! of a real one (see `common`).

mod common;

use std::fs;
use std::path::Path;

use common::{
    DATASETS, LANG_COMMIT, LANG_OPERATIONS, PYTHON_FORMATS, assert_linked, docs_with_runs,
    make_full_mode, page, python, table_rows,
};
use docs_gen::{LangMeta, PythonMeta, Site, Stale};
use surp_bench::Dataset;

/// Writes `python/` into the run folder `run`.
fn write_python_run(run: &Path, mode: &str, iterations: usize) {
    python().write(run, mode, iterations);
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
    let csv = python().rows(&run);
    assert_eq!(rows.len(), csv.len());
    assert_eq!(
        csv.len(),
        PYTHON_FORMATS.len() * DATASETS.len() * LANG_OPERATIONS.len()
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
        &format!("`{LANG_COMMIT}`"),
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
    assert!(text.contains(&format!("git checkout {LANG_COMMIT}\nbash surp-py/ci.sh\n")));
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
    assert_linked(&site, &PythonMeta::LANG);
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
        "```text\ngit checkout {LANG_COMMIT}\nbash surp-py/ci.sh\n\
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
    let python = python();
    let refused = |change: &dyn Fn(&Path)| python.refused(change);
    let edit_csv =
        |dir: &Path, edit: &dyn Fn(Vec<String>) -> Vec<String>| python.edit_csv(dir, edit);
    let edit_meta = |dir: &Path, edit: &dyn Fn(&mut serde_json::Value)| python.edit_meta(dir, edit);

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
