//! `surp-bench export`: writes every dataset to files that other languages'
//! harnesses and tests load, so they measure exactly the pinned data.
//!
//! For each dataset, verified against the manifest first, the folder gets:
//!
//! - `<name>.surp`: the plain Surp encoding of the neutral value
//!   (`surp::to_vec`);
//! - `<name>.json`: the same value in the value notation of the test
//!   vectors (`docs/spec.md`, section "Test vectors"): `{"int": "digits"}`,
//!   `{"float": "0x<bits>"}`, `{"bytes": "<hex>"}`, `{"map": [[k, v], …]}`
//!   and so on. Plain JSON would be ambiguous for a cross-language check: it
//!   has no bytes type (the harness writes base64 strings), and its
//!   decimal floats do not show bits. The notation is exact and already
//!   has a parser wherever the vectors are checked. It nests deeper than
//!   the value (an object and an array per array, more per map entry):
//!   nested_deep's file is 154 JSON levels deep, past serde_json's default
//!   limit of 128; Python's `json` reads it.
//!
//! and one `export.json` lists the files with the mode, the iteration
//! counts a harness in that mode uses, and each dataset's sha256.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use surp_datasets::{DATASET_VERSION, Dataset, Value, sha256_hex};

use crate::{BenchError, Mode};

/// The name of the index file an export writes.
pub const EXPORT_INDEX: &str = "export.json";

/// What `export.json` holds.
#[derive(Clone, Debug, Serialize)]
pub struct ExportIndex {
    /// "ci" or "full": which scale the generated datasets have.
    pub mode: &'static str,
    /// Timed iterations per cell that the Rust harness runs in this mode.
    pub iterations: usize,
    /// Untimed warm-up runs per format and operation in this mode.
    pub warmup_iterations: usize,
    /// The datasets' version.
    pub dataset_version: &'static str,
    /// The Surp wire format version the `.surp` files are written in.
    pub surp_format_version: u32,
    /// One entry per dataset, in [`Dataset::ALL`] order.
    pub datasets: Vec<ExportedDataset>,
}

/// One exported dataset.
#[derive(Clone, Debug, Serialize)]
pub struct ExportedDataset {
    /// The dataset's name, also the files' stem.
    pub name: &'static str,
    /// The Surp file, relative to the export folder.
    pub surp: String,
    /// The notation file, relative to the export folder.
    pub json: String,
    /// The size of the Surp file in bytes.
    pub surp_bytes: u64,
    /// The sha256 of the dataset's canonical bytes, as the manifest pins it.
    pub sha256: String,
}

/// Writes the given datasets at the mode's scale into `dir` (created if
/// missing; files are replaced) and returns what `export.json` says.
pub fn export(dir: &Path, mode: Mode, datasets: &[Dataset]) -> Result<ExportIndex, BenchError> {
    fs::create_dir_all(dir).map_err(BenchError::io(dir))?;
    let mut exported = Vec::with_capacity(datasets.len());
    for &dataset in datasets {
        let value = dataset.load(mode.scale())?;
        let name = dataset.name();
        let encoding_failed = |err: surp::Error| BenchError::Codec {
            format: "surp",
            dataset: dataset.into(),
            operation: crate::Operation::Encode,
            message: err.to_string(),
        };
        let surp_bytes = surp::to_vec(&value).map_err(encoding_failed)?;
        let surp_file = format!("{name}.surp");
        let surp_path = dir.join(&surp_file);
        fs::write(&surp_path, &surp_bytes).map_err(BenchError::io(&surp_path))?;

        let json_file = format!("{name}.json");
        write_notation(&dir.join(&json_file), &value)?;

        exported.push(ExportedDataset {
            name,
            surp: surp_file,
            json: json_file,
            surp_bytes: surp_bytes.len() as u64,
            sha256: sha256_hex(&value),
        });
    }
    let index = ExportIndex {
        mode: mode.name(),
        iterations: mode.default_iterations(),
        warmup_iterations: mode.warmup_iterations(),
        dataset_version: DATASET_VERSION,
        surp_format_version: surp::FORMAT_VERSION,
        datasets: exported,
    };
    let index_path = dir.join(EXPORT_INDEX);
    let text = serde_json::to_string_pretty(&index).expect("the index is plain data") + "\n";
    fs::write(&index_path, text).map_err(BenchError::io(&index_path))?;
    Ok(index)
}

