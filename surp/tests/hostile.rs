//! Hostile input: every malformed, truncated or oversized document gives an
//! `Err` with a byte offset inside the input, and never a panic, a stack
//! overflow or a hang. (Truncation of every test vector is in `vectors.rs`,
//! next to the vectors; allocation bounds are in `alloc_bound.rs`.)

mod common;

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::sample::Index;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use surp::wire::{self, Kind};
use surp::{DEFAULT_MAX_DEPTH, Error, ErrorKind, Options, Value};

/// Unwraps the error and checks it points inside the input (the end of the
/// input counts: that is where a missing byte was expected).
#[track_caller]
fn error_within<T: std::fmt::Debug>(result: surp::Result<T>, input: &[u8]) -> Error {
    let err = result.expect_err("hostile input was accepted");
    let offset = err.offset().unwrap_or_else(|| panic!("no offset: {err}"));
    assert!(
        offset <= input.len(),
        "offset {offset} past the input's {} bytes: {err}",
        input.len()
    );
    err
}

/// Decodes `input` with `opts` from a slice and from a reader, as `T`.
fn both<T: DeserializeOwned>(opts: &Options, input: &[u8]) -> [surp::Result<T>; 2] {
    [opts.from_slice(input), opts.from_reader(input)]
}

// ---------------------------------------------------------------------------
// Random corruption

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Change {
    Created,
    Renamed(String),
    Moved { from: (i32, i32), to: (i32, i32) },
    Scaled(u8, Option<f32>),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Event {
    id: u64,
    change: Change,
    name: String,
    #[serde(with = "serde_bytes")]
    payload: Vec<u8>,
    tags: BTreeMap<String, i64>,
    score: Option<Option<f64>>,
    history: Vec<(u16, Change)>,
    wide: i128,
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        Just(Change::Created),
        common::string().prop_map(Change::Renamed),
        any::<[i32; 4]>().prop_map(|[a, b, c, d]| Change::Moved {
            from: (a, b),
            to: (c, d)
        }),
        (any::<u8>(), any::<Option<f32>>()).prop_map(|(a, b)| Change::Scaled(a, b)),
    ]
}

fn event() -> impl Strategy<Value = Event> {
    (
        any::<u64>(),
        change(),
        common::string(),
        common::bytes(),
        prop::collection::btree_map(common::string(), any::<i64>(), 0..6),
        any::<Option<Option<f64>>>(),
        prop::collection::vec((any::<u16>(), change()), 0..6),
        common::integer().prop_map(|i| i128::try_from(i).unwrap_or(i128::MAX)),
    )
        .prop_map(
            |(id, change, name, payload, tags, score, history, wide)| Event {
                id,
                change,
                name,
                payload,
                tags,
                score,
                history,
                wide,
            },
        )
}

/// Encoded documents to corrupt: dynamic values and typed records.
fn document() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        common::value().prop_map(|v| surp::to_vec(&v).unwrap()),
        event().prop_map(|e| surp::to_vec(&e).unwrap()),
    ]
}

