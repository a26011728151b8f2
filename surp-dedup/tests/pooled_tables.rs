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
