//! The memory bound of decoding untrusted input, measured with a counting
//! allocator (`counting/mod.rs`).
//!
//! # The bound
//!
//! Decoding any input of `n` bytes into a [`surp::Value`] or skipping it as
//! [`IgnoredAny`], from a slice or from a reader, with
//! `Options::new().max_alloc(m)`, requests at most
//!
//! ```text
//! BYTES_PER_INPUT_BYTE * n + m + FIXED_BYTES  =  256 n + m + 16 KiB
//! ```
//!
//! of heap in all (every allocation and reallocation counted at its full
//! size), so it never holds more than that at once either. With
//! `m = EXPANSION * n = 16 n`, as these tests set it, that is `272 n + 16 KiB`.
//! The default `max_alloc` (1 GiB) is a ceiling, not a proportion; the
//! proportion is `Options::max_expansion` (by default, references expand a
//! document to at most 64 times what was read plus 1 MiB). Under the default
//! options a reference bomb requests at most `128 n + 16 MiB`
//! (`default_options_bound_reference_bombs_relative_to_the_input`).
//!
//! Why it holds (`size_of::<Value>()` is 32 bytes, a map entry 64):
//!
//! - Every array element and every map key and value is one `Value`. A plain
//!   document spends at least one byte on each; a shape reference of `k <= 64`
//!   keys spends `k + 2` bytes on `2k` values. So there are fewer than two
//!   `Value`s per input byte: under 64 bytes per input byte once in place.
//! - From a slice, `Value`'s visitor first allocates what the decoder hints
//!   (the hints of all open collections together stay within the input), at
//!   most 4096 items, then `Vec` doubles: what one collection requests stays
//!   under twice its final capacity, and that under twice its length. The
//!   worst case is one long array of one-byte items just past a power of two:
//!   128 bytes requested per input byte.
//! - From a reader there are no hints, and every collection grows from 4
//!   items. The worst case is a shape reference to a 33-key shape: 35 input
//!   bytes make a map whose entries grow through 4, 8, 16, 32 and 64, which
//!   is 124 x 64 = 7,936 bytes requested, 227 per input byte, plus the
//!   array that holds such maps: the test measures 239.3. The bound leaves
//!   about 7% over that.
//! - A string or byte string written out is copied once: at most `n` bytes.
//!   Strings reached through a reference and the keys of shape references are
//!   charged to `max_alloc` before they are copied: at most `m` bytes.
//! - The deduplication tables hold 16 bytes per string slot (a slot needs a
//!   literal of at least 3 bytes with its tag) and per shape key, and stop at
//!   their limits; a reader also keeps a copy of each string literal of a
//!   deduplicated document.
//! - `FIXED_BYTES` covers errors, the boxed tables and first allocations,
//!   whatever the input. The most measured beyond the proportional part is a
//!   few dozen bytes (the test prints it).
//!
//! Derived types allocate what their own `Deserialize` impls do on top of the
//! decoder; the decoder's share is the `IgnoredAny` case.
//!
//! The inputs: every seed of the committed fuzz corpus (`fuzz/corpus/`, the
//! test vectors, datasets and records), and crafted bombs of about
//! [`BOMB_SIZE`] bytes: huge declared lengths and counts, deep nesting, wide
//! containers of one-byte items, deduplication tables filled with tiny slots
//! and with shapes, shape references to 64 keys, and references to long
//! strings and long keys repeated until `max_alloc` stops them.

mod common;
mod counting;

use std::collections::BTreeSet;
use std::path::Path;

use common::claim;
use counting::{Usage, usage_of, usage_with};
use serde::de::IgnoredAny;
use surp::__private::wire::{self, Kind};
use surp::{Options, Value};

/// `c`: heap bytes a decode may request per input byte, beyond `max_alloc`.
const BYTES_PER_INPUT_BYTE: usize = 256;
/// `k`: heap bytes a decode may request whatever its input.
const FIXED_BYTES: usize = 16 * 1024;
/// The tests' `max_alloc`, per input byte.
const EXPANSION: usize = 16;
/// The approximate size of the crafted bombs.
const BOMB_SIZE: usize = 128 * 1024;

/// What decoding `n` input bytes may request with `max_alloc(EXPANSION * n)`.
fn bound(n: usize) -> usize {
    BYTES_PER_INPUT_BYTE * n + EXPANSION * n + FIXED_BYTES
}

/// The four ways a document is decoded here.
const WAYS: [&str; 4] = [
    "Value from a slice",
    "Value from a reader",
    "IgnoredAny from a slice",
    "IgnoredAny from a reader",
];

