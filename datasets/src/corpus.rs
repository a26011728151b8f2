//! The real-world corpus: three public JSON documents embedded in the binary
//! and parsed into the value model.
//!
//! They keep the benchmark honest about data nobody here designed. The files
//! are embedded with `include_bytes!` so a benchmark binary needs nothing
//! beside it; their provenance and licence are in `datasets/corpus/`.

use crate::canonical::sha256_of_bytes;
use crate::{Dataset, DatasetError, Value};

/// The embedded file behind a corpus dataset, and its file name.
pub(crate) fn file(dataset: Dataset) -> Option<(&'static str, &'static [u8])> {
    match dataset {
        Dataset::Twitter => Some((
            "twitter.json",
            include_bytes!("../corpus/twitter.json").as_slice(),
        )),
        Dataset::CitmCatalog => Some((
            "citm_catalog.json",
            include_bytes!("../corpus/citm_catalog.json").as_slice(),
        )),
        Dataset::Canada => Some((
            "canada.json",
            include_bytes!("../corpus/canada.json").as_slice(),
        )),
        _ => None,
    }
}

/// The sha256 of the embedded file, as SOURCE.md and the manifest write it.
pub(crate) fn file_sha256(dataset: Dataset) -> Option<String> {
    file(dataset).map(|(_, bytes)| sha256_of_bytes(bytes))
}

/// Parses the embedded file. Map order is kept because the value model's
/// maps are ordered vectors.
pub(crate) fn parse(dataset: Dataset) -> Result<Value, DatasetError> {
    let (_, bytes) = file(dataset).expect("parse is only called for corpus datasets");
    serde_json::from_slice(bytes).map_err(|source| DatasetError::CorpusParse { dataset, source })
}

/// What a record is in each document: a status in twitter, a performance in
/// citm_catalog, a `[longitude, latitude]` point in canada.
pub(crate) fn records(dataset: Dataset, value: &Value) -> u64 {
    fn points(value: &Value) -> u64 {
        match value {
            Value::Array(items)
                if !items.is_empty()
                    && items
                        .iter()
                        .all(|v| matches!(v, Value::F64(_) | Value::U64(_) | Value::I64(_))) =>
            {
                1
            }
            Value::Array(items) => items.iter().map(points).sum(),
            Value::Map(entries) => entries.iter().map(|(_, v)| points(v)).sum(),
            _ => 0,
        }
    }
    let array_len = |key: &str| match value.get(key) {
        Some(Value::Array(items)) => items.len() as u64,
        _ => 0,
    };
    match dataset {
        Dataset::Twitter => array_len("statuses"),
        Dataset::CitmCatalog => array_len("performances"),
        Dataset::Canada => points(value),
        _ => unreachable!("records of a generated dataset are counted by its generator"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_note_pins_the_same_file_sums_as_the_embedded_files() {
        let note = include_str!("../corpus/SOURCE.md");
        for dataset in Dataset::ALL.into_iter().filter(|d| d.is_corpus()) {
            let (name, _) = file(dataset).unwrap();
            let sum = file_sha256(dataset).unwrap();
            let row = note
                .lines()
                .find(|line| line.starts_with(&format!("| {name} |")))
                .unwrap_or_else(|| panic!("SOURCE.md has no row for {name}"));
            assert!(row.contains(&sum), "SOURCE.md row for {name} lacks {sum}");
        }
    }

    #[test]
    fn every_corpus_document_parses_with_its_records() {
        for (dataset, expected) in [
            (Dataset::Twitter, 100),
            (Dataset::CitmCatalog, 243),
            (Dataset::Canada, 55_563),
        ] {
            let value = parse(dataset).unwrap();
            assert_eq!(records(dataset, &value), expected, "{dataset}");
        }
    }
}
