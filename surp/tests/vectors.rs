//! Checks `docs/vectors/surp-v2.json` both ways: every vector's value encodes
//! to its bytes, and its bytes decode to its value; every invalid case is
//! rejected with the documented error kind and offset; and every truncation
//! of a vector is rejected.

use serde::Deserialize;
use serde::de::IgnoredAny;
use surp::{Category, ErrorKind, Value};

mod notation;

use notation::{hex_field, load, parse, same};

#[test]
fn every_vector_encodes_to_its_bytes() {
    let doc = load();
    let vectors = doc["vectors"].as_array().unwrap();
    assert!(vectors.len() > 300);
    for v in vectors {
        let value = parse(&v["value"]);
        let expected = hex_field(&v["hex"]);
        let actual = surp::to_vec(&value).unwrap();
        assert!(
            actual == expected,
            "{}: encoded {:02x?}, expected {:02x?}",
            v["name"],
            &actual[..actual.len().min(16)],
            &expected[..expected.len().min(16)]
        );
    }
}

#[test]
fn every_vector_decodes_to_its_value() {
    let doc = load();
    for v in doc["vectors"].as_array().unwrap() {
        let expected = parse(v.get("decodes_as").unwrap_or(&v["value"]));
        let bytes = hex_field(&v["hex"]);
        let decoded: Value =
            surp::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", v["name"]));
        assert!(
            same(&expected, &decoded),
            "{}: decoded {decoded}",
            v["name"]
        );
        let from_reader: Value = surp::from_reader(&bytes[..]).unwrap();
        assert!(
            same(&expected, &from_reader),
            "{}: from_reader decoded {from_reader}",
            v["name"]
        );
    }
}

