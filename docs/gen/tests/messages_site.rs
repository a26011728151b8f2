//! A run's messages suite, end to end, on a real small run of the harness
//! beside the value suite's: its page, with the workloads (a stream that
//! repeats records says so), the guidance with Surp's sessions and
//! dictionaries, the charts, every cell and the command that reproduces
//! it; the links to it; and a run refused with the reason.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::{copy_dir, docs_with_runs, page, small_run, table_rows};
use docs_gen::{EVERY_CELL_HEADING, GUIDANCE_HEADING, Site};
use surp_bench::{FORMATS, Mode, Plan, Suite, Workload};

/// A typed workload, whose messages every format sends, and one of
/// dynamic values, which the formats that need the schema do not send.
const WORKLOADS: [Workload; 2] = [Workload::LogRecord, Workload::CitmEvent];

/// One small real run of the messages suite, made once: its `messages/`
/// folder.
fn messages_dir() -> &'static Path {
    static RUN: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = RUN.get_or_init(|| {
        let workloads = WORKLOADS.map(Into::into).to_vec();
        let formats = FORMATS.iter().collect();
        small_run(Plan::new(Mode::Ci, Suite::Messages, formats, workloads, Some(1)).unwrap())
    });
    static MESSAGES: OnceLock<PathBuf> = OnceLock::new();
    MESSAGES.get_or_init(|| dir.path().join(Suite::Messages.subfolder()))
}

/// A `docs/` folder with the small value run as v0.1.0 and the messages
/// run in its `messages/` folder.
fn docs_with_messages() -> tempfile::TempDir {
    let docs = docs_with_runs(&["v0.1.0"]);
    copy_dir(
        messages_dir(),
        &docs.path().join("assets/bench/v0.1.0/messages"),
    );
    docs
}

#[test]
fn a_messages_run_gets_a_page_of_its_own_that_says_which_streams_repeat() {
    let docs = docs_with_messages();
    let site = Site::generate(docs.path()).unwrap();
    let text = page(&site, "v0.1.0-messages.md");
    assert!(text.contains("# Benchmarks: v0.1.0, messages suite\n"));
    assert!(text.contains("stream of 1,000 small messages"));

    // In ci mode both workloads have fewer records than a stream has
    // messages, and the page says so in the table and in words.
    let workloads = table_rows(text, "## Workloads");
    assert_eq!(workloads.len(), WORKLOADS.len());
    assert!(workloads[0].starts_with("| `log_record` | one `LogRecord` of the typed `log`"));
    assert!(workloads[0].ends_with("| 200 | 800 | 1,000 | **1.25 (cycled)** |"));
    assert!(workloads[1].ends_with("| 36 | 148 | 1,000 | **6.76 (cycled)** |"));
    assert!(text.contains("**`log_record` and `citm_event` cycle**"));

    // The guidance: one statement per group of formats, the state kept
    // through the stream judged on no cycled workload, and Surp's own
    // session and dictionary against the zstd formats of their groups.
    let guidance =
        &text[text.find(GUIDANCE_HEADING).unwrap()..text.find("## Methodology").unwrap()];
    for group in [
        "- **Each message on its own, nothing shared** (Surp, Surp+Dedup, MessagePack, \
         MessagePack compact, postcard and Surp+zstd)",
        "- **Both ends compiled with the same Rust types** (MessagePack compact and postcard",
        "- **A dictionary both ends hold** (Surp+zstd dictionary and Surp dictionary, trained",
        "- **State kept for the whole stream** (Surp+zstd stream, Surp session and Surp \
         session+zstd stream)",
        "- **Surp dictionary** (learnt from the training records",
        " Against Surp+zstd dictionary, it was ",
    ] {
        assert!(guidance.contains(group), "{group}");
    }
    assert!(guidance.contains("Every workload of this run cycles, so its sizes here"));
    assert!(!guidance.contains("TODO"));

    for chart in Suite::Messages.charts() {
        let link = format!(
            "(../assets/bench/v0.1.0/messages/charts/{})",
            chart.file_name()
        );
        assert!(text.contains(&link), "{link}");
    }
    // Every row of summary.csv: eleven formats send the typed workload,
    // nine the other, each encoded and decoded.
    let rows = table_rows(text, EVERY_CELL_HEADING);
    assert_eq!(rows.len(), (11 + 9) * 2);
    let csv = fs::read_to_string(messages_dir().join("summary.csv")).unwrap();
    let (measurements, _) = surp_bench::parse_csv(&csv).unwrap();
    for m in &measurements {
        let start = format!("| {} | {} | {} | ", m.format.label, m.dataset, m.operation);
        let line = rows
            .iter()
            .find(|r| r.starts_with(&start))
            .unwrap_or_else(|| panic!("no row {start}"));
        // The fifth column is the mean size per message.
        let per_message = format!("{:.1}", m.bytes_per_message());
        assert_eq!(
            line.split(" | ").nth(4),
            Some(per_message.as_str()),
            "{line}"
        );
        let whole = format!("| {} |", surp_bench::thousands(m.size_bytes));
        assert!(line.ends_with(&whole), "{line}");
    }
    assert!(text.contains(
        "-- --mode ci --iterations 1 --suite messages --datasets log_record,citm_event --output \
         bench/results\n"
    ));

    // Linked from the value suite's page, the index and the contents.
    assert!(page(&site, "v0.1.0.md").contains("is on [its own page](v0.1.0-messages.md)"));
    assert!(page(&site, "index.md").contains("([messages suite](v0.1.0-messages.md))"));
    let summary = &site.files[&PathBuf::from("src/SUMMARY.md")];
    assert!(summary.contains(
        "    - [v0.1.0](bench/v0.1.0.md)\n        - [Messages suite](bench/v0.1.0-messages.md)\n"
    ));

    site.write(docs.path()).unwrap();
    let again = Site::generate(docs.path()).unwrap();
    assert_eq!(again, site);
    assert!(again.stale(docs.path()).unwrap().is_empty());
}

#[test]
fn a_messages_run_without_a_cell_of_a_format_it_measures_is_refused() {
    let docs = docs_with_messages();
    let csv_path = docs.path().join("assets/bench/v0.1.0/messages/summary.csv");
    let csv = fs::read_to_string(&csv_path).unwrap();
    let fewer: Vec<&str> = csv
        .lines()
        .filter(|line| !line.starts_with("postcard,log_record,decode,"))
        .collect();
    fs::write(&csv_path, fewer.join("\n") + "\n").unwrap();
    let message = Site::generate(docs.path()).unwrap_err().to_string();
    assert!(
        message.contains(
            "summary.csv has 39 rows, but 20 pairs of a format and a dataset it measures x 2 \
             operations make 40"
        ),
        "{message}"
    );
}
