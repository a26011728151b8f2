//! What the end-to-end tests of the generator share: one small real run of
//! the Rust harness, copied into a temporary `docs/` folder per test; runs
//! of the harnesses in other languages written in the format of real ones;
//! and ways to read a generated page and to spoil a run. Each test file
//! uses part of it.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use docs_gen::{DocsError, LIST_END, LIST_START, Lang, LangMeta, PythonMeta, Site};
use surp_bench::{Dataset, FORMATS, Mode, Options, Plan, Suite};

/// The formats of the small Rust run.
pub const FORMAT_NAMES: [&str; 5] = [
    "surp",
    "surp_dedup",
    "msgpack",
    "surp_zstd",
    "surp_dedup_zstd",
];
/// The datasets of the small Rust run.
pub const DATASETS: [Dataset; 2] = [Dataset::NestedDeep, Dataset::StringHeavy];

/// One small real run, made once and copied into each test's folder.
pub fn run_dir() -> &'static Path {
    static RUN: OnceLock<tempfile::TempDir> = OnceLock::new();
    RUN.get_or_init(|| {
        let formats = FORMATS
            .iter()
            .filter(|f| FORMAT_NAMES.contains(&f.name))
            .collect();
        let datasets = DATASETS.map(Into::into).to_vec();
        small_run(Plan::new(Mode::Ci, Suite::Value, formats, datasets, Some(1)).unwrap())
    })
    .path()
}

/// A real run of the harness on `plan`, in a new temporary folder.
pub fn small_run(plan: Plan) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    surp_bench::run(&Options {
        plans: vec![plan],
        output: dir.path().to_owned(),
        baseline: None,
        progress: false,
    })
    .unwrap();
    dir
}

/// A `docs/` folder with a SUMMARY.md and a copy of the run under each of
/// `versions`.
pub fn docs_with_runs(versions: &[&str]) -> tempfile::TempDir {
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

/// Copies the folder `from` to `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
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

/// The generated page `src/bench/<name>`.
pub fn page<'a>(site: &'a Site, name: &str) -> &'a str {
    &site.files[&PathBuf::from(format!("src/bench/{name}"))]
}

/// The data rows of the Markdown table under `heading`.
pub fn table_rows<'a>(page: &'a str, heading: &str) -> Vec<&'a str> {
    let after = &page[page.find(heading).expect("the heading is on the page")..];
    after
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .collect()
}

/// Asserts that the Rust run v0.1.0's page, the index and the table of
/// contents of `site` lead to the page of the run in `lang` beside it, the
/// only such run.
pub fn assert_linked(site: &Site, lang: &Lang) {
    let target = format!("v0.1.0-{}", lang.dir);
    assert!(page(site, "v0.1.0.md").contains(&format!("[its own page]({target}.md)")));
    let row = format!("| [v0.1.0](v0.1.0.md) ([{}]({target}.md)) |", lang.name);
    assert!(page(site, "index.md").contains(&row), "{row}");
    let entry = format!(
        "    - [v0.1.0](bench/v0.1.0.md)\n        - [{}](bench/{target}.md)\n",
        lang.name
    );
    assert!(
        site.files[&PathBuf::from("src/SUMMARY.md")].contains(&entry),
        "{entry}"
    );
}

/// Turns the run at `run` (a copy of the small ci run) into a full-mode run
/// of 20 iterations, as far as the generator can tell.
pub fn make_full_mode(run: &Path) {
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

// --- runs of the harnesses in other languages -------------------------------
//
// Running the Python or the JavaScript harness needs a venv or node_modules,
// which a cargo test cannot count on; so the tests write small runs in the
// format of real ones (the keys and shapes of their metadata and summaries),
// for the datasets of the real Rust run above and with its sha256s. Their
// numbers are made up for the tests and appear only in temporary folders.
// `bash docs/ci.sh` checks the committed runs end to end.

/// The commit the written runs name.
pub const LANG_COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";
/// The operations the written runs time.
pub const LANG_OPERATIONS: [&str; 2] = ["encode", "decode"];

/// A run of a language harness to write: where its files go and what its
/// metadata says besides the fields every such run has.
pub struct LangFixture<'a> {
    /// The language: where the run's files go, and the harness it names.
    pub lang: Lang,
    /// The summary's header; with `zstd_bytes`, each row ends with it empty.
    pub header: &'a str,
    /// The formats: name, package, call and how bytes travel.
    pub formats: &'a [(&'a str, &'a str, &'a str, &'a str)],
    /// The language's own fields of the metadata.
    pub extra: serde_json::Value,
    /// The methodology entries.
    pub methodology: serde_json::Value,
}

