//! Checks `docs/vectors/surp-v1.json` both ways: every vector's value encodes
//! to its bytes, and its bytes decode to its value; every invalid case is
//! rejected with the documented error kind and offset; and every truncation
//! of a vector is rejected.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value as Json;
use surp::{ErrorKind, Integer, Value};

/// A vector's value, as the notation describes it.
#[derive(Clone, Debug)]
enum Notation {
    Null,
    Bool(bool),
    Int(Integer),
    Float(u64),
    Str(String),
    Bytes(Vec<u8>),
    Array(Vec<Notation>),
    Map(Vec<(Notation, Notation)>),
    Some(Box<Notation>),
}

fn repeat(x: &Json) -> Option<(&Json, usize)> {
    let count = x.get("count")?.as_u64()? as usize;
    Some((x.get("repeat")?, count))
}

fn parse(v: &Json) -> Notation {
    let (kind, x) = v
        .as_object()
        .and_then(|o| o.iter().next())
        .expect("a one-key object");
    match kind.as_str() {
        "null" => Notation::Null,
        "bool" => Notation::Bool(x.as_bool().unwrap()),
        "int" => {
            let s = x.as_str().unwrap();
            Notation::Int(match s.parse::<i128>() {
                Ok(i) => Integer::from(i),
                Err(_) => Integer::from(s.parse::<u128>().unwrap()),
            })
        }
        "float" => Notation::Float(
            u64::from_str_radix(x.as_str().unwrap().trim_start_matches("0x"), 16).unwrap(),
        ),
        "str" => Notation::Str(match repeat(x) {
            Some((r, n)) => r.as_str().unwrap().repeat(n),
            None => x.as_str().unwrap().to_owned(),
        }),
        "bytes" => Notation::Bytes(match repeat(x) {
            Some((r, n)) => hex(r.as_str().unwrap()).repeat(n),
            None => hex(x.as_str().unwrap()),
        }),
        "array" => Notation::Array(match repeat(x) {
            Some((r, n)) => vec![parse(r); n],
            None => x.as_array().unwrap().iter().map(parse).collect(),
        }),
        "map" => {
            let pair = |p: &Json| (parse(&p[0]), parse(&p[1]));
            Notation::Map(match repeat(x) {
                Some((r, n)) => vec![pair(r); n],
                None => x.as_array().unwrap().iter().map(pair).collect(),
            })
        }
        "some" => Notation::Some(Box::new(parse(x))),
        other => panic!("unknown notation {other}"),
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// A `hex` field: a string, or segments with repeats.
fn hex_field(v: &Json) -> Vec<u8> {
    match v {
        Json::String(s) => hex(s),
        Json::Array(segments) => segments.iter().flat_map(hex_field).collect(),
        Json::Object(_) => {
            let (r, n) = repeat(v).unwrap();
            hex(r.as_str().unwrap()).repeat(n)
        }
        _ => panic!("bad hex field {v}"),
    }
}

impl Serialize for Notation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Notation::Null => s.serialize_unit(),
            Notation::Bool(b) => s.serialize_bool(*b),
            Notation::Int(i) => i.serialize(s),
            Notation::Float(bits) => s.serialize_f64(f64::from_bits(*bits)),
            Notation::Str(x) => s.serialize_str(x),
            Notation::Bytes(b) => s.serialize_bytes(b),
            Notation::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for i in items {
                    seq.serialize_element(i)?;
                }
                seq.end()
            }
            Notation::Map(pairs) => {
                let mut map = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Notation::Some(inner) => s.serialize_some(inner),
        }
    }
}

/// Structural equality with floats compared by bits (NaN payloads, -0.0).
fn same(n: &Notation, v: &Value) -> bool {
    match (n, v) {
        (Notation::Null, Value::Null) => true,
        (Notation::Bool(a), Value::Bool(b)) => a == b,
        (Notation::Int(a), Value::Integer(b)) => a == b,
        (Notation::Float(bits), Value::Float(f)) => *bits == f.to_bits(),
        (Notation::Str(a), Value::String(b)) => a == b,
        (Notation::Bytes(a), Value::Bytes(b)) => a == b,
        (Notation::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Notation::Map(a), Value::Map(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((k1, v1), (k2, v2))| same(k1, k2) && same(v1, v2))
        }
        _ => false,
    }
}

fn load() -> Json {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/vectors/surp-v1.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("vectors file"))
        .expect("vectors are JSON")
}

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
        let err = surp::from_slice::<Value>(&bytes).expect_err(case["name"].as_str().unwrap());
        let kind = format!("{:?}", err.kind());
        assert!(
            kind.starts_with(case["error"].as_str().unwrap()),
            "{}: got {kind}",
            case["name"]
        );
        assert_eq!(
            err.offset(),
            Some(case["offset"].as_u64().unwrap() as usize),
            "{}: {err}",
            case["name"]
        );
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
                    surp::from_reader::<_, Value>(prefix).map(drop),
                    surp::from_reader::<_, IgnoredAny>(prefix).map(drop),
                ];
                for result in results {
                    let err = result.expect_err(&format!("{name}: prefix of {end} bytes decoded"));
                    assert!(err.is_eof(), "{name}, {end} bytes: {err}");
                    assert!(
                        err.offset().is_some_and(|o| o <= end),
                        "{name}, {end} bytes: {err}"
                    );
                }
            }
        }
    }
    assert!(prefixes > 300_000, "only {prefixes} prefixes checked");
}
