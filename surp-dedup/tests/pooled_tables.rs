//! A thread's decoders hand the string and shape tables of one
//! deduplicated document, emptied, to the next (`surp::de::pool`). These
//! tests check that only capacity passes on: a document never sees an
//! earlier document's strings or shapes, however the earlier one ended.

use std::collections::BTreeMap;

use surp::Value;
use surp::wire::{DEDUP_MARKER, FIXARRAY, STR_REF1};

/// A deduplicated document with many strings and shapes, so that its
/// tables are large enough to be kept.
fn big_document() -> (Value, Vec<u8>) {
    let records: Vec<BTreeMap<String, String>> = (0..300)
        .map(|i| {
            BTreeMap::from([
                ("name".to_owned(), format!("record-name-{}", i % 40)),
                ("kind".to_owned(), format!("kind-of-thing-{}", i % 7)),
            ])
        })
        .collect();
    let bytes = surp_dedup::to_vec(&records).unwrap();
    (surp::from_slice(&bytes).unwrap(), bytes)
}

/// A deduplicated document whose only value refers to string slot 0,
/// which it never defines.
fn dangling_reference() -> Vec<u8> {
    vec![DEDUP_MARKER, FIXARRAY | 1, STR_REF1, 0]
}

#[test]
fn a_document_never_sees_the_strings_of_the_document_before() {
    let dangling = dangling_reference();
    let fresh = std::thread::spawn({
        let d = dangling.clone();
        move || surp::from_slice::<Value>(&d).unwrap_err().to_string()
    })
    .join()
    .unwrap();
    let (expected, bytes) = big_document();
    for _ in 0..3 {
        assert_eq!(surp::from_slice::<Value>(&bytes).unwrap(), expected);
        // The same error as on a thread that never kept anything.
        let err = surp::from_slice::<Value>(&dangling).unwrap_err();
        assert_eq!(err.to_string(), fresh);
    }
}

#[test]
fn tables_of_a_failed_document_pass_on_empty() {
    let (expected, bytes) = big_document();
    let dangling = dangling_reference();
    // Cut the big document short: it fails after its tables have grown.
    for cut in [bytes.len() / 2, bytes.len() - 1] {
        assert!(surp::from_slice::<Value>(&bytes[..cut]).is_err());
        assert!(surp::from_slice::<Value>(&dangling).is_err());
        assert_eq!(surp::from_slice::<Value>(&bytes).unwrap(), expected);
    }
}

#[test]
fn a_stream_of_documents_reuses_tables_without_mixing_them() {
    let (expected, bytes) = big_document();
    let other: Vec<String> = (0..50).map(|i| format!("another-string-{i}")).collect();
    let other_bytes = surp_dedup::to_vec(&[&other, &other]).unwrap();
    let mut stream = bytes.clone();
    stream.extend_from_slice(&other_bytes);
    stream.extend_from_slice(&bytes);
    let values: Vec<Value> = surp::Deserializer::from_slice(&stream)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(values.len(), 3);
    assert_eq!(values[0], expected);
    assert_eq!(values[1], surp::from_slice::<Value>(&other_bytes).unwrap());
    assert_eq!(values[2], expected);
}

/// Encodes each value on a thread of its own, where the encoder is new.
fn fresh(values: &[Value]) -> Vec<Vec<u8>> {
    values
        .iter()
        .map(|v| {
            let v = v.clone();
            std::thread::spawn(move || surp_dedup::to_vec(&v).unwrap())
                .join()
                .unwrap()
        })
        .collect()
}

#[test]
fn an_encoder_passed_on_writes_what_a_new_one_writes() {
    use surp_datasets::{Dataset, Scale};
    // Documents of different shapes and sizes, one after another on this
    // thread, each compared with the same document from a new encoder:
    // unit variants (the address hints), explicit maps, big tables.
    let mut values: Vec<Value> = Vec::new();
    for d in [
        Dataset::MixedApiEvents,
        Dataset::Twitter,
        Dataset::SmallObjects,
    ] {
        let v = surp::to_value(&d.load(Scale::Ci).unwrap()).unwrap();
        if let Value::Array(items) = &v {
            values.extend(items.iter().take(30).cloned());
        }
        values.push(v);
    }
    values.push(big_document().0);
    let expected = fresh(&values);
    for _ in 0..2 {
        for (v, e) in values.iter().zip(&expected) {
            assert_eq!(&surp_dedup::to_vec(v).unwrap(), e);
        }
    }
}

#[test]
fn an_encoder_passed_on_after_an_error_writes_what_a_new_one_writes() {
    use serde::ser::{Error as _, Serialize, SerializeMap, Serializer};
    /// A map that fails after writing some entries, leaving open maps and
    /// pending tables behind.
    struct Failing;
    impl Serialize for Failing {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(None)?;
            for i in 0..20 {
                m.serialize_entry(&format!("key-number-{i}"), &[format!("value-{i}")])?;
            }
            Err(S::Error::custom("stop"))
        }
    }
    let (value, _) = big_document();
    let expected = fresh(std::slice::from_ref(&value));
    assert!(surp_dedup::to_vec(&[Failing]).is_err());
    assert_eq!(surp_dedup::to_vec(&value).unwrap(), expected[0]);
}

#[test]
fn an_encoder_passed_on_names_enum_variants_as_a_new_one_does() {
    use surp_datasets::Scale;
    use surp_datasets::typed::{TypedDataset, TypedValue};
    // Unit variants are found by their name's address (the encoder's
    // hints), which a document passed on must not inherit.
    let TypedValue::World(world) = TypedDataset::World.generate(Scale::Ci) else {
        unreachable!()
    };
    let TypedValue::GameUpdates(game) = TypedDataset::GameUpdates.generate(Scale::Ci) else {
        unreachable!()
    };
    let chunks: Vec<Vec<u8>> = world
        .entities
        .chunks(7)
        .take(40)
        .map(|c| surp_dedup::to_vec(c).unwrap())
        .chain(
            game.ticks
                .iter()
                .take(5)
                .map(|t| surp_dedup::to_vec(t).unwrap()),
        )
        .collect();
    let again = std::thread::spawn(move || {
        world
            .entities
            .chunks(7)
            .take(40)
            .map(|c| {
                let c = c.to_vec();
                std::thread::spawn(move || surp_dedup::to_vec(&c).unwrap())
                    .join()
                    .unwrap()
            })
            .chain(game.ticks.iter().take(5).map(|t| {
                let t = t.clone();
                std::thread::spawn(move || surp_dedup::to_vec(&t).unwrap())
                    .join()
                    .unwrap()
            }))
            .collect::<Vec<_>>()
    })
    .join()
    .unwrap();
    assert_eq!(chunks, again);
}