fn write_notation(path: &PathBuf, value: &Value) -> Result<(), BenchError> {
    let file = File::create(path).map_err(BenchError::io(path))?;
    let mut out = BufWriter::new(file);
    serde_json::to_writer(&mut out, &Notation(value))
        .map_err(|err| BenchError::io(path)(err.into()))?;
    out.write_all(b"\n")
        .and_then(|()| out.flush())
        .map_err(BenchError::io(path))
}

/// A neutral value in the test-vector notation of `docs/spec.md`.
pub struct Notation<'a>(pub &'a Value);

impl Serialize for Notation<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        match self.0 {
            Value::Null => map.serialize_entry("null", &())?,
            Value::Bool(b) => map.serialize_entry("bool", b)?,
            Value::I64(v) => map.serialize_entry("int", &v.to_string())?,
            Value::U64(v) => map.serialize_entry("int", &v.to_string())?,
            Value::F64(v) => map.serialize_entry("float", &format!("{:#018x}", v.to_bits()))?,
            Value::String(text) => map.serialize_entry("str", text)?,
            Value::Bytes(bytes) => map.serialize_entry("bytes", &hex(bytes))?,
            Value::Array(items) => map.serialize_entry("array", &Items(items))?,
            Value::Map(entries) => map.serialize_entry("map", &Entries(entries))?,
        }
        map.end()
    }
}

struct Items<'a>(&'a [Value]);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(&Notation(item))?;
        }
        seq.end()
    }
}

struct Entries<'a>(&'a [(String, Value)]);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for (key, value) in self.0 {
            seq.serialize_element(&(Str(key), Notation(value)))?;
        }
        seq.end()
    }
}

/// A map key: a string, in the notation.
struct Str<'a>(&'a str);

impl Serialize for Str<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("str", self.0)?;
        map.end()
    }
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0x0f)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notation(value: &Value) -> String {
        serde_json::to_string(&Notation(value)).unwrap()
    }

    #[test]
    fn every_kind_of_value_is_written_in_the_vector_notation() {
        let value = Value::Map(vec![
            ("n".into(), Value::Null),
            ("b".into(), Value::Bool(true)),
            ("neg".into(), Value::I64(i64::MIN)),
            ("big".into(), Value::U64(u64::MAX)),
            ("f".into(), Value::F64(-0.0)),
            ("s".into(), Value::String("h\u{e9}\"".into())),
            ("raw".into(), Value::Bytes(vec![0, 0xab, 0xff])),
            ("list".into(), Value::Array(vec![Value::U64(1)])),
        ]);
        assert_eq!(
            notation(&value),
            r#"{"map":[[{"str":"n"},{"null":null}],[{"str":"b"},{"bool":true}],"#.to_owned()
                + r#"[{"str":"neg"},{"int":"-9223372036854775808"}],"#
                + r#"[{"str":"big"},{"int":"18446744073709551615"}],"#
                + r#"[{"str":"f"},{"float":"0x8000000000000000"}],"#
                + "[{\"str\":\"s\"},{\"str\":\"h\u{e9}\\\"\"}],"
                + r#"[{"str":"raw"},{"bytes":"00abff"}],"#
                + r#"[{"str":"list"},{"array":[{"int":"1"}]}]]}"#
        );
    }

    #[test]
    fn floats_are_written_as_their_sixteen_hex_digit_bits() {
        assert_eq!(
            notation(&Value::F64(1.0)),
            r#"{"float":"0x3ff0000000000000"}"#
        );
        assert_eq!(
            notation(&Value::F64(f64::from_bits(1))),
            r#"{"float":"0x0000000000000001"}"#
        );
    }
}