/// Decodes corrupted `input` every way there is. Each must end in `Ok` or an
/// `Err` placed inside the input; the slice and reader paths must agree.
fn decode_every_way(input: &[u8]) -> Result<(), TestCaseError> {
    let opts = Options::new();
    let [slice, reader] = both::<Value>(&opts, input);
    match (&slice, &reader) {
        (Ok(a), Ok(b)) => prop_assert!(common::same_bits(a, b), "{a} vs {b}"),
        (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "slice {slice:?} but reader {reader:?}"),
    }
    let [skip_slice, skip_reader] = both::<IgnoredAny>(&opts, input);
    prop_assert_eq!(skip_slice.is_ok(), skip_reader.is_ok());
    // Skipping checks less than decoding (no UTF-8, no depth), never more.
    if slice.is_ok() {
        prop_assert!(skip_slice.is_ok(), "decodes as a Value but does not skip");
    }
    let [event_slice, event_reader] = both::<Event>(&opts, input);
    prop_assert_eq!(event_slice.is_ok(), event_reader.is_ok());
    let json: surp::Result<serde_json::Value> = surp::from_slice(input);
    for err in [
        slice.err(),
        reader.err(),
        skip_slice.err(),
        skip_reader.err(),
        event_slice.err(),
        event_reader.err(),
        json.err(),
    ]
    .into_iter()
    .flatten()
    {
        let offset = err.offset();
        prop_assert!(
            offset.is_some_and(|o| o <= input.len()),
            "error {err} has offset {offset:?} for {} bytes",
            input.len()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn random_bit_flips_give_ok_or_err_never_a_panic(
        doc in document(),
        flips in prop::collection::vec((any::<Index>(), 0u8..8), 1..6),
    ) {
        let mut input = doc;
        for (at, bit) in flips {
            let at = at.index(input.len());
            input[at] ^= 1 << bit;
        }
        decode_every_way(&input)?;
    }

    #[test]
    fn random_byte_replacements_give_ok_or_err_never_a_panic(
        doc in document(),
        replacements in prop::collection::vec((any::<Index>(), any::<u8>()), 1..6),
    ) {
        let mut input = doc;
        for (at, byte) in replacements {
            let at = at.index(input.len());
            input[at] = byte;
        }
        decode_every_way(&input)?;
    }

    #[test]
    fn random_splices_give_ok_or_err_never_a_panic(
        doc in document(),
        at in any::<Index>(),
        cut in 0usize..4,
        inserted in prop::collection::vec(any::<u8>(), 0..12),
    ) {
        let mut input = doc;
        let at = at.index(input.len());
        let end = (at + cut).min(input.len());
        input.splice(at..end, inserted);
        decode_every_way(&input)?;
    }

    #[test]
    fn arbitrary_bytes_give_ok_or_err_never_a_panic(
        input in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        decode_every_way(&input)?;
    }
}

// ---------------------------------------------------------------------------
// Declared lengths far beyond the input

/// The first tag of each length-prefixed family, and the value to decode it as.
const LENGTH_FAMILIES: [(Kind, u8); 4] = [
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
fn every_way(kind: Kind, opts: &Options, input: &[u8]) -> [surp::Result<()>; 6] {
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

// ---------------------------------------------------------------------------
// Nesting

const MILLION: usize = 1_000_000;

/// A stack far too small for unchecked recursion a million levels deep, and
/// large enough for the default limit of 128.
///
/// Measured (the smallest thread stack that decodes 128 levels, found by
/// bisection): an optimised build needs at most 116 KiB (a `Value` of nested
/// maps read from a reader, about 0.9 KiB per level), so release test runs
/// hold the 256 KiB bar. An unoptimised build needs up to 450 KiB (about
/// 3.5 KiB per level), so debug test runs get 1 MiB instead.
/// `stack_use_per_level_fits_the_small_stack` prints the figures.
const SMALL_STACK_KIB: usize = if cfg!(debug_assertions) { 1024 } else { 256 };

/// One level of nesting in each container form the decoder follows, and
/// whether JSON can hold it (JSON object keys are strings).
const LEVELS: [(&str, &[u8], bool); 6] = [
    ("fixarray", &[0xa1], true),
    ("array with a 1-byte count", &[0xd0, 0x01], true),
    ("fixmap with an integer key", &[0xb1, 0x00], false),
    ("fixmap with a string key", &[0xb1, 0x81, b'k'], true),
    ("map with a 1-byte count", &[0xd4, 0x01, 0x00], false),
    ("some marker", &[0xeb], true),
];

fn nest(level: &[u8], depth: usize, leaf: &[u8]) -> Vec<u8> {
    let mut input = level.repeat(depth);
    input.extend_from_slice(leaf);
    input
}

#[derive(Deserialize, Debug)]
struct Nest(#[allow(dead_code)] Vec<Nest>);

#[derive(Deserialize, Debug)]
struct Linked {
    #[allow(dead_code)]
    next: Option<Box<Linked>>,
}

#[derive(Deserialize, Debug)]
enum Chain {
    End,
    Link(#[allow(dead_code)] Box<Chain>),
}

#[derive(Deserialize, Debug)]
struct Maybe(#[allow(dead_code)] Option<Box<Maybe>>);

/// A one-entry map with a string key: `{key: <next level>}`.
fn keyed(key: &str) -> Vec<u8> {
    let mut level = vec![0xb1, wire::FIXSTR | key.len() as u8];
    level.extend_from_slice(key.as_bytes());
    level
}

#[test]
fn a_million_levels_of_nesting_hit_the_depth_limit_on_a_small_stack() {
    for (name, level, json_can_hold_it) in LEVELS {
        let input = nest(level, MILLION, &[]);
        let expected_offset = DEFAULT_MAX_DEPTH * level.len();
        common::on_stack_of(SMALL_STACK_KIB, move || {
            for result in both::<Value>(&Options::new(), &input) {
                let err = error_within(result, &input);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                    "{name}"
                );
                assert_eq!(err.offset(), Some(expected_offset), "{name}");
            }
            let json = error_within(surp::from_slice::<serde_json::Value>(&input), &input);
            if json_can_hold_it {
                assert_eq!(
                    *json.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                    "{name}"
                );
            }
        });
    }
}

#[test]
fn a_million_levels_of_nesting_into_recursive_types_hit_the_depth_limit_on_a_small_stack() {
    fn check<T: DeserializeOwned + std::fmt::Debug>(name: &str, level: &[u8]) {
        let input = nest(level, MILLION, &[]);
        for result in both::<T>(&Options::new(), &input) {
            let err = error_within(result, &input);
            assert_eq!(
                *err.kind(),
                ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                "{name}"
            );
            assert_eq!(
                err.offset(),
                Some(DEFAULT_MAX_DEPTH * level.len()),
                "{name}"
            );
        }
    }
    common::on_stack_of(SMALL_STACK_KIB, || {
        check::<Nest>("Nest(Vec<Nest>)", &[0xa1]);
        check::<Linked>("Linked { next }", &keyed("next"));
        check::<Chain>("Chain::Link", &keyed("Link"));
        check::<Maybe>("Maybe(Option<Box<Maybe>>)", &[0xeb]);
    });
}

#[test]
fn an_option_that_recurses_without_consuming_input_hits_the_depth_limit() {
    // `Maybe(Some(x))` is written as `x` itself, so every `Some` of a chain
    // starts at the same byte; decoding once recursed here without end.
    common::on_stack_of(SMALL_STACK_KIB, || {
        for input in [&[0x05][..], &[0xa0], &[0x81, b'x']] {
            for result in both::<Maybe>(&Options::new(), input) {
                let err = error_within(result, input);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                    "{input:02x?}"
                );
                assert_eq!(err.offset(), Some(0));
            }
        }
    });
    // The guard counts only `Some`s nested at one offset: a long list of
    // implicit `Some`s at increasing offsets is fine.
    let list: Vec<Option<u8>> = (0..1000).map(|i| Some((i % 100) as u8)).collect();
    let bytes = surp::to_vec(&list).unwrap();
    assert_eq!(surp::from_slice::<Vec<Option<u8>>>(&bytes).unwrap(), list);
    let deep: Option<Option<Option<Option<u8>>>> = Some(Some(Some(Some(9))));
    assert_eq!(surp::to_vec(&deep).unwrap(), [9]);
    assert_eq!(
        surp::from_slice::<Option<Option<Option<Option<u8>>>>>(&[9]).unwrap(),
        deep
    );
}

#[test]
fn skipping_a_million_levels_of_nesting_uses_no_stack() {
    for (name, level, _) in LEVELS {
        let complete = nest(level, MILLION, &[0x00]);
        let cut = nest(level, MILLION, &[]);
        common::on_stack_of(SMALL_STACK_KIB, move || {
            for result in both::<IgnoredAny>(&Options::new(), &complete) {
                result.unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            for result in both::<IgnoredAny>(&Options::new(), &cut) {
                let err = error_within(result, &cut);
                assert!(
                    matches!(
                        err.kind(),
                        ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput { .. }
                    ),
                    "{name}: {err}"
                );
            }
        });
    }
}

/// How deep a decoded `Value` is, counting arrays and maps.
fn value_depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
        Value::Map(entries) => {
            1 + entries
                .iter()
                .map(|(k, v)| value_depth(k).max(value_depth(v)))
                .max()
                .unwrap_or(0)
        }
        _ => 0,
    }
}

#[test]
fn depth_at_the_limit_decodes_and_one_more_fails_on_a_small_stack() {
    common::on_stack_of(SMALL_STACK_KIB, || {
        for (name, level, _) in LEVELS {
            let at_limit = nest(level, DEFAULT_MAX_DEPTH, &[0x00]);
            for result in both::<Value>(&Options::new(), &at_limit) {
                let value = result.unwrap_or_else(|e| panic!("{name}: {e}"));
                let expected = if level == [0xeb] {
                    0
                } else {
                    DEFAULT_MAX_DEPTH
                };
                assert_eq!(value_depth(&value), expected, "{name}");
            }
            let over = nest(level, DEFAULT_MAX_DEPTH + 1, &[0x00]);
            for result in both::<Value>(&Options::new(), &over) {
                let err = error_within(result, &over);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
                );
                assert_eq!(err.offset(), Some(DEFAULT_MAX_DEPTH * level.len()));
            }
        }
    });
}

#[test]
fn recursive_types_at_the_depth_limit_decode_and_one_more_fails_on_a_small_stack() {
    /// `levels` repetitions of `level` around `leaf` nest exactly to the limit.
    fn check<T: DeserializeOwned + std::fmt::Debug>(level: &[u8], levels: usize, leaf: &[u8]) {
        let at_limit = nest(level, levels, leaf);
        for result in both::<T>(&Options::new(), &at_limit) {
            result.unwrap_or_else(|e| panic!("{}: {e}", std::any::type_name::<T>()));
        }
        let over = nest(level, levels + 1, leaf);
        for result in both::<T>(&Options::new(), &over) {
            let err = error_within(result, &over);
            assert_eq!(
                *err.kind(),
                ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
            );
            assert_eq!(err.offset(), Some(DEFAULT_MAX_DEPTH * level.len()));
        }
    }
    common::on_stack_of(SMALL_STACK_KIB, || {
        // The innermost level is an empty array and a map without `next`
        // (each one more level), the unit variant and `None` (no level).
        check::<Nest>(&[0xa1], DEFAULT_MAX_DEPTH - 1, &[0xa0]);
        check::<Linked>(&keyed("next"), DEFAULT_MAX_DEPTH - 1, &[0xb0]);
        check::<Chain>(&keyed("Link"), DEFAULT_MAX_DEPTH, &[0x83, b'E', b'n', b'd']);
        check::<Maybe>(&[0xeb], DEFAULT_MAX_DEPTH, &[0xe8]);
    });
}

#[test]
fn structs_read_by_position_nest_to_the_depth_limit_on_a_small_stack() {
    // A deduplicated array of two `Linked` chains: the first, `{"next":
    // null}`, registers shape 0 (`["next"]`, the field list of `Linked`);
    // the second is `levels` references to it, each read by position.
    fn doc(levels: usize) -> Vec<u8> {
        let mut input = vec![wire::DEDUP_MARKER, wire::FIXARRAY | 2];
        input.extend(keyed("next"));
        input.push(wire::NULL);
        input.extend(std::iter::repeat_n(wire::FIXSHAPE, levels));
        input.push(wire::NULL);
        input
    }
    common::on_stack_of(SMALL_STACK_KIB, || {
        // The array is one level.
        let at_limit = doc(DEFAULT_MAX_DEPTH - 1);
        for opts in [Options::new(), Options::new().positional_structs(false)] {
            for result in both::<Vec<Linked>>(&opts, &at_limit) {
                result.unwrap_or_else(|e| panic!("{e}"));
            }
            let over = doc(DEFAULT_MAX_DEPTH);
            for result in both::<Vec<Linked>>(&opts, &over) {
                let err = error_within(result, &over);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
                );
                // The reference that opens one level too many.
                assert_eq!(err.offset(), Some(9 + DEFAULT_MAX_DEPTH - 1));
            }
        }
    });
}

/// An `io::Read` that notes the deepest stack address it is called from: the
/// decoder reads from it at every level, so this measures the decoder itself.
struct StackProbe<'a> {
    input: &'a [u8],
    deepest: usize,
}

fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl std::io::Read for StackProbe<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.deepest = self.deepest.min(stack_address());
        self.input.read(buf)
    }
}

