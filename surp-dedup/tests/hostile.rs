//! Hostile deduplicated documents: references to slots and shapes that do
//! not exist, table-size bombs against the configured limits, deep nesting
//! through shape references and explicit maps on a small stack, and the core
//! bad-input families (truncation at every offset, bit flips) applied to
//! documents written by `surp_dedup`.
//!
//! Builds on `surp/tests/hostile/` (the basic reference errors, the
//! misplaced marker, the reference bomb) and `surp/tests/memory_bound.rs`
//! (the memory that table bombs and reference bombs may take).

#[path = "../../surp/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::sample::Index;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use surp::__private::wire::{self, Kind};
use surp::{DEFAULT_MAX_DEPTH, Error, ErrorKind, Value};
use surp_dedup::Options;

/// Decodes `input` as `T` from a slice and from a reader.
fn both<T: DeserializeOwned>(opts: &Options, input: &[u8]) -> [surp::Result<T>; 2] {
    [opts.from_slice(input), opts.from_reader(input)]
}

/// Unwraps the error and checks it points inside the input.
#[track_caller]
fn error_within<T: std::fmt::Debug>(result: surp::Result<T>, input: &[u8]) -> Error {
    let err = result.expect_err("hostile input was accepted");
    let offset = err.offset().unwrap_or_else(|| panic!("no offset: {err}"));
    assert!(
        offset <= input.len(),
        "offset {offset} past {} bytes: {err}",
        input.len()
    );
    err
}

/// The error of decoding `input` as a `Value` from a slice, after checking
/// that a reader and skipping fail the same way (a reader places errors in
/// the first value at the marker, so only the slice's offset is exact).
#[track_caller]
fn rejected(opts: &Options, input: &[u8]) -> Error {
    let [slice, reader] = both::<Value>(opts, input);
    let slice = error_within(slice, input);
    let reader = error_within(reader, input);
    assert_eq!(slice.kind(), reader.kind());
    for result in both::<IgnoredAny>(opts, input) {
        assert_eq!(error_within(result, input).kind(), slice.kind());
    }
    slice
}

/// A deduplicated document: the marker and an array of `items`.
fn dedup_array(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![wire::DEDUP_MARKER];
    wire::write_header(&mut out, Kind::Array, items.len()).unwrap();
    items.iter().for_each(|i| out.extend_from_slice(i));
    out
}

/// `count` distinct string literals, each just long enough to take the next
/// slot (2, 3 or 4 bytes as the slot index grows).
fn slot_takers(count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|slot| {
            let len = wire::str_ref_size(slot);
            let text: String = (0..len)
                .map(|i| char::from(b'a' + ((slot >> (5 * i)) % 26) as u8))
                .collect();
            let mut out = Vec::new();
            wire::write_str(&mut out, &text).unwrap();
            out
        })
        .collect()
}

fn str_ref(slot: usize) -> Vec<u8> {
    let mut out = Vec::new();
    wire::write_str_ref(&mut out, slot).unwrap();
    out
}

fn shape_ref(shape: usize, values: usize) -> Vec<u8> {
    let mut out = Vec::new();
    wire::write_shape_ref(&mut out, shape).unwrap();
    out.resize(out.len() + values, 0x00);
    out
}

/// `count` explicit one-key maps that each register a shape (their keys are
/// distinct 2-byte strings, so the explicit form is 4 bytes > a reference).
fn shape_registrations(count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            vec![
                0xb1,
                0x82,
                b'a' + (i % 26) as u8,
                b'a' + (i / 26 % 26) as u8,
                0x00,
            ]
        })
        .collect()
}

// ---------------------------------------------------------------------------
// References that do not resolve