/// Heap use of each way of decoding `doc`, in the order of [`WAYS`].
fn usages(doc: &[u8]) -> [Usage; 4] {
    let opts = Options::new().max_alloc(EXPANSION * doc.len());
    [
        usage_of(|| opts.from_slice::<Value>(doc)),
        usage_of(|| opts.from_reader::<_, Value>(doc)),
        usage_of(|| opts.from_slice::<IgnoredAny>(doc)),
        usage_of(|| opts.from_reader::<_, IgnoredAny>(doc)),
    ]
}

/// The worst case seen so far.
#[derive(Default)]
struct Worst {
    peak_per_byte: f64,
    total_per_byte: f64,
    what: String,
    /// The most requested for an input too small for a ratio to mean much.
    small_total: usize,
    /// The most requested beyond `(BYTES_PER_INPUT_BYTE + EXPANSION) * n`:
    /// what `FIXED_BYTES` must cover.
    excess: usize,
}

/// Decodes `doc` every way and checks the bound; tracks the worst ratio.
/// Returns the most requested and held by any way, per input byte.
fn check(name: &str, doc: &[u8], worst: &mut Worst) -> (f64, f64) {
    let n = doc.len().max(1) as f64;
    let mut this = (0f64, 0f64);
    for (way, usage) in WAYS.iter().zip(usages(doc)) {
        this.0 = this.0.max(usage.total as f64 / n);
        this.1 = this.1.max(usage.peak as f64 / n);
        assert!(
            usage.total <= bound(doc.len()),
            "{name}, {way}: {} bytes requested for {} input bytes (peak {}), bound {}",
            usage.total,
            doc.len(),
            usage.peak,
            bound(doc.len())
        );
        assert!(usage.peak <= usage.total);
        let proportional = (BYTES_PER_INPUT_BYTE + EXPANSION) * doc.len();
        worst.excess = worst.excess.max(usage.total.saturating_sub(proportional));
        // Ratios are only meaningful where the input dominates the fixed part.
        if doc.len() >= 4096 {
            let total = usage.total as f64 / n;
            if total > worst.total_per_byte {
                worst.total_per_byte = total;
                worst.what = format!("{name}, {way}");
            }
            worst.peak_per_byte = worst.peak_per_byte.max(usage.peak as f64 / n);
        } else {
            worst.small_total = worst.small_total.max(usage.total);
        }
    }
    this
}

#[test]
fn the_counting_allocator_sees_total_and_peak() {
    let usage = usage_of(|| {
        let mut v = Vec::with_capacity(10);
        v.extend_from_slice(&[0u8; 10]);
        v.reserve(100);
        v
    });
    assert!(usage.total >= 110, "{usage:?}");
    assert!(usage.peak >= 110 && usage.peak <= usage.total, "{usage:?}");
}

#[test]
fn every_fuzz_seed_decodes_within_the_bound() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let mut docs = BTreeSet::new();
    // Seeds of the decode targets: one control byte, then a document.
    for target in [
        "decode_value",
        "decode_typed",
        "decode_ignored",
        "dedup_decode_value",
        "dedup_decode_typed",
        "dedup_decode_ignored",
    ] {
        let dir = corpus.join(target);
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            if let Some((_, doc)) = bytes.split_first() {
                docs.insert(doc.to_vec());
            }
        }
    }
    assert!(docs.len() > 300, "only {} seeds", docs.len());
    let mut worst = Worst::default();
    for doc in &docs {
        check(&format!("seed of {} bytes", doc.len()), doc, &mut worst);
    }
    println!(
        "{} seeds: worst {:.1} bytes requested and {:.1} held per input byte ({}); \
         at most {} bytes requested for a seed under 4 KiB, at most {} beyond the proportional part",
        docs.len(),
        worst.total_per_byte,
        worst.peak_per_byte,
        worst.what,
        worst.small_total,
        worst.excess
    );
}

/// A header of `kind` with `len` in the smallest form.
fn header(kind: Kind, len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    wire::write_header(&mut out, kind, len).unwrap();
    out
}

/// An array of `items`, each written as `item`.
fn array_of(item: &[u8], items: usize) -> Vec<u8> {
    let mut out = header(Kind::Array, items);
    for _ in 0..items {
        out.extend_from_slice(item);
    }
    out
}

/// A deduplicated document: the marker, then an array of `first` followed by
/// `items` copies of `item`.
fn dedup_array(first: &[u8], item: &[u8], items: usize) -> Vec<u8> {
    let mut out = vec![wire::DEDUP_MARKER];
    out.extend(header(Kind::Array, items + 1));
    out.extend_from_slice(first);
    for _ in 0..items {
        out.extend_from_slice(item);
    }
    out
}

