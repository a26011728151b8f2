//! Runs the harness end to end in a small configuration and checks its
//! output files: the CSV header and row count, every chart parsing as SVG,
//! reproducible sizes, and the regression check through the binary's exit
//! status.

use std::fs;
use std::path::Path;
use std::process::Command;

use surp_bench::{
    BenchDataset, CSV_HEADER, CSV_HEADER_MESSAGES, Chart, Dataset, FORMATS, Mode, Options, Plan,
    Suite, Workload,
};
use surp_datasets::typed::TypedDataset;

const DATASETS: [Dataset; 2] = [Dataset::StringHeavy, Dataset::NestedDeep];
const TYPED_DATASETS: [TypedDataset; 2] = [TypedDataset::Log, TypedDataset::GameSave];
/// One typed workload and one of dynamic values, which the formats that
/// need the schema do not send.
const WORKLOADS: [Workload; 2] = [Workload::LogRecord, Workload::CitmEvent];

fn datasets(suite: Suite) -> Vec<BenchDataset> {
    match suite {
        Suite::Value => DATASETS.map(BenchDataset::Value).to_vec(),
        Suite::Typed => TYPED_DATASETS.map(BenchDataset::Typed).to_vec(),
        Suite::Messages => WORKLOADS.map(BenchDataset::Messages).to_vec(),
    }
}

fn run_into(dir: &Path, baseline: Option<&Path>) -> surp_bench::Report {
    let plans = Suite::ALL
        .into_iter()
        .map(|suite| {
            Plan::new(
                Mode::Ci,
                suite,
                FORMATS.iter().collect(),
                datasets(suite),
                Some(2),
            )
            .unwrap()
        })
        .collect();
    let options = Options {
        plans,
        output: dir.to_owned(),
        baseline: baseline.map(Path::to_owned),
        progress: false,
    };
    surp_bench::run(&options).unwrap()
}