#[test]
fn string_references_of_every_width_to_undefined_slots_are_errors() {
    let opts = Options::new();
    for defined in [0, 1, 255, 256, 300] {
        let mut items = slot_takers(defined);
        let at = 1
            + wire::header_size(Kind::Array, defined + 1)
            + items.iter().map(Vec::len).sum::<usize>();
        for index in [
            defined,
            defined + 1,
            0xff,
            0x100,
            0xffff,
            0x1_0000,
            0xff_ffff,
        ] {
            if index < defined {
                continue;
            }
            items.push(str_ref(index));
            let input = dedup_array(&items);
            let err = rejected(&opts, &input);
            let expected = ErrorKind::UnknownStringRef {
                index: index as u32,
                defined,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            };
            assert_eq!(*err.kind(), expected, "{defined} {index}");
            assert_eq!(err.offset(), Some(at));
            items.pop();
        }
        if defined > 0 {
            // The last defined slot resolves, with its own text.
            items.push(str_ref(defined - 1));
            let input = dedup_array(&items);
            for result in both::<Vec<String>>(&opts, &input) {
                let strings = result.unwrap();
                assert_eq!(strings[defined], strings[defined - 1]);
            }
        }
    }
}

#[test]
fn shape_references_out_of_range_are_errors() {
    let opts = Options::new();
    for defined in [0, 1, 255, 256, 300] {
        let mut items = shape_registrations(defined);
        let at = 1 + wire::header_size(Kind::Array, defined + 1) + 5 * defined;
        for index in [defined, defined + 1, 0xff, 0x100, 0xffff] {
            if index < defined {
                continue;
            }
            items.push(shape_ref(index, 1));
            let input = dedup_array(&items);
            let err = rejected(&opts, &input);
            let expected = ErrorKind::UnknownShapeRef {
                index: index as u32,
                defined,
                limit: surp::DEFAULT_MAX_DEDUP_SHAPES,
            };
            assert_eq!(*err.kind(), expected, "{defined} {index}");
            assert_eq!(err.offset(), Some(at));
            items.pop();
        }
        if defined > 0 {
            items.push(shape_ref(defined - 1, 1));
            let input = dedup_array(&items);
            for result in both::<Vec<BTreeMap<String, u8>>>(&opts, &input) {
                let maps = result.unwrap();
                assert_eq!(
                    maps[defined].keys().collect::<Vec<_>>(),
                    maps[defined - 1].keys().collect::<Vec<_>>()
                );
            }
        }
    }
}

#[test]
fn references_take_no_slot_so_every_slot_is_a_literal_and_cycles_cannot_be_written() {
    // A reference resolves to the bytes of a literal in one step: a
    // reference never takes a slot itself, so no slot can hold a reference,
    // and a literal's slot exists only once the literal has been read, so no
    // string can refer to itself. Here slot 1 is "efgh", not one of the
    // references to "abcd" that come between.
    let items = vec![
        vec![0x84, b'a', b'b', b'c', b'd'],
        str_ref(0),
        str_ref(0),
        vec![0x84, b'e', b'f', b'g', b'h'],
        str_ref(1),
    ];
    let input = dedup_array(&items);
    for result in both::<Vec<String>>(&Options::new(), &input) {
        assert_eq!(result.unwrap(), ["abcd", "abcd", "abcd", "efgh", "efgh"]);
    }
    // The same holds for shape references: a map written as a shape
    // reference registers no shape, so shape 1 is the second explicit map.
    let items = vec![
        vec![0xb1, 0x82, b'k', b'1', 0x01],
        shape_ref(0, 1),
        vec![0xb1, 0x82, b'k', b'2', 0x02],
        shape_ref(1, 1),
    ];
    let input = dedup_array(&items);
    for result in both::<Vec<BTreeMap<String, u8>>>(&Options::new(), &input) {
        let keys: Vec<String> = result
            .unwrap()
            .into_iter()
            .flat_map(|m| m.into_keys())
            .collect();
        assert_eq!(keys, ["k1", "k1", "k2", "k2"]);
    }
    // A key cannot refer to itself: while it is read its slot does not exist.
    let input = [wire::DEDUP_MARKER, 0xb1, wire::STR_REF1, 0x00, 0x00];
    let err = rejected(&Options::new(), &input);
    assert_eq!(
        *err.kind(),
        ErrorKind::UnknownStringRef {
            index: 0,
            defined: 0,
            limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
        }
    );
}

// ---------------------------------------------------------------------------
// Table-size bombs