/// Stack bytes used to decode `input` as `T` from a reader.
fn stack_used<T: DeserializeOwned>(input: &[u8], opts: &Options) -> usize {
    let top = stack_address();
    let mut probe = StackProbe {
        input,
        deepest: usize::MAX,
    };
    opts.from_reader::<_, T>(&mut probe).unwrap();
    top - probe.deepest
}

#[test]
fn stack_use_per_level_fits_the_small_stack() {
    fn measure<T: DeserializeOwned>(name: &str, level: &[u8], leaf: &[u8]) {
        let deeper = Options::new().max_depth(4 * DEFAULT_MAX_DEPTH);
        let at_limit = stack_used::<T>(&nest(level, DEFAULT_MAX_DEPTH, leaf), &deeper);
        let far = stack_used::<T>(&nest(level, 3 * DEFAULT_MAX_DEPTH, leaf), &deeper);
        let per_level = (far - at_limit) / (2 * DEFAULT_MAX_DEPTH);
        println!(
            "{name}: {per_level} bytes of stack per level, {} KiB at depth {DEFAULT_MAX_DEPTH}",
            at_limit / 1024
        );
        assert!(per_level > 0, "{name}: the probe saw no recursion");
        assert!(
            at_limit < SMALL_STACK_KIB * 1024,
            "{name}: {at_limit} bytes at the default depth exceed the small stack"
        );
    }
    common::on_stack_of(16 * 1024, || {
        measure::<Value>("Value, arrays", &[0xa1], &[0x00]);
        measure::<Value>("Value, maps", &[0xb1, 0x00], &[0x00]);
        measure::<serde_json::Value>("serde_json::Value, arrays", &[0xa1], &[0x00]);
        measure::<Nest>("Nest(Vec<Nest>)", &[0xa1], &[0xa0]);
        measure::<Linked>("Linked { next }", &keyed("next"), &[0xe8]);
        measure::<Chain>("Chain::Link", &keyed("Link"), &[0x83, b'E', b'n', b'd']);
    });
}