/// The `size_bytes` and `zstd_bytes` columns of a suite's summary.csv, and
/// the messages suite's `messages` and `bytes_per_message` after them (not
/// its time per message).
fn size_columns(dir: &Path) -> Vec<String> {
    fs::read_to_string(dir.join("summary.csv"))
        .unwrap()
        .lines()
        .map(|line| {
            line.split(',')
                .skip(9)
                .take(4)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn a_run_writes_every_output_file_of_every_suite() {
    let dir = tempfile::tempdir().unwrap();
    let report = run_into(dir.path(), None);
    assert_eq!(
        CSV_HEADER,
        "format,dataset,op,iterations,median_ns,p95_ns,min_ns,cv_pct,mb_per_s,size_bytes,zstd_bytes"
    );
    assert_eq!(report.suites.len(), 3);
    for suite_report in &report.suites {
        let suite = suite_report.plan.suite;
        let folder = dir.path().join(suite.subfolder());
        assert_eq!(suite_report.output, folder);
        let csv = fs::read_to_string(folder.join("summary.csv")).unwrap();
        let mut lines = csv.lines();
        let (header, columns) = match suite {
            Suite::Messages => (CSV_HEADER_MESSAGES, 14),
            Suite::Value | Suite::Typed => (CSV_HEADER, 11),
        };
        assert_eq!(lines.next(), Some(header));
        let rows: Vec<&str> = lines.collect();
        assert_eq!(suite_report.measurements.len(), rows.len());
        // Every format has every operation of the suite on every dataset
        // it measures, except that borrowed decoding is missing where the
        // format cannot borrow (ciborium, prost). In the messages suite the
        // formats that need the schema send only the typed workload.
        let missing = match suite {
            Suite::Value | Suite::Messages => 0,
            Suite::Typed => 2 * TYPED_DATASETS.len(),
        };
        assert_eq!(rows.len(), suite_report.plan.cells() - missing, "{suite}");
        if suite == Suite::Messages {
            let formats = suite_report.plan.formats.len();
            assert_eq!(rows.len(), (formats + formats - 2) * 2);
        }
        for row in &rows {
            let fields: Vec<&str> = row.split(',').collect();
            assert_eq!(fields.len(), columns, "{row}");
            assert_eq!(fields[3], "2", "{row}");
            let size = fields[9].parse::<u64>().unwrap();
            assert!(size > 0, "{row}");
            // A compressed pipeline's size is compressed already, and in
            // the messages suite zstd is a format: no zstd_bytes.
            let format = surp_bench::Format::from_name(fields[0]).unwrap();
            if format.is_compressed() || suite == Suite::Messages {
                assert_eq!(fields[10], "", "{row}");
            } else {
                assert!(fields[10].parse::<u64>().unwrap() > 0, "{row}");
            }
            if suite == Suite::Messages {
                let messages: u64 = fields[11].parse().unwrap();
                assert_eq!(messages, Mode::Ci.messages_per_stream() as u64, "{row}");
                // Each message's frame has a 4-byte length prefix.
                let per_message: f64 = fields[12].parse().unwrap();
                assert!(per_message > 4.0, "{row}");
                assert!((per_message * messages as f64 - size as f64).abs() < messages as f64);
            }
        }
        if suite == Suite::Typed {
            for format in [
                "surp",
                "msgpack_compact",
                "cbor4ii",
                "postcard",
                "bitcode",
                "surp_zstd",
                "surp_dedup_zstd",
            ] {
                for dataset in TYPED_DATASETS {
                    let prefix = format!("{format},{dataset},decode_borrowed,");
                    assert!(rows.iter().any(|r| r.starts_with(&prefix)), "{prefix}");
                }
            }
        }

        for chart in suite.charts() {
            let path = folder.join("charts").join(chart.file_name());
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
            for dataset in &suite_report.plan.datasets {
                assert!(
                    texts.contains(&dataset.name()),
                    "{} lacks {dataset}",
                    chart.file_name()
                );
            }
            // The compressed pipelines are in no chart (the messages suite
            // has none: its compressed formats are compared like any).
            for pipeline in suite_report
                .plan
                .formats
                .iter()
                .filter(|f| f.is_pipeline_in(suite))
            {
                assert!(
                    !texts.contains(&pipeline.label),
                    "{} has {}",
                    chart.file_name(),
                    pipeline.label
                );
            }
            let chart_formats = suite_report
                .plan
                .compared_formats()
                .into_iter()
                .filter(|f| {
                    // No bars, so no legend entry, where a format has no cell.
                    !(chart == surp_bench::Chart::Time(surp_bench::Operation::DecodeBorrowed)
                        && matches!(f.name, "cbor" | "protobuf"))
                });
            for format in chart_formats {
                let expected = if format.needs_schema_in(suite) {
                    format!("{} (schema)", format.label)
                } else {
                    format.label.to_owned()
                };
                assert!(
                    texts.contains(&expected.as_str()),
                    "{} lacks {expected}",
                    chart.file_name()
                );
            }
        }

        let meta: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(folder.join("meta.json")).unwrap()).unwrap();
        assert_eq!(meta["mode"], "ci");
        assert_eq!(meta["suite"], suite.name());
        assert_eq!(meta["iterations"], 2);
        assert_eq!(meta["regressions"], serde_json::json!([]));
        assert_eq!(meta["datasets"].as_array().unwrap().len(), 2);
        assert!(meta["rustc"].as_str().unwrap().starts_with("rustc "));
        assert_eq!(meta["dataset_version"], suite.dataset_version());

        let markdown = fs::read_to_string(folder.join("summary.md")).unwrap();
        let mut headings = vec![
            "## Encode",
            "## Decode",
            "## Surp against the field",
            "## Every cell",
        ];
        match suite {
            Suite::Value | Suite::Typed => headings.extend([
                "## Serialized size",
                "## Size after zstd",
                "## Roundtrip",
                "## Compressed with zstd",
            ]),
            Suite::Messages => headings.push("## Bytes per message"),
        }
        if suite == Suite::Typed {
            headings.push("## Borrowed decode");
        }
        if suite == Suite::Messages {
            // How each stream was cut, cycles included, is in meta.json.
            let workloads = meta["workloads"].as_array().unwrap();
            let names: Vec<&str> = workloads
                .iter()
                .map(|w| w["name"].as_str().unwrap())
                .collect();
            assert_eq!(names, ["log_record", "citm_event"]);
            let citm = &workloads[1];
            assert_eq!(citm["dataset"], "citm_catalog");
            assert_eq!(citm["records"], 184);
            assert_eq!(citm["training_records"], 36);
            assert_eq!(citm["distinct_messages"], 148);
            assert_eq!(citm["messages"], 1_000);
            assert!(citm["sends_per_record"].as_f64().unwrap() > 6.0);
            let streams = meta["methodology"]["streams"].as_str().unwrap();
            assert!(streams.contains("cycles"), "{streams}");
        } else {
            assert!(meta.get("workloads").is_none());
        }
        for heading in headings {
            assert!(
                markdown.contains(heading),
                "{suite} summary.md lacks {heading}"
            );
        }
    }
}

#[test]
fn two_runs_give_identical_sizes_and_an_identical_size_chart() {
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    run_into(first.path(), None);
    run_into(second.path(), None);
    for suite in Suite::ALL {
        let folder = |dir: &Path| dir.join(suite.subfolder());
        assert_eq!(
            size_columns(&folder(first.path())),
            size_columns(&folder(second.path()))
        );
        for chart in suite.charts() {
            if !matches!(chart, Chart::Size | Chart::ZstdSize) {
                continue;
            }
            let name = chart.file_name();
            let read = |dir: &Path| fs::read(folder(dir).join("charts").join(name)).unwrap();
            assert_eq!(read(first.path()), read(second.path()), "{suite} {name}");
        }
    }
}

#[test]
fn a_rerun_against_its_own_output_finds_no_size_change() {
    let baseline = tempfile::tempdir().unwrap();
    let current = tempfile::tempdir().unwrap();
    run_into(baseline.path(), None);
    let report = run_into(current.path(), Some(baseline.path()));
    for suite_report in &report.suites {
        let comparison = &suite_report.meta.comparison;
        let expected = baseline.path().join(suite_report.plan.suite.subfolder());
        assert_eq!(
            comparison.baseline.as_deref(),
            Some(expected.to_str().unwrap())
        );
        assert!(
            comparison.size_changes.is_empty(),
            "{:?}",
            comparison.size_changes
        );
    }
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
            "--suite".to_owned(),
            "value".to_owned(),
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
                let mut fields: Vec<String> = line.split(',').map(str::to_owned).collect();
                fields[9] = (fields[9].parse::<u64>().unwrap() + 1).to_string();
                fields.join(",")
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