#[test]
fn more_slot_taking_literals_than_the_default_limit_stop_at_it() {
    // 2^20 + 10 tiny literals, 4 to 5 bytes each: the table stops at 2^20
    // slots, the last slot resolves and the next is an error.
    let limit = surp::DEFAULT_MAX_DEDUP_STRINGS;
    let mut items = slot_takers(limit + 10);
    items.push(str_ref(limit - 1));
    let last = items[limit - 1].clone();
    let input = dedup_array(&items);
    let values: Vec<IgnoredAny> = surp_dedup::from_slice(&input).unwrap();
    assert_eq!(values.len(), limit + 11);
    let strings: Vec<&str> = surp_dedup::from_slice(&input).unwrap();
    assert_eq!(strings[limit + 10].as_bytes(), &last[1..]);

    *items.last_mut().unwrap() = str_ref(limit);
    let input = dedup_array(&items);
    let err = error_within(surp_dedup::from_slice::<IgnoredAny>(&input), &input);
    assert_eq!(
        *err.kind(),
        ErrorKind::UnknownStringRef {
            index: limit as u32,
            defined: limit,
            limit,
        }
    );
}

#[test]
fn table_bombs_hit_configured_limits_with_clear_errors() {
    let opts = Options::new().max_dedup_strings(1000).max_dedup_shapes(100);
    let mut items = slot_takers(5000);
    items.push(str_ref(999));
    let input = dedup_array(&items);
    for result in both::<Vec<String>>(&opts, &input) {
        result.unwrap();
    }
    *items.last_mut().unwrap() = str_ref(1000);
    let input = dedup_array(&items);
    let err = rejected(&opts, &input);
    assert_eq!(
        *err.kind(),
        ErrorKind::UnknownStringRef {
            index: 1000,
            defined: 1000,
            limit: 1000,
        }
    );
    assert!(
        err.to_string()
            .contains("string slot 1000, beyond this decoder's limit of 1000 slots"),
        "{err}"
    );

    let mut items = shape_registrations(500);
    items.push(shape_ref(99, 1));
    let input = dedup_array(&items);
    for result in both::<Vec<BTreeMap<String, u8>>>(&opts, &input) {
        result.unwrap();
    }
    *items.last_mut().unwrap() = shape_ref(100, 1);
    let input = dedup_array(&items);
    let err = rejected(&opts, &input);
    assert_eq!(
        *err.kind(),
        ErrorKind::UnknownShapeRef {
            index: 100,
            defined: 100,
            limit: 100,
        }
    );
}

#[test]
fn a_shape_reference_bomb_is_stopped_by_the_allocation_limit() {
    // One shape of 64 keys of 200 bytes, referenced 1000 times: 12.8 MB of
    // keys from a 78 KB document.
    let mut shape = Vec::new();
    wire::write_header(&mut shape, Kind::Map, 64).unwrap();
    for i in 0..64u8 {
        let key = format!("{i:0>200}");
        wire::write_str(&mut shape, &key).unwrap();
        shape.push(0x00);
    }
    let mut items = vec![shape];
    items.extend((0..1000).map(|_| shape_ref(0, 64)));
    let input = dedup_array(&items);
    let limit = 1_000_000;
    let opts = Options::new().decode_limits(surp::Options::new().max_alloc(limit));
    let err = rejected(&opts, &input);
    assert_eq!(*err.kind(), ErrorKind::AllocationLimitExceeded(limit));
    // 160 times its size: beyond the default proportional limit (64 times
    // what was read, plus 1 MiB), from a slice and a reader alike...
    let [from_slice, from_reader] =
        both::<Vec<BTreeMap<String, u8>>>(&Options::new(), &input).map(|r| r.unwrap_err());
    assert!(matches!(
        from_slice.kind(),
        ErrorKind::AllocationLimitExceeded(_)
    ));
    assert_eq!(
        (from_slice.kind(), from_slice.offset()),
        (from_reader.kind(), from_reader.offset())
    );
    // ...and within a looser one.
    let loose = Options::new().decode_limits(surp::Options::new().max_expansion(256, 0));
    for result in both::<Vec<BTreeMap<String, u8>>>(&loose, &input) {
        assert_eq!(result.unwrap().len(), 1001);
    }
}

