//! Limits in `Options`: `max_len` and `max_alloc`.

use std::collections::BTreeMap;

use serde_bytes::ByteBuf;
use surp::wire::Kind;
use surp::{ErrorKind, Options, Value};

use crate::lengths::{LENGTH_FAMILIES, every_way};
use crate::{both, error_within};

/// Ten items of each kind: 10-byte string and byte string, an array of ten
/// zeros, a map of ten `i => 0` entries.
fn ten_of(kind: Kind) -> Vec<u8> {
    match kind {
        Kind::Str => surp::to_vec("0123456789").unwrap(),
        Kind::Bytes => surp::to_vec(&Value::Bytes(vec![7; 10])).unwrap(),
        Kind::Array => surp::to_vec(&[0u8; 10]).unwrap(),
        Kind::Map => {
            surp::to_vec(&(0..10u8).map(|i| (i, 0u8)).collect::<BTreeMap<_, _>>()).unwrap()
        }
    }
}

#[test]
fn max_len_rejects_longer_strings_bytes_arrays_and_maps() {
    for (kind, _) in LENGTH_FAMILIES {
        let input = ten_of(kind);
        let ok = Options::new().max_len(10);
        for result in both::<Value>(&ok, &input) {
            result.unwrap();
        }
        let tight = Options::new().max_len(9);
        let expected = ErrorKind::LengthLimitExceeded {
            kind,
            len: 10,
            limit: 9,
        };
        for result in every_way(kind, &tight, &input) {
            let err = error_within(result, &input);
            assert_eq!(*err.kind(), expected, "{kind:?}");
            assert_eq!(err.offset(), Some(0));
        }
    }
}

#[test]
fn max_alloc_bounds_what_is_held_not_what_a_plain_document_writes_out() {
    // Documented rule: the bytes a plain document writes out are not
    // charged (they stream past); only one literal longer than `max_alloc`
    // is refused, from a slice and from a reader alike. Each case's charge
    // is its longest literal.
    let strings = vec!["abcdefghij"; 10];
    let blobs = vec![ByteBuf::from(vec![1; 10]); 10];
    let map: BTreeMap<String, String> = (0..5)
        .map(|i| (format!("key{i:07}"), "v".repeat(10)))
        .collect();
    type Typed = fn(&Options, &[u8]) -> surp::Result<()>;
    let cases: [(Vec<u8>, usize, Typed); 3] = [
        (surp::to_vec(&strings).unwrap(), 10, |o, i| {
            o.from_slice::<Vec<&str>>(i).map(drop)
        }),
        (surp::to_vec(&blobs).unwrap(), 10, |o, i| {
            o.from_reader::<_, Vec<ByteBuf>>(i).map(drop)
        }),
        (surp::to_vec(&map).unwrap(), 10, |o, i| {
            o.from_slice::<BTreeMap<String, String>>(i).map(drop)
        }),
    ];
    for (input, charge, typed) in cases {
        typed(&Options::new().max_alloc(charge), &input).unwrap();
        for result in both::<Value>(&Options::new().max_alloc(charge), &input) {
            result.unwrap();
        }
        assert!(
            input.len() > 10 * charge,
            "the document is many times the limit"
        );
        let tight = Options::new().max_alloc(charge - 1);
        let [from_slice, from_reader] = both::<Value>(&tight, &input).map(|r| r.unwrap_err());
        assert_eq!(
            *from_slice.kind(),
            ErrorKind::AllocationLimitExceeded(charge - 1)
        );
        assert_eq!(
            (from_slice.kind(), from_slice.offset()),
            (from_reader.kind(), from_reader.offset())
        );
        let err = error_within(typed(&tight, &input), &input);
        assert_eq!(*err.kind(), ErrorKind::AllocationLimitExceeded(charge - 1));
    }
}