/// An explicit map of `keys` string keys of `key_len` bytes (each distinct
/// when `key_len >= 2`), all values 0.
fn explicit_map(keys: usize, key_len: usize) -> Vec<u8> {
    let mut out = header(Kind::Map, keys);
    for i in 0..keys {
        let mut key = vec![b'k'; key_len];
        if key_len >= 2 {
            key[..2].copy_from_slice(&(i as u16).to_le_bytes());
            key[..2].iter_mut().for_each(|b| *b = b'a' + *b % 26);
        }
        wire::write_str(&mut out, std::str::from_utf8(&key).unwrap()).unwrap();
        out.push(0x00);
    }
    out
}

/// A shape reference to shape 0 (one byte) with `values` zero values.
fn shape_ref(values: usize) -> Vec<u8> {
    let mut out = vec![wire::FIXSHAPE];
    out.resize(1 + values, 0x00);
    out
}

/// Every crafted bomb: a name and the document.
fn bombs() -> Vec<(String, Vec<u8>)> {
    let n = BOMB_SIZE;
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |name: &str, doc: Vec<u8>| out.push((name.to_owned(), doc));

    for kind in [Kind::Str, Kind::Bytes, Kind::Array, Kind::Map] {
        for len in [1 << 32, 1 << 63, u64::MAX] {
            add(&format!("{kind:?} claiming {len}"), claim(kind, len));
            let mut with_content = claim(kind, len);
            with_content.resize(n, 0x00);
            add(
                &format!("{kind:?} claiming {len}, then {n} bytes"),
                with_content,
            );
        }
    }
    let mut nested_claims = Vec::new();
    for _ in 0..200 {
        nested_claims.push(wire::ARRAY8 + 2);
        nested_claims.extend_from_slice(&(1u32 << 22).to_le_bytes());
    }
    add("200 nested arrays each claiming 2^22 items", nested_claims);

    for (name, level) in [
        ("arrays", &[0xa1][..]),
        ("maps", &[0xb1, 0x80]),
        ("some markers", &[0xeb]),
    ] {
        add(&format!("a million nested {name}"), level.repeat(1_000_000));
        let mut at_limit = level.repeat(surp::DEFAULT_MAX_DEPTH);
        at_limit.push(0x00);
        add(&format!("{name} nested to the depth limit"), at_limit);
    }

    for (name, item) in [
        ("integers", &[0x00][..]),
        ("empty strings", &[0x80]),
        ("empty arrays", &[0xa0]),
        ("empty maps", &[0xb0]),
        ("empty byte strings", &[0xcc, 0x00]),
        ("one-character strings", &[0x81, b'a']),
        ("some markers around null", &[0xeb, 0xe8]),
    ] {
        add(
            &format!("an array of {name}"),
            array_of(item, n / item.len()),
        );
    }
    let mut map = header(Kind::Map, n / 2);
    map.resize(map.len() + n, 0x00);
    add("a map of one-byte keys and values", map);
    add(
        "an array of arrays of 15 integers",
        array_of(&[&[0xaf][..], &[0x00; 15]].concat(), n / 16),
    );
    // One item past a power of two: `Vec` doubling leaves the most slack.
    add(
        "an array of 2^17 + 1 integers",
        array_of(&[0x00], (1 << 17) + 1),
    );
    // Without size hints (a reader) a collection of 33 items grows its `Vec`
    // through 4, 8, 16, 32 and 64 items: the most requested per item.
    let map_of_33 = [&[0xd4, 33][..], &[0x00; 66]].concat();
    add(
        "an array of maps of 33 entries",
        array_of(&map_of_33, n / 68),
    );
    add(
        "an array of arrays of 33 integers",
        array_of(&[&[0xd0, 33][..], &[0x00; 33]].concat(), n / 35),
    );

    // Deduplication tables: tiny slot-taking literals fill the string table.
    add(
        "2-byte literals taking slots",
        dedup_array(&[0x80], &[0x82, b'a', b'b'], n / 3),
    );
    add(
        "4-byte literals taking slots",
        dedup_array(&[0x80], &[0x84, b'a', b'b', b'c', b'd'], n / 5),
    );
    // Explicit maps register shapes (duplicates included: the decoder does not look).
    add(
        "one-key maps registering shapes",
        dedup_array(&[0x80], &[0xb1, 0x81, b'a', 0x00], n / 4),
    );
    add(
        "64-key maps registering shapes",
        dedup_array(&[0x80], &explicit_map(64, 0), n / 130),
    );
    // Shape references: 65 bytes give 64 entries.
    add(
        "references to a 64-key shape",
        dedup_array(&explicit_map(64, 0), &shape_ref(64), n / 65),
    );
    add(
        "references to a 1-key shape",
        dedup_array(&explicit_map(1, 2), &shape_ref(1), n / 2),
    );
    for keys in [5, 9, 17, 33] {
        let name = format!("references to a {keys}-key shape");
        add(
            &name,
            dedup_array(&explicit_map(keys, 0), &shape_ref(keys), n / (keys + 1)),
        );
    }
    // Expansion: long strings and long keys referenced over and over.
    let long = [
        &[wire::STR8 + 2][..],
        &((n / 2) as u32).to_le_bytes(),
        &vec![b'x'; n / 2],
    ]
    .concat();
    add(
        "a string of n/2 bytes referenced n/4 times",
        dedup_array(&long, &[wire::STR_REF1, 0x00], n / 4),
    );
    add(
        "a shape of 64 keys of 1000 bytes referenced",
        dedup_array(&explicit_map(64, 1000), &shape_ref(64), n / 65),
    );
    // Pending keys of explicit maps nested to the depth limit.
    let mut nested_maps = vec![wire::DEDUP_MARKER];
    for _ in 0..surp::DEFAULT_MAX_DEPTH {
        let level = explicit_map(64, 3);
        nested_maps.extend_from_slice(&level[..level.len() - 1]);
    }
    nested_maps.push(0x00);
    add("64-key maps nested to the depth limit", nested_maps);
    out
}