#[test]
fn the_expansion_limit_stops_at_the_reference_its_rule_names() {
    // Two slot-taking literals of 40 and 3 bytes, then 300 references to
    // them in an irregular pattern, with integers of 1 to 9 bytes (which
    // expand to nothing) between some of them: the charges and the bytes
    // read between charges both vary. The rule: a reference whose index
    // ends at offset `r` (from the marker) may bring the document's
    // expansion to `min(r * ratio + base, max_alloc)`. The decoder caches
    // the allowance between charges; this checks the first reference over
    // it, and the error, against the rule, over settings that stop early,
    // late, at `max_alloc`, or never.
    let literals = [&"l".repeat(40), "abc"];
    let mut items: Vec<Vec<u8>> = literals
        .iter()
        .map(|text| {
            let mut out = Vec::new();
            wire::write_str(&mut out, text).unwrap();
            out
        })
        .collect();
    // Each reference: its item's index and its charge.
    let mut refs = Vec::new();
    for i in 0..300u64 {
        let slot = usize::from(i % 7 == 0 || i % 5 == 3);
        refs.push((items.len(), literals[slot].len()));
        items.push(str_ref(slot));
        if i % 3 == 0 {
            let mut int = Vec::new();
            wire::write_uint(&mut int, (i * 0x1234_5678_9abc) >> (i % 64)).unwrap();
            items.push(int);
        }
    }
    let input = dedup_array(&items);
    // Where each item starts: after the marker, the header and the items
    // before it.
    let mut at = input.len() - items.iter().map(Vec::len).sum::<usize>();
    let starts: Vec<usize> = items
        .iter()
        .map(|item| {
            at += item.len();
            at - item.len()
        })
        .collect();
    let mut outcomes = BTreeMap::new();
    for ratio in [0, 1, 2, 3, 8, 16, 64] {
        for base in [0, 41, 137, 1000] {
            for max_alloc in [usize::MAX, 2500] {
                let limits = surp::Options::new()
                    .max_expansion(ratio, base)
                    .max_alloc(max_alloc);
                let mut expanded = 0;
                let expected = refs.iter().find_map(|&(item, charge)| {
                    let at = starts[item];
                    expanded += charge;
                    let allowed = ((at + 2) * ratio + base).min(max_alloc);
                    (expanded > allowed).then_some((at, allowed))
                });
                let kind = match expected {
                    None => "accepted",
                    Some((_, 2500)) => "stopped at max_alloc",
                    Some(_) => "stopped by the ratio",
                };
                *outcomes.entry(kind).or_insert(0) += 1;
                let opts = Options::new().decode_limits(limits);
                for result in both::<Vec<Value>>(&opts, &input) {
                    match (result, expected) {
                        (Ok(values), None) => assert_eq!(values.len(), items.len()),
                        (Err(err), Some((at, allowed))) => assert_eq!(
                            (err.kind(), err.offset()),
                            (&ErrorKind::AllocationLimitExceeded(allowed), Some(at)),
                            "ratio {ratio}, base {base}, max_alloc {max_alloc}"
                        ),
                        (result, expected) => panic!(
                            "ratio {ratio}, base {base}, max_alloc {max_alloc}: \
                             {result:?}, expected an error at {expected:?}"
                        ),
                    }
                }
            }
        }
    }
    // Every kind of outcome was checked.
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
}

// ---------------------------------------------------------------------------
// Nesting

/// See `SMALL_STACK_KIB` in `surp/tests/hostile/nesting.rs`: 256 KiB in optimised
/// builds; 1.5 MiB in debug builds, where frames are several times larger
/// and a deduplicated document's levels (shape references) take a little
/// more than 1 MiB at the depth limit (as in `deep_encode.rs`).
const SMALL_STACK_KIB: usize = if cfg!(debug_assertions) { 1536 } else { 256 };

/// A pair whose first element registers shape 0 = `["Link"]` and whose
/// second is `levels` nested references to it around `leaf`.
fn nested_shape_refs(levels: usize, leaf: &[u8]) -> Vec<u8> {
    let mut input = vec![
        wire::DEDUP_MARKER,
        0xa2,
        0xb1,
        0x84,
        b'L',
        b'i',
        b'n',
        b'k',
        0x83,
        b'E',
        b'n',
        b'd',
    ];
    input.resize(input.len() + levels, wire::FIXSHAPE);
    input.extend_from_slice(leaf);
    input
}

