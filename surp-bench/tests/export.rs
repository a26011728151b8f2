//! `surp-bench export`: the files it writes hold exactly the pinned datasets,
//! in plain Surp and in the test-vector notation, and `export.json` lists
//! them with the mode's iteration counts.

use std::fs;
use std::path::Path;
use std::process::Command;

use surp_bench::{Dataset, EXPORT_INDEX, Mode, export};
use surp_datasets::Value;

/// Small datasets that between them hold every kind of value. (Not
/// nested_deep: its notation nests deeper than serde_json's default limit
/// of 128, which this test's reader keeps.)
const DATASETS: [Dataset; 3] = [
    Dataset::StringHeavy,
    Dataset::BinaryBlobs,
    Dataset::NumericHeavy,
];

/// Reads a value back from the notation (the inverse of `Notation`).
fn from_notation(node: &serde_json::Value) -> Value {
    let (kind, body) = node
        .as_object()
        .and_then(|o| o.iter().next())
        .expect("a notation node is a one-entry object");
    match kind.as_str() {
        "null" => Value::Null,
        "bool" => Value::Bool(body.as_bool().unwrap()),
        "int" => {
            let digits = body.as_str().unwrap();
            match digits.parse::<u64>() {
                Ok(v) => Value::U64(v),
                Err(_) => Value::I64(digits.parse().unwrap()),
            }
        }
        "float" => {
            let hex = body.as_str().unwrap().strip_prefix("0x").unwrap();
            Value::F64(f64::from_bits(u64::from_str_radix(hex, 16).unwrap()))
        }
        "str" => Value::String(body.as_str().unwrap().to_owned()),
        "bytes" => {
            let hex = body.as_str().unwrap();
            Value::Bytes(
                (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect(),
            )
        }
        "array" => Value::Array(body.as_array().unwrap().iter().map(from_notation).collect()),
        "map" => Value::Map(
            body.as_array()
                .unwrap()
                .iter()
                .map(|pair| {
                    let Value::String(key) = from_notation(&pair[0]) else {
                        panic!("the model's keys are strings")
                    };
                    (key, from_notation(&pair[1]))
                })
                .collect(),
        ),
        other => panic!("unknown notation kind {other}"),
    }
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

#[test]
fn an_export_writes_each_dataset_in_surp_and_in_the_notation() {
    let dir = tempfile::tempdir().unwrap();
    let index = export(dir.path(), Mode::Ci, &DATASETS).unwrap();
    assert_eq!(index.datasets.len(), DATASETS.len());
    for (entry, dataset) in index.datasets.iter().zip(DATASETS) {
        let value = dataset.load(Mode::Ci.scale()).unwrap();
        assert_eq!(entry.name, dataset.name());

        let surp_bytes = fs::read(dir.path().join(&entry.surp)).unwrap();
        assert_eq!(surp_bytes, surp::to_vec(&value).unwrap(), "{dataset}");
        assert_eq!(entry.surp_bytes, surp_bytes.len() as u64);
        assert_eq!(surp::from_slice::<Value>(&surp_bytes).unwrap(), value);

        let notation = read_json(&dir.path().join(&entry.json));
        assert_eq!(from_notation(&notation), value, "{dataset}");
        assert_eq!(entry.sha256, surp_datasets::sha256_hex(&value));
    }
}

#[test]
fn the_index_passes_on_the_modes_iteration_counts() {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path(), Mode::Full, &[Dataset::Canada]).unwrap();
    let index = read_json(&dir.path().join(EXPORT_INDEX));
    assert_eq!(index["mode"], "full");
    assert_eq!(index["iterations"], Mode::Full.default_iterations());
    assert_eq!(index["warmup_iterations"], Mode::Full.warmup_iterations());
    assert_eq!(index["surp_format_version"], surp::FORMAT_VERSION);
    assert_eq!(index["datasets"][0]["surp"], "canada.surp");
    assert_eq!(index["datasets"][0]["json"], "canada.json");
}

#[test]
fn the_export_command_writes_into_its_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nested/export");
    let status = Command::new(env!("CARGO_BIN_EXE_surp-bench"))
        .args(["export", "--datasets", "nested_deep", "--output"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let stdout = String::from_utf8(status.stdout).unwrap();
    assert!(
        stdout.starts_with("Exported 1 datasets (ci mode) to "),
        "{stdout}"
    );
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["export.json", "nested_deep.json", "nested_deep.surp"]
    );
}
