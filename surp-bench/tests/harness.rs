//! Runs the harness end to end in a small configuration and checks its
//! output files: the CSV header and row count, every chart parsing as SVG,
//! reproducible sizes, and the regression check through the binary's exit
//! status.

use std::fs;
use std::path::Path;
use std::process::Command;

use surp_bench::{CSV_HEADER, Chart, Dataset, FORMATS, Mode, Operation, Options, Plan};

const DATASETS: [Dataset; 2] = [Dataset::StringHeavy, Dataset::NestedDeep];

fn run_into(dir: &Path, baseline: Option<&Path>) -> surp_bench::Report {
    let plan = Plan::new(
        Mode::Ci,
        FORMATS.iter().collect(),
        DATASETS.to_vec(),
        Some(2),
    )
    .unwrap();
    let options = Options {
        plan,
        output: dir.to_owned(),
        baseline: baseline.map(Path::to_owned),
        progress: false,
    };
    surp_bench::run(&options).unwrap()
}

fn size_column(dir: &Path) -> Vec<String> {
    fs::read_to_string(dir.join("summary.csv"))
        .unwrap()
        .lines()
        .map(|line| line.rsplit(',').next().unwrap().to_owned())
        .collect()
}

#[test]
fn a_run_writes_every_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let report = run_into(dir.path(), None);

    let csv = fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(CSV_HEADER));
    assert_eq!(
        CSV_HEADER,
        "format,dataset,op,iterations,median_ns,p95_ns,min_ns,cv_pct,mb_per_s,size_bytes"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(
        rows.len(),
        FORMATS.len() * DATASETS.len() * Operation::ALL.len()
    );
    assert_eq!(report.measurements.len(), rows.len());
    for row in &rows {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), 10, "{row}");
        assert_eq!(fields[3], "2", "{row}");
        assert!(fields[9].parse::<u64>().unwrap() > 0, "{row}");
    }

    for chart in Chart::ALL {
        let path = dir.path().join("charts").join(chart.file_name());
        let text = fs::read_to_string(&path).unwrap();
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|err| panic!("{} is not XML: {err}", path.display()));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let texts: Vec<&str> = root
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        for dataset in DATASETS {
            assert!(
                texts.contains(&dataset.name()),
                "{} lacks {dataset}",
                chart.file_name()
            );
        }
        for format in &FORMATS {
            assert!(
                texts.contains(&format.label),
                "{} lacks {}",
                chart.file_name(),
                format.label
            );
        }
    }

    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["mode"], "ci");
    assert_eq!(meta["iterations"], 2);
    assert_eq!(meta["regressions"], serde_json::json!([]));
    assert_eq!(meta["datasets"].as_array().unwrap().len(), DATASETS.len());
    assert!(meta["rustc"].as_str().unwrap().starts_with("rustc "));

    let markdown = fs::read_to_string(dir.path().join("summary.md")).unwrap();
    for heading in [
        "## Serialized size",
        "## Encode",
        "## Decode",
        "## Roundtrip",
        "## Surp against the field",
        "## Every cell",
    ] {
        assert!(markdown.contains(heading), "summary.md lacks {heading}");
    }
}

#[test]
fn two_runs_give_identical_sizes_and_an_identical_size_chart() {
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    run_into(first.path(), None);
    run_into(second.path(), None);
    assert_eq!(size_column(first.path()), size_column(second.path()));
    let chart = |dir: &Path| fs::read(dir.join("charts/size.svg")).unwrap();
    assert_eq!(chart(first.path()), chart(second.path()));
}

#[test]
fn a_rerun_against_its_own_output_finds_no_size_change() {
    let baseline = tempfile::tempdir().unwrap();
    let current = tempfile::tempdir().unwrap();
    run_into(baseline.path(), None);
    let report = run_into(current.path(), Some(baseline.path()));
    let comparison = &report.meta.comparison;
    assert_eq!(
        comparison.baseline.as_deref(),
        Some(baseline.path().to_str().unwrap())
    );
    assert!(
        comparison.size_changes.is_empty(),
        "{:?}",
        comparison.size_changes
    );
    assert!(
        report
            .regressions()
            .iter()
            .all(|r| matches!(r, surp_bench::Regression::Time { .. })),
        "{:?}",
        report.regressions()
    );
}

#[test]
fn check_fails_the_binary_when_surps_size_changed() {
    let baseline = tempfile::tempdir().unwrap();
    let current = tempfile::tempdir().unwrap();
    let args = |out: &Path| {
        vec![
            "--mode".to_owned(),
            "ci".to_owned(),
            "--formats".to_owned(),
            "surp,json".to_owned(),
            "--datasets".to_owned(),
            "nested_deep".to_owned(),
            "--iterations".to_owned(),
            "1".to_owned(),
            "--no-progress".to_owned(),
            "--output".to_owned(),
            out.display().to_string(),
        ]
    };
    let bench = env!("CARGO_BIN_EXE_surp-bench");
    let made = Command::new(bench)
        .args(args(baseline.path()))
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );

    // Pretend the baseline's Surp encoding of the dataset was one byte longer.
    let csv_path = baseline.path().join("summary.csv");
    let csv = fs::read_to_string(&csv_path).unwrap();
    let tampered: Vec<String> = csv
        .lines()
        .map(|line| match line.strip_prefix("surp,") {
            Some(_) => {
                let (head, size) = line.rsplit_once(',').unwrap();
                format!("{head},{}", size.parse::<u64>().unwrap() + 1)
            }
            None => line.to_owned(),
        })
        .collect();
    fs::write(&csv_path, tampered.join("\n") + "\n").unwrap();

    let mut checked = args(current.path());
    checked.extend(["--check".to_owned(), "--baseline".to_owned()]);
    checked.push(baseline.path().display().to_string());
    let out = Command::new(bench).args(&checked).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("REGRESSION surp on nested_deep: size changed"),
        "{stdout}"
    );

    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(current.path().join("meta.json")).unwrap())
            .unwrap();
    let regressions = meta["regressions"].as_array().unwrap();
    assert!(
        regressions
            .iter()
            .any(|r| r["kind"] == "size" && r["format"] == "surp" && r["delta_bytes"] == -1),
        "{regressions:?}"
    );
}