#[test]
fn a_lower_depth_limit_is_enforced_exactly() {
    for limit in [0, 1, 5] {
        let opts = Options::new().max_depth(limit);
        let at_limit = nest(&[0xa1], limit, &[0x07]);
        for result in both::<Value>(&opts, &at_limit) {
            result.unwrap();
        }
        let over = nest(&[0xa1], limit + 1, &[0x07]);
        for result in both::<Value>(&opts, &over) {
            let err = error_within(result, &over);
            assert_eq!(*err.kind(), ErrorKind::DepthLimitExceeded(limit));
            assert_eq!(err.offset(), Some(limit));
        }
    }
}

// ---------------------------------------------------------------------------
// Invalid UTF-8

/// Byte sequences that are not UTF-8.
const NOT_UTF8: [(&str, &[u8]); 12] = [
    ("overlong NUL", &[0xc0, 0x80]),
    ("overlong 2-byte form of 'A'", &[0xc1, 0x81]),
    ("overlong 3-byte form of '/'", &[0xe0, 0x80, 0xaf]),
    ("overlong 4-byte form of '/'", &[0xf0, 0x80, 0x80, 0xaf]),
    ("high surrogate", &[0xed, 0xa0, 0x80]),
    ("low surrogate", &[0xed, 0xbf, 0xbf]),
    ("truncated 2-byte sequence", &[0xc3]),
    ("truncated 3-byte sequence", &[0xe2, 0x82]),
    ("truncated 4-byte sequence", &[0xf0, 0x9f, 0x98]),
    ("lone continuation byte", &[0x80]),
    ("byte 0xff", &[0xff]),
    ("code point above U+10FFFF", &[0xf4, 0x90, 0x80, 0x80]),
];

