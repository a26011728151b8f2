//! Declared lengths far beyond the input: refused at the header, from a
//! slice and from a reader alike.

use std::collections::BTreeMap;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde_bytes::ByteBuf;
use surp::wire::{self, Kind};
use surp::{ErrorKind, Options, Value};

use crate::error_within;

/// The first tag of each length-prefixed family, and the value to decode it as.
pub(crate) const LENGTH_FAMILIES: [(Kind, u8); 4] = [
    (Kind::Str, wire::STR8),
    (Kind::Bytes, wire::BIN8),
    (Kind::Array, wire::ARRAY8),
    (Kind::Map, wire::MAP8),
];

/// Claims checked below: the largest 4-byte length, 2^32, 2^63 and 2^64 - 1.
const CLAIMS: [u64; 4] = [u32::MAX as u64, 1 << 32, 1 << 63, u64::MAX];

/// A header claiming `len` items of `first_tag`'s family, then 16 zero bytes
/// (valid content: NUL characters, zero bytes, or the integer 0).
fn claiming(first_tag: u8, len: u64) -> Vec<u8> {
    let mut input = if len <= u64::from(u32::MAX) {
        let mut h = vec![first_tag + 2];
        h.extend_from_slice(&(len as u32).to_le_bytes());
        h
    } else {
        let mut h = vec![first_tag + 3];
        h.extend_from_slice(&len.to_le_bytes());
        h
    };
    input.extend_from_slice(&[0; 16]);
    input
}

/// Decodes `input` as a `Value`, as `IgnoredAny` and as the Rust type of
/// `kind`, each from a slice and from a reader.
pub(crate) fn every_way(kind: Kind, opts: &Options, input: &[u8]) -> [surp::Result<()>; 6] {
    [
        opts.from_slice::<Value>(input).map(drop),
        opts.from_reader::<_, Value>(input).map(drop),
        opts.from_slice::<IgnoredAny>(input).map(drop),
        opts.from_reader::<_, IgnoredAny>(input).map(drop),
        decode_typed(kind, opts, input, false),
        decode_typed(kind, opts, input, true),
    ]
}

/// Decodes as the Rust type that family maps to.
fn decode_typed(kind: Kind, opts: &Options, input: &[u8], reader: bool) -> surp::Result<()> {
    fn go<T: DeserializeOwned>(opts: &Options, input: &[u8], reader: bool) -> surp::Result<()> {
        if reader {
            opts.from_reader::<_, T>(input).map(drop)
        } else {
            opts.from_slice::<T>(input).map(drop)
        }
    }
    match kind {
        Kind::Str => go::<String>(opts, input, reader),
        Kind::Bytes => go::<ByteBuf>(opts, input, reader),
        Kind::Array => go::<Vec<u8>>(opts, input, reader),
        Kind::Map => go::<BTreeMap<u8, u8>>(opts, input, reader),
    }
}

#[test]
fn huge_declared_lengths_in_a_slice_are_rejected_at_the_header() {
    for (kind, tag) in LENGTH_FAMILIES {
        for len in CLAIMS {
            let input = claiming(tag, len);
            let err = error_within(surp::from_slice::<Value>(&input), &input);
            assert_eq!(
                *err.kind(),
                ErrorKind::LengthExceedsInput { kind, len },
                "{kind:?} {len}"
            );
            assert_eq!(err.offset(), Some(0));
            error_within(surp::from_slice::<IgnoredAny>(&input), &input);
            error_within(decode_typed(kind, &Options::new(), &input, false), &input);
        }
    }
}

#[test]
fn huge_declared_lengths_from_a_reader_give_the_slice_error() {
    // One budget rule for both inputs: a reader finds the input too short
    // where it ends, and reports it at the header, as a slice does.
    for (kind, tag) in LENGTH_FAMILIES {
        for len in CLAIMS {
            let input = claiming(tag, len);
            let err = error_within(surp::from_reader::<_, Value>(&input[..]), &input);
            assert_eq!(
                *err.kind(),
                ErrorKind::LengthExceedsInput { kind, len },
                "{kind:?} {len}"
            );
            assert_eq!(err.offset(), Some(0));
            let typed = error_within(decode_typed(kind, &Options::new(), &input, true), &input);
            let from_slice = decode_typed(kind, &Options::new(), &input, false).unwrap_err();
            assert_eq!(
                (typed.kind(), typed.offset()),
                (from_slice.kind(), from_slice.offset()),
                "{kind:?} {len}"
            );
        }
    }
}

#[test]
fn a_string_longer_than_max_alloc_is_refused_alike_by_a_slice_and_a_reader() {
    // Whole or cut short, one literal longer than `max_alloc` is not held:
    // the allocation limit when the input has more than `max_alloc` bytes
    // after the header, else the input is too short; a reader reads at most
    // `max_alloc + 1` bytes to tell.
    let opts = Options::new().max_alloc(1000);
    for (kind, tag) in [(Kind::Str, wire::STR8), (Kind::Bytes, wire::BIN8)] {
        for (payload, expected) in [
            (1001, ErrorKind::AllocationLimitExceeded(1000)),
            (5000, ErrorKind::AllocationLimitExceeded(1000)),
            (1000, ErrorKind::LengthExceedsInput { kind, len: 5000 }),
        ] {
            let mut input = vec![tag + 1];
            input.extend_from_slice(&5000u16.to_le_bytes());
            input.resize(3 + payload, b'a');
            for result in every_way(kind, &opts, &input) {
                let err = error_within(result, &input);
                assert_eq!(*err.kind(), expected, "{kind:?} {payload}");
                assert_eq!(err.offset(), Some(0), "{kind:?} {payload}");
            }
        }
    }
}

#[test]
fn huge_declared_lengths_from_a_reader_without_a_limit_end_at_the_real_end() {
    // With the allocation limit out of the way the reader takes the claim at
    // its word and reads on: it must stop where the input really ends.
    let unlimited = Options::new().max_alloc(usize::MAX);
    for (kind, tag) in LENGTH_FAMILIES {
        for len in CLAIMS {
            let input = claiming(tag, len);
            // Skipping, it reads to the end and stops there.
            let err = error_within(
                unlimited.from_reader::<_, IgnoredAny>(&input[..]).map(drop),
                &input,
            );
            assert!(err.is_eof(), "{kind:?} {len}: {err}");
            assert_eq!(err.offset(), Some(input.len()), "{kind:?} {len}: {err}");
            // Decoding, it reads to the end too, then reports the claim at
            // its header, as a slice does.
            let results = [
                unlimited.from_reader::<_, Value>(&input[..]).map(drop),
                decode_typed(kind, &unlimited, &input, true),
            ];
            for result in results {
                let err = error_within(result, &input);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::LengthExceedsInput { kind, len },
                    "{kind:?} {len}: {err}"
                );
                assert_eq!(err.offset(), Some(0), "{kind:?} {len}: {err}");
            }
        }
    }
}
