//! The value notation of `docs/vectors/surp-v2.json` (see `docs/spec.md`,
//! "Test vectors"), parsed into a type that serializes to exactly the value
//! a vector describes. Shared by the vector tests of `surp` and `surp-dedup`
//! (included with `#[path]`).

#![allow(dead_code)]

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
pub use serde_json::Value as Json;
use surp::{Integer, Value};

/// A vector's value, as the notation describes it.
#[derive(Clone, Debug)]
pub enum Notation {
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

pub fn parse(v: &Json) -> Notation {
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
        "numbers" => {
            let width = x["width"].as_u64().unwrap() as usize;
            let count = x["count"].as_u64().unwrap();
            Notation::Array(
                (0..count)
                    .map(|i| Notation::Str(format!("{i:0width$}")))
                    .collect(),
            )
        }
        "nest" => {
            let depth = x["depth"].as_u64().unwrap();
            (0..depth).fold(parse(&x["leaf"]), |inner, _| match x["wrap"].as_str() {
                Some("array") => Notation::Array(vec![inner]),
                Some("map") => Notation::Map(vec![(Notation::Int(Integer::from(0u8)), inner)]),
                Some("some") => Notation::Some(Box::new(inner)),
                other => panic!("unknown wrap {other:?}"),
            })
        }
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
pub fn hex_field(v: &Json) -> Vec<u8> {
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
pub fn same(n: &Notation, v: &Value) -> bool {
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

/// The vectors file.
pub fn load() -> Json {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/vectors/surp-v2.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("vectors file"))
        .expect("vectors are JSON")
}
