//! No allocation is sized from a length the input merely claims: a few bytes
//! claiming 2^63 items cost a few bytes of memory, and a reader's buffers grow
//! only as bytes arrive. A counting allocator (`counting/mod.rs`, per thread,
//! so the tests of this binary can run in parallel) measures the peak of live
//! heap bytes.

mod common;
mod counting;

use std::collections::{BTreeMap, HashMap};

use common::claim;
use counting::peak_heap_during;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_bytes::ByteBuf;
use surp::wire::{self, Kind};
use surp::{Options, Value};

const KIB: usize = 1024;

/// What the brief allows a tiny hostile document to cost.
const SMALL: usize = 64 * KIB;

/// Peak heap of decoding `input` as `T` with `opts`, from a slice and from a
/// reader; the decode must fail.
fn peaks<T: DeserializeOwned + std::fmt::Debug>(opts: &Options, input: &[u8]) -> [usize; 2] {
    [
        peak_heap_during(|| opts.from_slice::<T>(input).expect_err("decoded a claim")),
        peak_heap_during(|| {
            opts.from_reader::<_, T>(input)
                .expect_err("decoded a claim")
        }),
    ]
}

#[test]
fn the_counting_allocator_sees_allocations() {
    let peak = peak_heap_during(|| vec![0u8; 100 * KIB]);
    assert!((100 * KIB..101 * KIB).contains(&peak), "{peak}");
    let peak = peak_heap_during(|| surp::from_slice::<Vec<u8>>(&[0xa3, 1, 2, 3]).unwrap());
    assert!(peak >= 3, "{peak}");
}

/// Checks that every decode `cases` makes of a claim costs little, with and
/// without the allocation limit, for claims of 2^32, 2^63 and 2^64 - 1.
fn claims_cost_little(cases: impl Fn(&Options, u64) -> Vec<[usize; 2]>) {
    let unlimited = Options::new().max_alloc(usize::MAX);
    for opts in [Options::new(), unlimited] {
        for len in [1 << 32, 1 << 63, u64::MAX] {
            for (i, [slice, reader]) in cases(&opts, len).into_iter().enumerate() {
                assert!(
                    slice < SMALL,
                    "case {i}, claim {len}: slice held {slice} bytes"
                );
                assert!(
                    reader < SMALL,
                    "case {i}, claim {len}: reader held {reader} bytes"
                );
            }
        }
    }
}

#[test]
fn a_9_byte_document_claiming_2_63_bytes_allocates_little() {
    claims_cost_little(|opts, len| {
        let string = claim(Kind::Str, len);
        assert_eq!(string.len(), 9);
        let bytes = claim(Kind::Bytes, len);
        vec![
            peaks::<Value>(opts, &string),
            peaks::<String>(opts, &string),
            peaks::<IgnoredAny>(opts, &string),
            peaks::<Value>(opts, &bytes),
            peaks::<ByteBuf>(opts, &bytes),
            peaks::<IgnoredAny>(opts, &bytes),
        ]
    });
}

#[test]
fn a_9_byte_document_claiming_2_63_items_allocates_little() {
    // Regression: a reader used to pass the claimed count to visitors as a
    // size hint, and `Value` preallocated up to 4096 items (192 KiB) from it.
    claims_cost_little(|opts, len| {
        let array = claim(Kind::Array, len);
        let map = claim(Kind::Map, len);
        vec![
            peaks::<Value>(opts, &array),
            peaks::<Vec<u64>>(opts, &array),
            peaks::<serde_json::Value>(opts, &array),
            peaks::<IgnoredAny>(opts, &array),
            peaks::<Value>(opts, &map),
            peaks::<HashMap<u64, u64>>(opts, &map),
            peaks::<BTreeMap<u64, u64>>(opts, &map),
            peaks::<IgnoredAny>(opts, &map),
        ]
    });
}

#[test]
fn a_reader_grows_its_buffer_only_as_bytes_arrive() {
    // A claim of 2^63 bytes followed by 1 MiB that really arrives: the
    // decoder may hold what arrived (with the slack of a growing buffer),
    // not what was claimed. `from_reader` holds it twice: once to decode,
    // and once in the copy it keeps to find a failed decode's path.
    let arrived = 1024 * KIB;
    let unlimited = Options::new().max_alloc(usize::MAX);
    for kind in [Kind::Str, Kind::Bytes] {
        let mut input = claim(kind, 1 << 63);
        input.resize(input.len() + arrived, b'a');
        let peak = peak_heap_during(|| {
            let err = unlimited
                .from_reader::<_, Value>(&input[..])
                .expect_err("decoded a claim");
            // The same error as from a slice: the claim, at its header.
            assert_eq!(
                *err.kind(),
                surp::ErrorKind::LengthExceedsInput { kind, len: 1 << 63 }
            );
            assert_eq!(err.offset(), Some(0));
        });
        assert!(
            peak <= 4 * arrived + SMALL,
            "{kind:?}: held {peak} bytes for {arrived} that arrived"
        );
    }
}

#[test]
fn nested_claims_from_a_reader_allocate_little() {
    // 128 nested arrays each claiming 2^22 elements: within the default
    // allocation limit, 640 bytes in all. Before the size hint was dropped
    // for readers, `Value` held 24 MiB for them.
    let mut input = Vec::new();
    for _ in 0..surp::DEFAULT_MAX_DEPTH {
        input.push(wire::ARRAY8 + 2);
        input.extend_from_slice(&(1u32 << 22).to_le_bytes());
    }
    let peak = peak_heap_during(|| {
        let err = surp::from_reader::<_, Value>(&input[..]).expect_err("decoded a claim");
        // The outermost claim, at its header, as from a slice.
        let kind = Kind::Array;
        let len = 1 << 22;
        assert_eq!(
            *err.kind(),
            surp::ErrorKind::LengthExceedsInput { kind, len }
        );
        assert_eq!(err.offset(), Some(0));
    });
    assert!(
        peak < SMALL,
        "held {peak} bytes for {} bytes of input",
        input.len()
    );
}

/// Each level of a slice's nesting can claim as many items as the bytes left,
/// but the levels overlap: the deserializer's hint budget makes the hints of
/// all open collections together stay within the input, so what visitors
/// preallocate stays within a few `Value`s per input byte.
#[test]
fn nested_claims_in_a_slice_preallocate_at_most_the_input() {
    // 128 arrays, each claiming 4,096 items, then 4,096 zero bytes.
    let mut input = Vec::new();
    for _ in 0..128 {
        input.extend_from_slice(&[wire::ARRAY8 + 1, 0x00, 0x10]);
    }
    input.extend(std::iter::repeat_n(0u8, 4096));
    let peak = peak_heap_during(|| surp::from_slice::<Value>(&input));
    let per_byte = std::mem::size_of::<Value>() * 2;
    assert!(
        peak < per_byte * input.len(),
        "peak {peak} bytes for {} input bytes",
        input.len()
    );
}
