//! The `dedup` list of `docs/vectors/surp-v2.json`, written by an encoder
//! that `docs/vectors/generate.py` implements from the spec independently:
//! every value deduplicates to its bytes, and the bytes decode to its value.

#[path = "../../surp/tests/notation/mod.rs"]
mod notation;

use std::collections::BTreeMap;

use notation::{hex_field, load, parse, same};
use serde::Deserialize;
use surp::Value;

#[test]
fn every_dedup_vector_encodes_to_its_bytes_and_back() {
    let doc = load();
    let vectors = doc["dedup"].as_array().unwrap();
    assert!(vectors.len() >= 10);
    for v in vectors {
        let value = parse(&v["value"]);
        let expected = hex_field(&v["hex"]);
        let actual = surp_dedup::to_vec(&value).unwrap();
        assert!(
            actual == expected,
            "{}: encoded {:02x?}\nexpected {:02x?}",
            v["name"],
            actual,
            expected
        );
        let decoded: Value =
            surp_dedup::from_slice(&expected).unwrap_or_else(|e| panic!("{}: {e}", v["name"]));
        let as_value = parse(v.get("decodes_as").unwrap_or(&v["value"]));
        assert!(
            same(&as_value, &decoded),
            "{}: decoded {decoded}",
            v["name"]
        );
    }
}

/// FNV-1a, 64 bits: the hash `generate.py` gives of documents too large to
/// store in the vectors file.
fn fnv1a64(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[test]
fn every_large_dedup_vector_encodes_to_its_hash_and_back() {
    let doc = load();
    let vectors = doc["dedup_large"].as_array().unwrap();
    assert!(!vectors.is_empty());
    for v in vectors {
        let name = &v["name"];
        let value = parse(&v["value"]);
        let actual = surp_dedup::to_vec(&value).unwrap();
        assert_eq!(actual.len() as u64, v["len"].as_u64().unwrap(), "{name}");
        let tail = hex_field(&v["tail"]);
        assert_eq!(&actual[actual.len() - tail.len()..], &tail[..], "{name}");
        assert_eq!(fnv1a64(&actual), v["fnv1a64"].as_str().unwrap(), "{name}");
        // Equal length and hash: these are the independent encoder's bytes.
        let decoded: Value = surp::from_slice(&actual).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(same(&value, &decoded), "{name}: decoded differently");
    }
}

/// The bytes of an encoder that stops adding table entries early
/// (`docs/spec.md` sections 7.1 and 7.2, "Limits").
#[test]
fn every_limited_dedup_vector_encodes_to_its_bytes_and_back() {
    let doc = load();
    let vectors = doc["dedup_limited"].as_array().unwrap();
    assert!(vectors.len() >= 3);
    for v in vectors {
        let name = &v["name"];
        let limits = &v["limits"];
        let options = surp_dedup::Options::new()
            .max_dedup_strings(limits["strings"].as_u64().unwrap() as usize)
            .max_dedup_shapes(limits["shapes"].as_u64().unwrap() as usize);
        let value = parse(&v["value"]);
        let expected = hex_field(&v["hex"]);
        assert_eq!(options.to_vec(&value).unwrap(), expected, "{name}");
        let decoded: Value = surp::from_slice(&expected).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(same(&value, &decoded), "{name}: decoded {decoded}");
    }
}

/// Section 7.2: a map in a value that a typed decoder skips registers its
/// shape, which a later map of the document refers to.
#[test]
fn a_shape_registered_in_a_skipped_value_serves_a_later_map() {
    #[derive(Deserialize, Debug)]
    struct Kept {
        kept: BTreeMap<String, u8>,
    }
    let doc = load();
    let name = "a map inside a value a typed decoder skips still registers its shape";
    let v = doc["dedup"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no vector {name:?}"));
    let bytes = hex_field(&v["hex"]);
    let shape_refs = bytes.iter().filter(|&&b| b == surp::wire::FIXSHAPE).count();
    assert_eq!(shape_refs, 1, "the later map is a reference to shape 0");
    let expected = BTreeMap::from([("inner".to_owned(), 2)]);
    let from_slice: Kept = surp::from_slice(&bytes).unwrap();
    assert_eq!(from_slice.kept, expected);
    let from_reader: Kept = surp::from_reader(&bytes[..]).unwrap();
    assert_eq!(from_reader.kept, expected);
}