#[test]
fn crafted_bombs_decode_within_the_bound() {
    let mut worst = Worst::default();
    for (name, doc) in bombs() {
        let (total, peak) = check(&name, &doc, &mut worst);
        println!(
            "{name} ({} bytes): {total:.1} requested, {peak:.1} held per input byte",
            doc.len()
        );
    }
    println!(
        "bombs: worst {:.1} bytes requested and {:.1} held per input byte ({}); \
         at most {} bytes requested for a bomb under 4 KiB, at most {} beyond the proportional part",
        worst.total_per_byte, worst.peak_per_byte, worst.what, worst.small_total, worst.excess
    );
}

#[test]
fn bombs_that_expand_are_stopped_by_max_alloc() {
    let n = BOMB_SIZE;
    let long = [
        &[wire::STR8 + 2][..],
        &((n / 2) as u32).to_le_bytes(),
        &vec![b'x'; n / 2],
    ]
    .concat();
    let doc = dedup_array(&long, &[wire::STR_REF1, 0x00], n / 4);
    let opts = Options::new().max_alloc(EXPANSION * doc.len());
    for result in [opts.from_slice::<Value>(&doc), opts.from_reader(&doc[..])] {
        let err = result.expect_err("a reference bomb decoded");
        assert_eq!(
            *err.kind(),
            surp::ErrorKind::AllocationLimitExceeded(EXPANSION * doc.len())
        );
    }
}

/// The bound under the default options (issue 19): no input of `n` bytes
/// makes a decode request more than `128 n + 16 MiB`.
fn default_bound(n: usize) -> usize {
    128 * n + (16 << 20)
}

#[test]
fn default_options_bound_reference_bombs_relative_to_the_input() {
    // Issue 19, failure 1: a 92,690-byte deduplicated document of one long
    // string and references to it expands to about 1 GB; decoded into a
    // `Value` it peaked at 1 GB. Under the default options references may
    // stand for 64 times the bytes read so far plus 1 MiB, so each way of
    // decoding stops early, with the same error, within the bound.
    let n = 92_690;
    for literal in [3, 100, 1000, 46_000] {
        let text = [
            &[wire::STR8 + 2][..],
            &(literal as u32).to_le_bytes(),
            &vec![b'x'; literal],
        ]
        .concat();
        let refs = (n - text.len() - 8) / 2;
        let doc = dedup_array(&text, &[wire::STR_REF1, 0x00], refs);
        let expands_to = literal * (refs + 1);
        let opts = Options::new();
        let results = [
            usage_with(|| opts.from_slice::<Value>(&doc).map(drop)),
            usage_with(|| opts.from_reader::<_, Value>(&doc[..]).map(drop)),
            usage_with(|| opts.from_slice::<IgnoredAny>(&doc).map(drop)),
            usage_with(|| opts.from_reader::<_, IgnoredAny>(&doc[..]).map(drop)),
        ];
        let [from_slice, from_reader, skip_slice, skip_reader] = results.map(|(usage, result)| {
            assert!(
                usage.total <= default_bound(doc.len()),
                "literal {literal}: {} bytes requested for {} input bytes, bound {}",
                usage.total,
                doc.len(),
                default_bound(doc.len())
            );
            result
        });
        if expands_to > 64 * doc.len() + surp::DEFAULT_EXPANSION_BASE {
            let err = from_slice.expect_err("a reference bomb decoded");
            assert!(matches!(
                err.kind(),
                surp::ErrorKind::AllocationLimitExceeded(_)
            ));
            for other in [from_reader, skip_slice, skip_reader] {
                let other = other.expect_err("a reference bomb decoded");
                assert_eq!((other.kind(), other.offset()), (err.kind(), err.offset()));
            }
        } else {
            for result in [from_slice, from_reader, skip_slice, skip_reader] {
                result.unwrap();
            }
        }
    }
}