/// `levels` nested explicit one-key maps: the first key is the literal
/// "Link" (slot 0), the rest are references to it.
fn nested_explicit_maps(levels: usize, leaf: &[u8]) -> Vec<u8> {
    let mut input = vec![wire::DEDUP_MARKER, 0xb1, 0x84, b'L', b'i', b'n', b'k'];
    for _ in 1..levels {
        input.extend_from_slice(&[0xb1, wire::STR_REF1, 0x00]);
    }
    input.extend_from_slice(leaf);
    input
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Chain {
    End,
    Link(Box<Chain>),
}

#[derive(Deserialize, Debug)]
struct Linked {
    #[serde(rename = "Link")]
    #[allow(dead_code)]
    next: Option<Box<Linked>>,
}

#[test]
fn a_million_levels_of_dedup_nesting_hit_the_depth_limit_on_a_small_stack() {
    common::on_stack_of(SMALL_STACK_KIB, || {
        let opts = Options::new();
        // Shape references: the pair is level 1, so the 128th reference is too deep.
        let refs = nested_shape_refs(1_000_000, &[]);
        let refs_at = 12 + (DEFAULT_MAX_DEPTH - 1);
        let maps = nested_explicit_maps(1_000_000, &[]);
        let maps_at = 7 + 3 * (DEFAULT_MAX_DEPTH - 1);
        for (input, at) in [(&refs, refs_at), (&maps, maps_at)] {
            for result in both::<Value>(&opts, input) {
                let err = error_within(result, input);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
                );
            }
            // A deduplicated document is skipped by walking it, so skipping
            // meets the limit too.
            for result in both::<IgnoredAny>(&opts, input) {
                let err = error_within(result, input);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
                );
            }
            assert_eq!(
                opts.from_slice::<Value>(input).unwrap_err().offset(),
                Some(at)
            );
        }
        for result in both::<(Chain, Chain)>(&opts, &refs) {
            let err = error_within(result, &refs);
            assert_eq!(
                *err.kind(),
                ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
            );
        }
        for result in both::<Linked>(&opts, &maps) {
            let err = error_within(result, &maps);
            assert_eq!(
                *err.kind(),
                ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
            );
        }
    });
}

#[test]
fn dedup_nesting_at_the_depth_limit_decodes_and_one_more_fails_on_a_small_stack() {
    common::on_stack_of(SMALL_STACK_KIB, || {
        let opts = Options::new();
        let end = [0x83, b'E', b'n', b'd'];
        // The pair takes one level, each reference one more.
        let at_limit = nested_shape_refs(DEFAULT_MAX_DEPTH - 1, &end);
        let over = nested_shape_refs(DEFAULT_MAX_DEPTH, &end);
        for result in both::<(Chain, Chain)>(&opts, &at_limit) {
            let (_, mut chain) = result.unwrap();
            let mut links = 0;
            while let Chain::Link(next) = chain {
                links += 1;
                chain = *next;
            }
            assert_eq!(links, DEFAULT_MAX_DEPTH - 1);
        }
        for input in [&at_limit, &over] {
            let ok = input.len() == at_limit.len();
            for result in both::<Value>(&opts, input) {
                assert_eq!(result.is_ok(), ok);
            }
            for result in both::<IgnoredAny>(&opts, input) {
                assert_eq!(result.is_ok(), ok);
            }
        }
        let at_limit = nested_explicit_maps(DEFAULT_MAX_DEPTH, &[0x00]);
        let over = nested_explicit_maps(DEFAULT_MAX_DEPTH + 1, &[0x00]);
        for result in both::<Value>(&opts, &at_limit) {
            result.unwrap();
        }
        for result in both::<Value>(&opts, &over) {
            let err = error_within(result, &over);
            assert_eq!(
                *err.kind(),
                ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
            );
        }
    });
}

// ---------------------------------------------------------------------------
// Truncation and bit flips of documents written by surp_dedup

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Event {
    kind: String,
    region: String,
    count: u32,
    tags: Vec<String>,
    change: Option<Chain>,
    #[serde(with = "serde_bytes")]
    payload: Vec<u8>,
}

