//! The `dedup` list of `docs/vectors/surp-v1.json`, written by an encoder
//! that `docs/vectors/generate.py` implements from the spec independently:
//! every value deduplicates to its bytes, and the bytes decode to its value.

#[path = "../../surp/tests/notation/mod.rs"]
mod notation;

use notation::{hex_field, load, parse, same};
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