/// A string of valid text, then `bad`, then more text; `long` uses a
/// length-prefixed header instead of the inline one. Returns the encoding and
/// the offset of the first invalid byte within it.
fn bad_string(bad: &[u8], long: bool) -> (Vec<u8>, usize) {
    let mut payload = b"ok".to_vec();
    payload.extend_from_slice(bad);
    if long {
        payload.extend_from_slice(&[b'x'; 40]);
    }
    let mut out = if payload.len() <= wire::FIXSTR_MAX_LEN {
        vec![wire::FIXSTR | payload.len() as u8]
    } else {
        vec![wire::STR8, payload.len() as u8]
    };
    let bad_at = out.len() + 2;
    out.extend_from_slice(&payload);
    (out, bad_at)
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
enum Variants {
    Unit,
    Newtype(u8),
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Named {
    a: u8,
}

#[test]
fn invalid_utf8_is_an_error_at_the_first_bad_byte_wherever_a_string_is() {
    fn expect_utf8_error<T: DeserializeOwned + std::fmt::Debug>(
        what: &str,
        input: &[u8],
        bad_at: usize,
    ) {
        for result in both::<T>(&Options::new(), input) {
            let err = error_within(result, input);
            assert_eq!(*err.kind(), ErrorKind::InvalidUtf8, "{what}: {err}");
            assert_eq!(err.offset(), Some(bad_at), "{what}: {err}");
        }
    }
    for (name, bad) in NOT_UTF8 {
        for long in [false, true] {
            let (s, at) = bad_string(bad, long);
            let what = |place: &str| format!("{name} ({place}, long = {long})");
            expect_utf8_error::<Value>(&what("value"), &s, at);
            expect_utf8_error::<String>(&what("String"), &s, at);
            expect_utf8_error::<serde_json::Value>(&what("JSON value"), &s, at);
            expect_utf8_error::<Variants>(&what("unit variant name"), &s, at);

            let mut in_array = vec![0xa2, 0x00];
            in_array.extend_from_slice(&s);
            expect_utf8_error::<Value>(&what("array element"), &in_array, at + 2);
            expect_utf8_error::<(u8, String)>(&what("tuple field"), &in_array, at + 2);

            let mut as_key = vec![0xb1];
            as_key.extend_from_slice(&s);
            as_key.push(0x00);
            expect_utf8_error::<Value>(&what("map key"), &as_key, at + 1);
            expect_utf8_error::<BTreeMap<String, u8>>(&what("String key"), &as_key, at + 1);
            expect_utf8_error::<Named>(&what("field name"), &as_key, at + 1);
            expect_utf8_error::<Variants>(&what("variant name"), &as_key, at + 1);

            // Borrowed strings are checked too.
            let err = error_within(surp::from_slice::<&str>(&s), &s);
            assert_eq!(*err.kind(), ErrorKind::InvalidUtf8);
            assert_eq!(err.offset(), Some(at));
        }
    }
}

#[test]
fn a_char_must_be_one_valid_code_point() {
    let (s, at) = bad_string(&[0xed, 0xa0, 0x80], false);
    assert_eq!(
        *error_within(surp::from_slice::<char>(&s), &s).kind(),
        ErrorKind::InvalidUtf8
    );
    assert_eq!(surp::from_slice::<char>(&s).unwrap_err().offset(), Some(at));
    let two = surp::to_vec("ab").unwrap();
    error_within(surp::from_slice::<char>(&two), &two);
    let empty = surp::to_vec("").unwrap();
    error_within(surp::from_slice::<char>(&empty), &empty);
}

// ---------------------------------------------------------------------------
// Trailing bytes

#[test]
fn trailing_bytes_after_a_value_are_an_error_in_from_slice_and_from_reader() {
    let record = [0xb1, 0x81, b'a', 0x01];
    let cases: [(&[u8], usize); 5] = [
        (&[0x00, 0x00], 1),
        (&[0xe8, 0xe8], 1),
        (&[0x81, b'x', 0xa0], 2),
        (&[0xa1, 0x01, 0xff], 2),
        (&[0xb1, 0x81, b'a', 0x01, 0x00], 4),
    ];
    for (input, at) in cases {
        let results = [
            surp::from_slice::<Value>(input).map(drop),
            surp::from_reader::<_, Value>(input).map(drop),
            surp::from_slice::<IgnoredAny>(input).map(drop),
            surp::from_reader::<_, IgnoredAny>(input).map(drop),
        ];
        for result in results {
            let err = error_within(result, input);
            assert_eq!(*err.kind(), ErrorKind::TrailingBytes, "{input:02x?}");
            assert_eq!(err.offset(), Some(at), "{input:02x?}");
        }
    }
    let mut named = record.to_vec();
    named.push(0xe8);
    for result in both::<Named>(&Options::new(), &named) {
        assert_eq!(
            *error_within(result, &named).kind(),
            ErrorKind::TrailingBytes
        );
    }
}

#[test]
fn a_deserializer_reads_several_values_and_then_requires_the_end() {
    let mut input = surp::to_vec(&1u8).unwrap();
    input.extend(surp::to_vec("two").unwrap());
    assert_eq!(
        *error_within(surp::from_slice::<u8>(&input), &input).kind(),
        ErrorKind::TrailingBytes
    );

    let mut de = surp::Deserializer::from_slice(&input);
    assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    assert_eq!(String::deserialize(&mut de).unwrap(), "two");
    de.end().unwrap();

    let mut de = surp::Deserializer::from_reader(&input[..]);
    assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    assert_eq!(String::deserialize(&mut de).unwrap(), "two");
    de.end().unwrap();
}

// ---------------------------------------------------------------------------
// Limits in `Options`

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

// ---------------------------------------------------------------------------
// Deduplication tags in hostile documents

/// A one-byte shape reference in a plain document is an error wherever
/// it is met: decoded, or skipped as a value that no field wants (plain
/// documents are skipped by a loop of their own).
#[test]
fn a_one_byte_shape_reference_without_the_marker_is_an_error_even_when_skipped() {
    #[derive(Deserialize, Debug)]
    struct NoFields {}
    for tag in [wire::FIXSHAPE, wire::FIXSHAPE_LAST] {
        // {"x": <tag>}
        let input = [0xb1, 0x81, b'x', tag];
        let errors = [
            both::<NoFields>(&Options::new(), &input).map(|r| r.map(drop)),
            both::<IgnoredAny>(&Options::new(), &input).map(|r| r.map(drop)),
            both::<Value>(&Options::new(), &input).map(|r| r.map(drop)),
        ];
        for result in errors.into_iter().flatten() {
            let err = error_within(result, &input);
            assert_eq!(
                *err.kind(),
                ErrorKind::RefWithoutMarker,
                "{tag:#04x}: {err}"
            );
            assert_eq!(err.offset(), Some(3), "{tag:#04x}: {err}");
        }
    }
}

#[test]
fn hostile_deduplication_references_are_errors() {
    let s_abcd = [0x84, b'a', b'b', b'c', b'd'];
    let doc = |parts: &[&[u8]]| parts.concat();
    let cases: Vec<(&str, Vec<u8>, ErrorKind, usize)> = vec![
        (
            "string reference without the marker",
            doc(&[&[0xf3, 0x00]]),
            ErrorKind::RefWithoutMarker,
            0,
        ),
        (
            "string reference as a map key without the marker",
            doc(&[&[0xb1, 0xf3, 0x00, 0x01]]),
            ErrorKind::RefWithoutMarker,
            1,
        ),
        (
            "shape reference without the marker",
            doc(&[&[0xa1, 0xf6, 0x00]]),
            ErrorKind::RefWithoutMarker,
            1,
        ),
        (
            "one-byte shape reference without the marker",
            doc(&[&[0xa1, wire::FIXSHAPE_LAST]]),
            ErrorKind::RefWithoutMarker,
            1,
        ),
        (
            "reference to an undefined slot",
            doc(&[&[0xf2, 0xf3, 0x00]]),
            ErrorKind::UnknownStringRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            1,
        ),
        (
            "reference to a 3-byte slot index",
            doc(&[&[0xf2, 0xf5, 0xff, 0xff, 0xff]]),
            ErrorKind::UnknownStringRef {
                index: 0xff_ffff,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            1,
        ),
        (
            "forward reference to the next literal",
            doc(&[&[0xf2, 0xa2, 0xf3, 0x00], &s_abcd]),
            ErrorKind::UnknownStringRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            2,
        ),
        (
            "reference past the defined slots",
            doc(&[&[0xf2, 0xa2], &s_abcd, &[0xf3, 0x01]]),
            ErrorKind::UnknownStringRef {
                index: 1,
                defined: 1,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            7,
        ),
        (
            "a short literal takes no slot",
            doc(&[&[0xf2, 0xa2, 0x81, b'a', 0xf3, 0x00]]),
            ErrorKind::UnknownStringRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            4,
        ),
        (
            "reference to an undefined shape",
            doc(&[&[0xf2, 0xf6, 0x00]]),
            ErrorKind::UnknownShapeRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_SHAPES,
            },
            1,
        ),
        (
            "a map referring to its own shape before it ends",
            doc(&[&[0xf2, 0xb1], &s_abcd, &[0xf6, 0x00, 0x01]]),
            ErrorKind::UnknownShapeRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_SHAPES,
            },
            7,
        ),
        (
            "a 2-byte shape index past the defined shapes",
            doc(&[
                &[0xf2, 0xa2, 0xb1],
                &s_abcd,
                &[0x01, 0xf7, 0x01, 0x00, 0x02],
            ]),
            ErrorKind::UnknownShapeRef {
                index: 1,
                defined: 1,
                limit: surp::DEFAULT_MAX_DEDUP_SHAPES,
            },
            9,
        ),
        (
            "marker inside an array",
            doc(&[&[0xa1, 0xf2]]),
            ErrorKind::MisplacedDedupMarker,
            1,
        ),
        (
            "marker twice",
            doc(&[&[0xf2, 0xf2, 0x00]]),
            ErrorKind::MisplacedDedupMarker,
            1,
        ),
        (
            "marker as a map key",
            doc(&[&[0xb1, 0xf2, 0x00]]),
            ErrorKind::MisplacedDedupMarker,
            1,
        ),
        ("marker alone", doc(&[&[0xf2]]), ErrorKind::UnexpectedEof, 1),
    ];
    for (name, input, kind, at) in cases {
        let err = error_within(surp::from_slice::<Value>(&input), &input);
        assert_eq!(*err.kind(), kind, "{name}: {err}");
        assert_eq!(err.offset(), Some(at), "{name}: {err}");
        // A reader meets the marker only when it reads the first value, so
        // errors in that value are placed at the marker (byte 0).
        let err = error_within(surp::from_reader::<_, Value>(&input[..]), &input);
        assert_eq!(*err.kind(), kind, "{name}: {err}");
        for result in both::<IgnoredAny>(&Options::new(), &input) {
            error_within(result, &input);
        }
        for result in both::<Event>(&Options::new(), &input) {
            error_within(result, &input);
        }
    }
    let truncated = [0xf2, 0xf4, 0x00];
    for result in both::<Value>(&Options::new(), &truncated) {
        assert!(error_within(result, &truncated).is_eof());
    }
}

#[test]
fn well_formed_deduplicated_documents_decode_in_plain_surp() {
    // Controls for the hostile cases: a string reference and a shape reference.
    let strings = [0xf2, 0xa2, 0x84, b'a', b'b', b'c', b'd', 0xf3, 0x00];
    let shapes = [
        0xf2, 0xa2, 0xb1, 0x84, b'a', b'b', b'c', b'd', 0x01, 0xf6, 0x00, 0x02,
    ];
    let expected_strings = Value::Array(vec!["abcd".into(), "abcd".into()]);
    let expected_shapes = Value::Array(vec![
        Value::Map(vec![("abcd".into(), 1.into())]),
        Value::Map(vec![("abcd".into(), 2.into())]),
    ]);
    for (input, expected) in [
        (&strings[..], expected_strings),
        (&shapes[..], expected_shapes),
    ] {
        for result in both::<Value>(&Options::new(), input) {
            assert_eq!(result.unwrap(), expected);
        }
        for result in both::<IgnoredAny>(&Options::new(), input) {
            result.unwrap();
        }
    }
}

#[test]
fn deduplication_tables_stop_at_their_limits() {
    let input = [
        &[0xf2, 0xa3][..],
        &[0x84, b'a', b'b', b'c', b'd'],
        &[0x84, b'e', b'f', b'g', b'h'],
        &[0xf3, 0x01],
    ]
    .concat();
    for result in both::<Value>(&Options::new(), &input) {
        assert_eq!(result.unwrap()[2], Value::from("efgh"));
    }
    for result in both::<Value>(&Options::new().max_dedup_strings(1), &input) {
        let err = error_within(result, &input);
        assert_eq!(
            *err.kind(),
            ErrorKind::UnknownStringRef {
                index: 1,
                defined: 1,
                limit: 1
            }
        );
        assert!(
            err.to_string()
                .contains("beyond this decoder's limit of 1 slot (Options::max_dedup_strings)"),
            "{err}"
        );
    }
    let shapes = [
        0xf2, 0xa3, 0xb1, 0x84, b'a', b'b', b'c', b'd', 0x01, 0xb1, 0x84, b'e', b'f', b'g', b'h',
        0x02, 0xf6, 0x01, 0x03,
    ];
    for result in both::<Value>(&Options::new(), &shapes) {
        assert_eq!(result.unwrap()[2]["efgh"], Value::from(3));
    }
    for result in both::<Value>(&Options::new().max_dedup_shapes(1), &shapes) {
        let err = error_within(result, &shapes);
        assert_eq!(
            *err.kind(),
            ErrorKind::UnknownShapeRef {
                index: 1,
                defined: 1,
                limit: 1
            }
        );
        assert!(
            err.to_string()
                .contains("beyond this decoder's limit of 1 shape (Options::max_dedup_shapes)"),
            "{err}"
        );
    }
}

#[test]
fn a_reference_bomb_is_stopped_by_the_allocation_limit() {
    // One 1000-byte string referenced 1000 times expands to 1 MB from 3 KB.
    let mut input = vec![0xf2, wire::ARRAY8 + 1];
    input.extend_from_slice(&1001u16.to_le_bytes());
    input.push(wire::STR8 + 1);
    input.extend_from_slice(&1000u16.to_le_bytes());
    input.extend_from_slice(&[b'x'; 1000]);
    for _ in 0..1000 {
        input.extend_from_slice(&[0xf3, 0x00]);
    }
    for result in both::<Value>(&Options::new(), &input) {
        let v = result.unwrap();
        assert_eq!(v.as_array().map(Vec::len), Some(1001));
    }
    let limited = Options::new().max_alloc(100_000);
    for result in both::<Value>(&limited, &input) {
        let err = error_within(result, &input);
        assert_eq!(*err.kind(), ErrorKind::AllocationLimitExceeded(100_000));
    }
}

/// Found by the CLI's differential test: in a deduplicated document, invalid
/// UTF-8 in an explicit map's key literal was placed at the key's tag byte.
#[test]
fn invalid_utf8_in_a_dedup_map_key_is_placed_at_the_bad_byte() {
    let plain =
        surp::from_slice::<surp::Value>(&[0xb1, 0x84, b'n', b'a', b'm', 0x84, 0x01]).unwrap_err();
    let dedup = surp::from_slice::<surp::Value>(&[0xf2, 0xb1, 0x84, b'n', b'a', b'm', 0x84, 0x01])
        .unwrap_err();
    assert_eq!(*plain.kind(), surp::ErrorKind::InvalidUtf8);
    assert_eq!(*dedup.kind(), surp::ErrorKind::InvalidUtf8);
    assert_eq!(plain.offset(), Some(5));
    assert_eq!(dedup.offset(), Some(6));
}
