//! Differential tests against serde_json on real-world documents: the three
//! corpus files in `datasets/corpus/` (twitter, citm_catalog, canada) and a
//! hand-written file of edge cases (`tests/data/edge_cases.json`).
//!
//! For each document, what serde_json parses must come back unchanged from
//! - `serde_json::Value` -> Surp -> `serde_json::Value`,
//! - the same through surp_dedup,
//! - `surp::Value` (deserialized from the JSON text) -> Surp (plain and
//!   deduplicated) -> `surp::Value` -> `serde_json::Value`,
//!
//! decoding each from a slice and from a reader. Numbers are compared by
//! kind and bits, so `-0.0` and `0.0` differ and an integer stays an integer.

#[path = "../../surp/tests/common/mod.rs"]
mod common;

use serde_json::{Number, Value as Json};
use surp_datasets::Dataset;

/// The documents: name and JSON text.
fn documents() -> Vec<(&'static str, &'static [u8])> {
    let mut docs: Vec<_> = [Dataset::Twitter, Dataset::CitmCatalog, Dataset::Canada]
        .into_iter()
        .map(|d| {
            (
                d.name(),
                d.corpus_json().expect("a corpus dataset has its JSON"),
            )
        })
        .collect();
    docs.push(("edge_cases", include_bytes!("data/edge_cases.json")));
    docs
}

/// Numbers compare by kind (unsigned, signed, float) and floats by bits.
fn same_number(a: &Number, b: &Number) -> bool {
    match (a.as_u64(), a.as_i64(), a.as_f64()) {
        (Some(x), _, _) => b.as_u64() == Some(x),
        (None, Some(x), _) => b.as_u64().is_none() && b.as_i64() == Some(x),
        (None, None, Some(x)) => b.is_f64() && b.as_f64().map(f64::to_bits) == Some(x.to_bits()),
        _ => false,
    }
}

/// Structural equality with numbers compared by [`same_number`]; returns the
/// path of the first difference.
fn first_difference(a: &Json, b: &Json, path: &str) -> Option<String> {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            (!same_number(x, y)).then(|| format!("{path}: {x} vs {y}"))
        }
        (Json::Array(x), Json::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path}: {} vs {} items", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| first_difference(p, q, &format!("{path}[{i}]")))
        }
        (Json::Object(x), Json::Object(y)) => {
            if x.len() != y.len() || x.keys().ne(y.keys()) {
                return Some(format!("{path}: keys differ"));
            }
            x.iter()
                .zip(y.values())
                .find_map(|((k, p), q)| first_difference(p, q, &format!("{path}.{k}")))
        }
        _ => (a != b).then(|| format!("{path}: {a} vs {b}")),
    }
}

#[track_caller]
fn assert_same(original: &Json, back: &Json, what: &str) {
    if let Some(diff) = first_difference(original, back, "$") {
        panic!("{what}: first difference at {diff}");
    }
}

#[test]
fn serde_json_values_survive_surp_unchanged() {
    for (name, text) in documents() {
        let original: Json = serde_json::from_slice(text).unwrap();
        let bytes = surp::to_vec(&original).unwrap();
        assert_same(
            &original,
            &surp::from_slice(&bytes).unwrap(),
            &format!("{name}, slice"),
        );
        assert_same(
            &original,
            &surp::from_reader(&bytes[..]).unwrap(),
            &format!("{name}, reader"),
        );
    }
}

#[test]
fn serde_json_values_survive_surp_dedup_unchanged() {
    for (name, text) in documents() {
        let original: Json = serde_json::from_slice(text).unwrap();
        let plain = surp::to_vec(&original).unwrap();
        let bytes = surp_dedup::to_vec(&original).unwrap();
        assert!(
            bytes.len() <= plain.len(),
            "{name}: dedup {} > plain {}",
            bytes.len(),
            plain.len()
        );
        println!(
            "{name}: JSON {} bytes, Surp {}, Surp+Dedup {}",
            text.len(),
            plain.len(),
            bytes.len()
        );
        assert_same(
            &original,
            &surp_dedup::from_slice(&bytes).unwrap(),
            &format!("{name}, slice"),
        );
        let from_reader = surp_dedup::from_reader(&bytes[..]).unwrap();
        assert_same(&original, &from_reader, &format!("{name}, reader"));
        // Every Surp decoder reads deduplicated documents.
        assert_same(
            &original,
            &surp::from_slice(&bytes).unwrap(),
            &format!("{name}, surp"),
        );
    }
}

#[test]
fn surp_values_parsed_from_json_survive_both_encodings_unchanged() {
    for (name, text) in documents() {
        let original: Json = serde_json::from_slice(text).unwrap();
        let value: surp::Value = serde_json::from_slice(text).unwrap();
        assert_same(
            &original,
            &serde_json::to_value(&value).unwrap(),
            &format!("{name}, via surp::Value"),
        );
        let encodings = [
            ("plain", surp::to_vec(&value).unwrap()),
            ("dedup", surp_dedup::to_vec(&value).unwrap()),
        ];
        for (encoding, bytes) in encodings {
            let from_slice: surp::Value = surp::from_slice(&bytes).unwrap();
            let from_reader: surp::Value = surp::from_reader(&bytes[..]).unwrap();
            for (path, back) in [("slice", from_slice), ("reader", from_reader)] {
                assert!(
                    common::same_bits(&back, &value),
                    "{name}, {encoding}, {path}: the surp::Value changed"
                );
                let json = serde_json::to_value(&back).unwrap();
                assert_same(&original, &json, &format!("{name}, {encoding}, {path}"));
            }
        }
    }
}

#[test]
fn the_comparison_sees_the_differences_it_claims_to() {
    let a: Json = serde_json::from_str(r#"{"x": [1, 0.0, "s"]}"#).unwrap();
    for other in [
        r#"{"x": [1, -0.0, "s"]}"#,
        r#"{"x": [1.0, 0.0, "s"]}"#,
        r#"{"x": [1, 0.0, "t"]}"#,
        r#"{"x": [1, 0.0]}"#,
        r#"{"y": [1, 0.0, "s"]}"#,
    ] {
        let b: Json = serde_json::from_str(other).unwrap();
        assert!(first_difference(&a, &b, "$").is_some(), "{other}");
    }
    assert_eq!(first_difference(&a, &a.clone(), "$"), None);
}
