//! Map keys of a deduplicated document reach their seeds as the decoder
//! hands over any string: a key read from a shape, or kept from an explicit
//! map, must decode into every key type exactly as the same key does in a
//! plain document. serde's `BorrowedStrDeserializer`, which handed them
//! over before, rejected `Option<String>` and newtype keys (such as
//! `struct UserId(String)`) that a plain document accepts.

#[path = "../../surp/tests/common/mod.rs"]
mod common;

use std::fmt;

use common::{MapKeys, Readable};
use serde::de::{self, DeserializeOwned};
use serde::{Deserialize, Serialize};
use surp::{Value, wire};

#[derive(Debug, PartialEq, Deserialize)]
struct UserId(String);

#[derive(Debug, PartialEq, Clone, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Column {
    Alpha,
    Beta,
    Gamma,
}

/// A key type that nests `Some`s without reading a byte, until a limit.
#[derive(Debug, PartialEq, Deserialize)]
struct Nested(Option<Box<Nested>>);

#[derive(Serialize)]
struct Row {
    alpha: u32,
    beta: u32,
    gamma: u32,
}

/// The keys of a map, in order, each read as a `K` (values ignored).
struct Keys<K>(Vec<K>);

impl<'de, K: Deserialize<'de>> Deserialize<'de> for Keys<K> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(MapKeys::new()).map(Keys)
    }
}

/// Three rows with the same keys: the first map is explicit and becomes a
/// shape, the others are references to it. Plain and deduplicated.
fn documents() -> (Vec<u8>, Vec<u8>) {
    let rows: Vec<Row> = (0..3)
        .map(|i| Row {
            alpha: i,
            beta: i + 1,
            gamma: i + 2,
        })
        .collect();
    let plain = surp::to_vec(&rows).unwrap();
    let dedup = surp_dedup::to_vec(&rows).unwrap();
    assert_eq!(dedup[0], wire::DEDUP_MARKER);
    let references = dedup.iter().filter(|&&b| b == wire::FIXSHAPE).count();
    assert_eq!(references, 2, "{dedup:02x?}");
    (plain, dedup)
}

/// Decodes both documents as rows keyed by `K`, from a slice and from a
/// reader: all four results must be the same, errors by their message.
fn same_everywhere<K: DeserializeOwned + PartialEq + fmt::Debug>() -> Result<Vec<Vec<K>>, String> {
    let (plain, dedup) = documents();
    let decode = |bytes: &[u8], reader: bool| {
        let rows: surp::Result<Vec<Keys<K>>> = if reader {
            surp::from_reader(bytes)
        } else {
            surp::from_slice(bytes)
        };
        rows.map(|rows| rows.into_iter().map(|r| r.0).collect())
            .map_err(|e| e.kind().to_string())
    };
    let expected = decode(&plain, false);
    for (bytes, reader, what) in [
        (&plain, true, "plain, reader"),
        (&dedup, false, "dedup, slice"),
        (&dedup, true, "dedup, reader"),
    ] {
        assert_eq!(decode(bytes, reader), expected, "{what}");
    }
    expected
}

#[test]
fn every_key_type_decodes_a_deduplicated_document_as_a_plain_one() {
    let names = |row: &[&str]| row.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let want = vec![names(&["alpha", "beta", "gamma"]); 3];
    assert_eq!(same_everywhere::<String>(), Ok(want.clone()));
    let some = want
        .iter()
        .map(|row| row.iter().cloned().map(Some).collect())
        .collect();
    assert_eq!(same_everywhere::<Option<String>>(), Ok(some));
    let ids = want
        .iter()
        .map(|row| row.iter().cloned().map(UserId).collect())
        .collect();
    assert_eq!(same_everywhere::<UserId>(), Ok(ids));
    let columns = vec![vec![Column::Alpha, Column::Beta, Column::Gamma]; 3];
    assert_eq!(same_everywhere::<Column>(), Ok(columns));
    assert_eq!(
        same_everywhere::<Readable>(),
        Ok(vec![vec![Readable(false); 3]; 3])
    );
    let values = want
        .iter()
        .map(|row| row.iter().map(|s| Value::from(s.as_str())).collect())
        .collect();
    assert_eq!(same_everywhere::<Value>(), Ok(values));
    let e = same_everywhere::<u8>().unwrap_err();
    assert!(e.contains("expected u8"), "{e}");
    // Without a limit on the `Some`s, `Nested` would recurse until the
    // stack overflowed.
    assert_eq!(
        same_everywhere::<Nested>(),
        Err("nesting deeper than the limit of 128".to_owned())
    );
}

#[test]
fn borrowed_keys_of_a_deduplicated_document_borrow_from_the_input() {
    let (_, dedup) = documents();
    let rows: Vec<Keys<&str>> = surp::from_slice(&dedup).unwrap();
    for row in &rows {
        assert_eq!(row.0, ["alpha", "beta", "gamma"]);
        for key in &row.0 {
            let at = key.as_ptr() as usize;
            let input = dedup.as_ptr_range();
            assert!((input.start as usize..input.end as usize).contains(&at));
        }
    }
    assert_eq!(rows.len(), 3);
}