/// Records whose strings and shapes repeat.
fn events(n: usize) -> Vec<Event> {
    (0..n)
        .map(|i| Event {
            kind: ["push", "fork", "watch"][i % 3].into(),
            region: ["eu-west-1", "us-east-2"][i % 2].into(),
            count: (i * 37) as u32,
            tags: (0..i % 4).map(|t| format!("tag-{t}")).collect(),
            change: (i % 2 == 0).then(|| Chain::Link(Box::new(Chain::End))),
            payload: vec![i as u8; i % 9],
        })
        .collect()
}

/// Deduplicated documents to cut and corrupt: records, and a `Value` with
/// references of every kind.
fn documents() -> Vec<Vec<u8>> {
    let mut value_doc: BTreeMap<String, Value> = BTreeMap::new();
    value_doc.insert(
        "names".into(),
        Value::Array(vec!["alpha".into(), "beta".into(), "alpha".into()]),
    );
    value_doc.insert(
        "alpha".into(),
        Value::Map(vec![("beta".into(), "alpha".into())]),
    );
    let docs = vec![
        surp_dedup::to_vec(&events(12)).unwrap(),
        surp_dedup::to_vec(&value_doc).unwrap(),
    ];
    for doc in &docs {
        assert_eq!(
            doc[0],
            wire::DEDUP_MARKER,
            "the test documents use references"
        );
    }
    docs
}

#[test]
fn every_truncation_of_a_deduplicated_document_is_an_error() {
    let opts = Options::new();
    for doc in documents() {
        for result in both::<Value>(&opts, &doc) {
            result.unwrap();
        }
        for cut in 0..doc.len() {
            let input = &doc[..cut];
            for result in both::<Value>(&opts, input) {
                let err = error_within(result, input);
                // A slice knows early that a count cannot fit what is left.
                let cut_short = matches!(err.kind(), ErrorKind::LengthExceedsInput { .. });
                assert!(err.is_eof() || cut_short, "cut at {cut}: {err}");
            }
            for result in both::<IgnoredAny>(&opts, input) {
                error_within(result, input);
            }
        }
    }
    let records = surp_dedup::to_vec(&events(12)).unwrap();
    for cut in 0..records.len() {
        for result in both::<Vec<Event>>(&opts, &records[..cut]) {
            error_within(result, &records[..cut]);
        }
    }
}

/// Decodes corrupted `input` every way: `Ok` or a placed `Err`, the slice and
/// the reader agree, and what decodes as a `Value` also skips.
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
    if slice.is_ok() {
        prop_assert!(skip_slice.is_ok(), "decodes as a Value but does not skip");
    }
    let [typed_slice, typed_reader] = both::<Vec<Event>>(&opts, input);
    prop_assert_eq!(typed_slice.is_ok(), typed_reader.is_ok());
    for err in [
        slice.err(),
        reader.err(),
        skip_slice.err(),
        skip_reader.err(),
        typed_slice.err(),
        typed_reader.err(),
    ]
    .into_iter()
    .flatten()
    {
        let offset = err.offset();
        prop_assert!(
            offset.is_some_and(|o| o <= input.len()),
            "{err} at {offset:?} of {}",
            input.len()
        );
    }
    Ok(())
}

#[test]
fn every_single_bit_flip_of_a_deduplicated_document_gives_ok_or_err() {
    for doc in documents() {
        for at in 0..doc.len() {
            for bit in 0..8 {
                let mut input = doc.clone();
                input[at] ^= 1 << bit;
                decode_every_way(&input).unwrap_or_else(|e| panic!("byte {at} bit {bit}: {e}"));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_corruption_of_deduplicated_documents_gives_ok_or_err(
        v in common::value(),
        flips in prop::collection::vec((any::<Index>(), any::<u8>()), 1..6),
    ) {
        // The value twice, so that its strings and maps repeat.
        let mut input = surp_dedup::to_vec(&Value::Array(vec![v.clone(), v])).unwrap();
        for (at, byte) in flips {
            let at = at.index(input.len());
            input[at] = byte;
        }
        decode_every_way(&input)?;
    }
}