impl LangFixture<'_> {
    /// Writes the run into the run folder `run`: `mode` and `iterations` as
    /// given, the datasets and their sha256s from the run's meta.json, a
    /// package version of 0.1.0 for surp's and 9.9.9 for the others.
    pub fn write(&self, run: &Path, mode: &str, iterations: usize) {
        let rust: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(run.join("meta.json")).unwrap()).unwrap();
        let datasets: Vec<serde_json::Value> = rust["datasets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| serde_json::json!({"name": d["name"], "sha256": d["sha256"]}))
            .collect();
        let packages: serde_json::Map<String, serde_json::Value> = self
            .formats
            .iter()
            .map(|(name, package, call, bytes)| {
                let version = if *package == "surp" { "0.1.0" } else { "9.9.9" };
                let package = serde_json::json!({
                    "package": package, "version": version, "call": call, "bytes": bytes
                });
                (name.to_string(), package)
            })
            .collect();
        let mut meta = serde_json::json!({
            "harness": self.lang.harness,
            "mode": mode,
            "iterations": iterations,
            "packages": packages,
            "machine": {
                "os": "Linux", "release": "6.1.0", "arch": "x86_64",
                "cpu_model": "Test CPU 3000", "cores": 2
            },
            "dataset_version": rust["dataset_version"],
            "surp_format_version": 1,
            "datasets": datasets,
            "git": {"commit": LANG_COMMIT, "dirty": false},
            "methodology": self.methodology,
        });
        for (key, value) in self.extra.as_object().unwrap() {
            meta[key] = value.clone();
        }
        let dir = run.join(self.lang.dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join(self.lang.meta),
            serde_json::to_string_pretty(&meta).unwrap(),
        )
        .unwrap();
        let trailing = if self.header.ends_with(",zstd_bytes") {
            ","
        } else {
            ""
        };
        let mut csv = format!("{}\n", self.header);
        let mut n = 0u64;
        // In the export's order, Dataset::ALL's, as the harnesses measure
        // them.
        let datasets = Dataset::ALL.into_iter().filter(|d| DATASETS.contains(d));
        for d in datasets {
            for (i, (format, ..)) in self.formats.iter().enumerate() {
                let size = 1000 * (i as u64 + 1) + d as u64;
                for op in LANG_OPERATIONS {
                    n += 1;
                    let median = 10_000 * n;
                    csv.push_str(&format!(
                        "{format},{d},{op},{iterations},{median},{},{},{:.2},{:.2},{size}{trailing}\n",
                        median + 500,
                        median - 500,
                        n as f64 * 1.5,
                        size as f64 * 1e3 / median as f64
                    ));
                }
            }
        }
        fs::write(dir.join(self.lang.summary), csv).unwrap();
        fs::write(
            dir.join(self.lang.chart),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>\n",
        )
        .unwrap();
    }

    /// The rows of the run written into the run folder `run`, as fields.
    pub fn rows(&self, run: &Path) -> Vec<Vec<String>> {
        let csv = fs::read_to_string(run.join(self.lang.dir).join(self.lang.summary)).unwrap();
        csv.lines()
            .skip(1)
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect()
    }

    /// The message of the error the generator gives for a copy of the
    /// small run with this run (ci mode, one iteration) beside it, spoiled
    /// by `change` (given the run's folder).
    pub fn refused(&self, change: &dyn Fn(&Path)) -> String {
        let docs = docs_with_runs(&["v0.1.0"]);
        let run = docs.path().join("assets/bench/v0.1.0");
        self.write(&run, "ci", 1);
        change(&run.join(self.lang.dir));
        let err = Site::generate(docs.path()).unwrap_err();
        assert!(matches!(
            err,
            DocsError::BadRun { .. } | DocsError::Io { .. }
        ));
        err.to_string()
    }

    /// Rewrites the summary in the run's folder `dir` by `edit`, as lines.
    pub fn edit_csv(&self, dir: &Path, edit: &dyn Fn(Vec<String>) -> Vec<String>) {
        let path = dir.join(self.lang.summary);
        let lines = fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        fs::write(&path, edit(lines).join("\n") + "\n").unwrap();
    }

    /// Rewrites the metadata in the run's folder `dir` by `edit`.
    pub fn edit_meta(&self, dir: &Path, edit: &dyn Fn(&mut serde_json::Value)) {
        let path = dir.join(self.lang.meta);
        let mut meta: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        edit(&mut meta);
        fs::write(&path, meta.to_string()).unwrap();
    }
}

/// The formats of the written Python runs: name, package, call, bytes.
pub const PYTHON_FORMATS: [(&str, &str, &str, &str); 3] = [
    ("surp", "surp", "surp.dumps(v) / surp.loads(b)", "native"),
    (
        "msgpack",
        "msgpack",
        "msgpack.packb(v) / msgpack.unpackb(b), defaults (C extension; bin type for bytes)",
        "native",
    ),
    (
        "orjson",
        "orjson",
        "orjson.dumps(v, default=<bytes to base64 str>) / orjson.loads(b)",
        "base64 text",
    ),
];

/// A Python run of bench_surp.py's shape.
pub fn python() -> LangFixture<'static> {
    LangFixture {
        lang: PythonMeta::LANG,
        header: surp_bench::CSV_HEADER_V1,
        formats: &PYTHON_FORMATS,
        extra: serde_json::json!({
            "warmup_iterations": 1,
            "python": {"version": "3.11.7", "implementation": "CPython", "compiler": "GCC 12.2.0"},
            "matplotlib": "3.11.2",
        }),
        methodology: serde_json::json!({
            "check": "each format round-trips each dataset before timing",
            "order": "round-robin over the formats",
            "timer": "time.perf_counter_ns around one call",
            "gc": "the cyclic garbage collector is off while a dataset is measured",
            "p95": "nearest rank",
            "throughput": "serialized bytes / median time",
            "ops": "encode is dumps, decode is loads",
            "later": "an entry this generator has no label for"
        }),
    }
}