/// Documents at the depth limit of `docs/spec.md` section 4: the default
/// limit is exactly what the vectors assume, so each one encodes to its
/// bytes and decodes back, and one more level (in `invalid`) is an error.
#[test]
fn every_deep_vector_is_accepted_at_the_limit_both_ways() {
    let doc = load();
    let vectors = doc["deep"].as_array().unwrap();
    assert!(vectors.len() >= 3);
    for v in vectors {
        let name = &v["name"];
        let value = parse(&v["value"]);
        let expected = hex_field(&v["hex"]);
        assert_eq!(surp::to_vec(&value).unwrap(), expected, "{name}");
        assert_eq!(nesting_depth(&expected), surp::DEFAULT_MAX_DEPTH, "{name}");
        let as_value = parse(v.get("decodes_as").unwrap_or(&v["value"]));
        let decoded: Value = surp::from_slice(&expected).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(same(&as_value, &decoded), "{name}: decoded {decoded}");
        let from_reader: Value = surp::from_reader(&expected[..]).unwrap();
        assert!(same(&as_value, &from_reader), "{name}: from_reader");
        surp::from_slice::<IgnoredAny>(&expected).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The most nesting tokens (array and map headers, `some` tags) open at once
/// in a plain document, counted from the tags alone.
fn nesting_depth(bytes: &[u8]) -> usize {
    let mut open: Vec<u64> = Vec::new();
    let mut deepest = 0;
    let mut at = 0;
    while at < bytes.len() {
        let (header, size) = surp::wire::decode_header(&bytes[at..], at).unwrap();
        at += size;
        let items = match header {
            surp::wire::Header::Len(surp::wire::Kind::Array, n) => Some(n),
            surp::wire::Header::Len(surp::wire::Kind::Map, n) => Some(2 * n),
            surp::wire::Header::Some => Some(1),
            surp::wire::Header::Len(_, n) => {
                at += n as usize;
                None
            }
            _ => None,
        };
        match items {
            Some(n) if n > 0 => {
                open.push(n);
                deepest = deepest.max(open.len());
                continue;
            }
            _ => {}
        }
        // A complete value: count it off the containers it completes.
        while let Some(left) = open.last_mut() {
            *left -= 1;
            if *left > 0 {
                break;
            }
            open.pop();
        }
    }
    deepest
}

#[test]
fn every_decode_only_form_is_accepted() {
    let doc = load();
    for v in doc["decode_only"].as_array().unwrap() {
        let expected = parse(&v["value"]);
        let decoded: Value = surp::from_slice(&hex_field(&v["hex"]))
            .unwrap_or_else(|e| panic!("{}: {e}", v["name"]));
        assert!(
            same(&expected, &decoded),
            "{}: decoded {decoded}",
            v["name"]
        );
    }
}

#[test]
fn every_tag_byte_is_covered_by_a_vector_or_an_invalid_case() {
    let doc = load();
    let mut seen = [false; 256];
    let mut mark = |bytes: &[u8]| {
        // Walk the document's tags with the wire layer's reference decoder.
        let mut at = 0;
        while at < bytes.len() {
            seen[bytes[at] as usize] = true;
            match surp::wire::decode_header(&bytes[at..], at) {
                Ok((
                    surp::wire::Header::Len(surp::wire::Kind::Str | surp::wire::Kind::Bytes, n),
                    size,
                )) => {
                    at += size + n as usize;
                }
                Ok((_, size)) => at += size,
                Err(_) => break,
            }
        }
    };
    for list in ["vectors", "decode_only", "dedup", "invalid"] {
        for v in doc[list].as_array().unwrap() {
            mark(&hex_field(&v["hex"]));
        }
    }
    let missing: Vec<String> = (0..256)
        .filter(|&t| !seen[t])
        .map(|t| format!("{t:#04x}"))
        .collect();
    assert!(missing.is_empty(), "tags with no vector: {missing:?}");
}

#[test]
fn every_invalid_case_is_rejected_with_its_kind_and_offset() {
    let doc = load();
    for case in doc["invalid"].as_array().unwrap() {
        let bytes = hex_field(&case["hex"]);
        // From a slice and from a reader alike (issue 19: a reader placed
        // root-value errors of deduplicated documents at the marker).
        for (path, result) in decode_both(&bytes) {
            assert_rejected_as_listed(case, path, result);
        }
    }
}

/// A document decoded as a `Value` from a slice and from a reader.
fn decode_both(bytes: &[u8]) -> [(&'static str, surp::Result<Value>); 2] {
    [
        ("slice", surp::from_slice::<Value>(bytes)),
        ("reader", surp::from_reader::<_, Value>(bytes)),
    ]
}

/// `result` (from a `path`) is the error that `case` lists: its kind
/// (by name) and its offset.
fn assert_rejected_as_listed(case: &serde_json::Value, path: &str, result: surp::Result<Value>) {
    let name = case["name"].as_str().unwrap();
    let err = result.expect_err(name);
    let kind = format!("{:?}", err.kind());
    assert!(
        kind.starts_with(case["error"].as_str().unwrap()),
        "{name} from a {path}: got {kind}"
    );
    assert_eq!(
        err.offset(),
        Some(case["offset"].as_u64().unwrap() as usize),
        "{name} from a {path}: {err}"
    );
}

/// Documents at the baseline limits of `docs/spec.md` section 7.4: the
/// default options are those limits, so the one at the limit decodes and
/// the one a reference past it fails at that reference.
#[test]
fn every_limits_vector_decodes_at_the_baseline_and_fails_one_reference_past_it() {
    let doc = load();
    let cases = doc["limits"].as_array().unwrap();
    assert!(cases.iter().any(|c| c.get("value").is_some()));
    assert!(cases.iter().any(|c| c.get("error").is_some()));
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let bytes = hex_field(&case["hex"]);
        for (path, result) in decode_both(&bytes) {
            match case.get("value") {
                Some(value) => {
                    let decoded = result.unwrap_or_else(|e| panic!("{name} from a {path}: {e}"));
                    assert!(same(&parse(value), &decoded), "{name} from a {path}");
                }
                None => assert_rejected_as_listed(case, path, result),
            }
        }
    }
}

/// Section 7.4: in a deduplicated document, a literal that takes a slot is
/// checked when it is read, also in a value that a typed decoder skips and
/// whether or not anything refers to it; the error is at its payload.
#[test]
fn a_skipped_literal_that_takes_a_slot_is_checked_for_utf8_at_its_payload() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct OnlyB {
        b: String,
    }
    #[derive(Deserialize, Debug)]
    struct Nothing {}
    // {"a": <3 bytes, not UTF-8, slot 0>, "b": <reference to slot 0>}
    let referenced = [
        0xf2, 0xb2, 0x81, b'a', 0x83, 0xff, b'a', b'b', 0x81, b'b', 0xf3, 0x00,
    ];
    // {"a": <the same literal>}, with no reference to it.
    let unreferenced = [0xf2, 0xb1, 0x81, b'a', 0x83, 0xff, b'a', b'b'];
    let errors = [
        surp::from_slice::<OnlyB>(&referenced).unwrap_err(),
        surp::from_reader::<_, OnlyB>(&referenced[..]).unwrap_err(),
        surp::from_slice::<Nothing>(&unreferenced).unwrap_err(),
        surp::from_slice::<IgnoredAny>(&unreferenced).unwrap_err(),
        surp::from_reader::<_, IgnoredAny>(&unreferenced[..]).unwrap_err(),
    ];
    for err in errors {
        assert!(matches!(err.kind(), ErrorKind::InvalidUtf8), "{err}");
        assert_eq!(err.offset(), Some(5), "{err}");
    }
}

/// Vectors longer than this are cut by a reader at a sample of offsets only:
/// a reader reads a prefix to its end, so every offset of a 64 KiB vector
/// would read some 2 GB.
const READER_EVERY_OFFSET_UP_TO: usize = 1024;

/// Offsets at which a reader cuts a vector of `len` bytes: all of them for
/// short vectors; for long ones the first and last 64 and every 499th.
fn reader_cuts(len: usize) -> impl Iterator<Item = usize> {
    (0..len).filter(move |&end| {
        len <= READER_EVERY_OFFSET_UP_TO || end <= 64 || end + 64 >= len || end % 499 == 0
    })
}

#[test]
fn every_proper_prefix_of_every_vector_is_an_error() {
    let doc = load();
    let mut prefixes = 0;
    for list in ["vectors", "decode_only"] {
        for v in doc[list].as_array().unwrap() {
            let name = &v["name"];
            let bytes = hex_field(&v["hex"]);
            // Each vector is one value that ends at its last byte. So no
            // proper prefix can be a complete value: decoding the whole would
            // then have stopped at the prefix's end.
            let mut de = surp::Deserializer::from_slice(&bytes);
            Value::deserialize(&mut de).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(de.offset(), bytes.len(), "{name}: the value ends early");

            for end in 0..bytes.len() {
                let prefix = &bytes[..end];
                let results = [
                    surp::from_slice::<Value>(prefix).map(drop),
                    surp::from_slice::<IgnoredAny>(prefix).map(drop),
                ];
                for result in results {
                    let err = result.expect_err(&format!("{name}: prefix of {end} bytes decoded"));
                    assert!(
                        matches!(
                            err.kind(),
                            ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput { .. }
                        ),
                        "{name}, {end} bytes: {err}"
                    );
                    assert_eq!(err.classify(), Category::Eof, "{name}, {end} bytes");
                    assert!(
                        err.offset().is_some_and(|o| o <= end),
                        "{name}, {end} bytes: {err}"
                    );
                }
                prefixes += 1;
            }
            for end in reader_cuts(bytes.len()) {
                let prefix = &bytes[..end];
                let results = [
                    (
                        surp::from_reader::<_, Value>(prefix).map(drop),
                        surp::from_slice::<Value>(prefix).map(drop),
                        true,
                    ),
                    (
                        surp::from_reader::<_, IgnoredAny>(prefix).map(drop),
                        surp::from_slice::<IgnoredAny>(prefix).map(drop),
                        false,
                    ),
                ];
                for (result, from_slice, exact) in results {
                    let err = result.expect_err(&format!("{name}: prefix of {end} bytes decoded"));
                    assert_eq!(err.classify(), Category::Eof, "{name}, {end} bytes: {err}");
                    assert!(
                        err.offset().is_some_and(|o| o <= end),
                        "{name}, {end} bytes: {err}"
                    );
                    // The same error as from a slice, kind and offset. Only
                    // skipping a plain document may differ: where a slice
                    // sees up front that the items left outnumber the bytes
                    // left, a reader stops at the end of the input, exactly.
                    let slice_err = from_slice.unwrap_err();
                    let same = (err.kind(), err.offset()) == (slice_err.kind(), slice_err.offset());
                    assert!(
                        same || (!exact && err.is_eof() && err.offset() == Some(end)),
                        "{name}, {end} bytes: reader {err}, slice {slice_err}"
                    );
                }
            }
        }
    }
    assert!(prefixes > 300_000, "only {prefixes} prefixes checked");
}
