//! The deduplicating encoder against a reference written straight from
//! `docs/spec.md` section 7.
//!
//! The reference decides each map up front (shape reference or explicit)
//! from the tables, with no prediction and no rewriting. The real encoder
//! predicts shapes, rewrites maps when a prediction fails and compacts maps
//! that match late; whatever path it takes, its bytes must be the reference's
//! bytes. Property tests also check the round trip, that the output is never
//! longer than plain Surp, and that encoding is deterministic.

#[path = "../../surp/tests/common/mod.rs"]
mod common;

use std::collections::{BTreeMap, HashMap};

use common::same_bits;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use surp::__private::wire::{self, Kind};
use surp::Value;

/// The spec's encoder, for `surp::Value`s.
struct Reference {
    out: Vec<u8>,
    /// The string table: each string and its slot, the order in which it
    /// took one. A map rather than a list searched from the start, which
    /// made `large_tables_use_two_and_three_byte_references` (70,000
    /// strings) quadratic: 35 s of silence in a debug build.
    strings: HashMap<String, usize>,
    shapes: Vec<Vec<String>>,
    saved: usize,
    /// The encoder's limit of string slots (section 7.1, "Limits").
    max_dedup_strings: usize,
}

impl Reference {
    fn encode(v: &Value) -> Vec<u8> {
        Reference::encode_with_slots(v, surp::DEFAULT_MAX_DEDUP_STRINGS)
    }

    /// The encoding by an encoder that stops adding string slots at
    /// `max_dedup_strings`.
    fn encode_with_slots(v: &Value, max_dedup_strings: usize) -> Vec<u8> {
        let mut r = Reference {
            out: vec![wire::DEDUP_MARKER],
            strings: HashMap::new(),
            shapes: Vec::new(),
            saved: 0,
            max_dedup_strings,
        };
        r.value(v);
        if r.saved == 0 {
            r.out.remove(0);
        }
        r.out
    }

    fn slot_of(&self, s: &str) -> Option<usize> {
        self.strings.get(s).copied()
    }

    /// Section 7.1: a reference if the string has a slot, else a literal that
    /// takes the next slot when a reference to it would be shorter.
    fn string(&mut self, s: &str) {
        match self.slot_of(s) {
            Some(slot) => {
                self.saved += wire::str_size(s.len()) - wire::str_ref_size(slot);
                wire::write_str_ref(&mut self.out, slot).unwrap();
            }
            None => {
                let next = self.strings.len();
                if next < self.max_dedup_strings && s.len() >= wire::str_ref_size(next) {
                    self.strings.insert(s.to_owned(), next);
                }
                wire::write_str(&mut self.out, s).unwrap();
            }
        }
    }

    fn size_now(&self, key: &str) -> usize {
        match self.slot_of(key) {
            Some(slot) => wire::str_ref_size(slot),
            None => wire::str_size(key.len()),
        }
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                wire::write_header(&mut self.out, Kind::Array, items.len()).unwrap();
                for i in items {
                    self.value(i);
                }
            }
            Value::Map(entries) => self.map(entries),
            // Scalars and byte strings are written as in plain Surp.
            other => self.out.extend_from_slice(&surp::to_vec(other).unwrap()),
        }
    }

    /// Section 7.2.
    fn map(&mut self, entries: &[(Value, Value)]) {
        let keys: Option<Vec<String>> = entries
            .iter()
            .map(|(k, _)| k.as_str().map(str::to_owned))
            .collect();
        let eligible = keys
            .as_ref()
            .filter(|k| (1..=surp::__private::dedup::MAX_SHAPE_KEYS).contains(&k.len()));
        if let Some(keys) = eligible
            && let Some(shape) = self.shapes.iter().position(|s| s == keys)
        {
            let explicit = wire::header_size(Kind::Map, keys.len())
                + keys.iter().map(|k| self.size_now(k)).sum::<usize>();
            if wire::shape_ref_size(shape) < explicit {
                self.saved += explicit - wire::shape_ref_size(shape);
                wire::write_shape_ref(&mut self.out, shape).unwrap();
                for (_, v) in entries {
                    self.value(v);
                }
                return;
            }
        }
        let start = self.out.len();
        wire::write_header(&mut self.out, Kind::Map, entries.len()).unwrap();
        let mut size = self.out.len() - start;
        for (k, v) in entries {
            let key_start = self.out.len();
            self.value(k);
            size += self.out.len() - key_start;
            self.value(v);
        }
        if let Some(keys) = eligible {
            let next = self.shapes.len();
            if next < surp::DEFAULT_MAX_DEDUP_SHAPES && size > wire::shape_ref_size(next) {
                self.shapes.push(keys.clone());
            }
        }
    }
}

/// Strings from a small pool, so that repeats and shapes are common.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["", "a", "id", "name", "kind", "status", "ok", "failed", "eu-west-1", "\u{e9}t\u{e9}", "x"]).prop_map(str::to_owned),
        1 => "[a-z]{0,12}",
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (0u64..300).prop_map(Value::from),
        any::<f64>().prop_map(Value::Float),
        prop::collection::vec(any::<u8>(), 0..10).prop_map(Value::Bytes),
        word().prop_map(Value::String),
    ]
}

/// Documents shaped like real payloads: arrays of records that mostly share
/// key sets, nested records, and the odd non-string key.
fn document() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 200, 12, |inner| {
        let key = prop_oneof![
            8 => word().prop_map(Value::String),
            1 => (0i64..4).prop_map(Value::from),
        ];
        let record = prop::collection::vec((key, inner.clone()), 0..6).prop_map(Value::Map);
        // Key sets of equal length that share prefixes make predictions fail
        // after some keys matched, which exercises the in-place rewrite.
        let fixed_keys = prop::sample::select(vec![
            vec!["id", "name"],
            vec!["id", "name", "kind"],
            vec!["id", "name", "status"],
            vec!["id", "kind", "name"],
            vec!["kind", "id"],
            vec!["a"],
        ]);
        let shaped =
            (fixed_keys, prop::collection::vec(inner.clone(), 3)).prop_map(|(keys, values)| {
                Value::Map(
                    keys.iter()
                        .zip(values)
                        .map(|(k, v)| (Value::from(*k), v))
                        .collect(),
                )
            });
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            record,
            prop::collection::vec(shaped, 0..10).prop_map(Value::Array),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn output_is_the_reference_encoding(v in document()) {
        let fast = surp_dedup::to_vec(&v).unwrap();
        let reference = Reference::encode(&v);
        prop_assert_eq!(fast, reference);
    }

    /// Without string deduplication the output is that of an encoder
    /// whose string table holds no slot: shapes, and only shapes.
    #[test]
    fn without_strings_output_is_the_reference_encoding_with_no_slots(v in document()) {
        let opts = surp_dedup::Options::new().dedup_strings(false);
        let fast = opts.to_vec(&v).unwrap();
        prop_assert_eq!(&fast, &Reference::encode_with_slots(&v, 0));
        prop_assert_eq!(&surp_dedup::Options::new().max_dedup_strings(0).to_vec(&v).unwrap(), &fast);
        prop_assert!(fast.len() <= surp::to_vec(&v).unwrap().len());
        let back: Value = surp_dedup::from_slice(&fast).unwrap();
        prop_assert!(same_bits(&back, &v), "decoded {}", back);
    }

    #[test]
    fn round_trips_and_is_never_longer_than_plain(v in document()) {
        let dedup = surp_dedup::to_vec(&v).unwrap();
        let plain = surp::to_vec(&v).unwrap();
        prop_assert!(dedup.len() <= plain.len(), "{} > {}", dedup.len(), plain.len());
        let back: Value = surp_dedup::from_slice(&dedup).unwrap();
        prop_assert!(same_bits(&back, &v), "decoded {}", back);
        let via_surp: Value = surp::from_slice(&dedup).unwrap();
        prop_assert!(same_bits(&via_surp, &v));
        let via_reader: Value = surp_dedup::from_reader(&dedup[..]).unwrap();
        prop_assert!(same_bits(&via_reader, &v));
        prop_assert_eq!(surp_dedup::to_vec(&v).unwrap(), dedup, "deterministic");
    }

    /// Appending writes exactly `to_vec`'s bytes after what the buffer held,
    /// whether or not the document turns out to need the marker (which the
    /// encoder removes from the middle of the buffer when it does not).
    #[test]
    fn append_to_vec_appends_the_to_vec_bytes(
        v in document(),
        prefix in prop::collection::vec(any::<u8>(), 0..8),
    ) {
        let mut buf = prefix.clone();
        surp_dedup::append_to_vec(&mut buf, &v).unwrap();
        prop_assert_eq!(&buf[..prefix.len()], &prefix[..]);
        prop_assert_eq!(&buf[prefix.len()..], &surp_dedup::to_vec(&v).unwrap()[..]);
    }
}

/// A `Value` with some of its arrays and maps written as collections of
/// unknown length (`serialize_seq(None)`, `serialize_map(None)`): those at
/// even depths, at odd depths, or all of them.
struct Unsized<'a> {
    value: &'a Value,
    depth: usize,
    which: u8,
}

impl Unsized<'_> {
    fn unknown(&self) -> bool {
        match self.which {
            0 => self.depth.is_multiple_of(2),
            1 => !self.depth.is_multiple_of(2),
            _ => true,
        }
    }

    fn inner<'b>(&self, value: &'b Value) -> Unsized<'b> {
        Unsized {
            value,
            depth: self.depth + 1,
            which: self.which,
        }
    }
}

impl Serialize for Unsized<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self.value {
            Value::Array(items) => {
                let mut seq = s.serialize_seq((!self.unknown()).then_some(items.len()))?;
                for item in items {
                    seq.serialize_element(&self.inner(item))?;
                }
                seq.end()
            }
            Value::Map(entries) => {
                let mut map = s.serialize_map((!self.unknown()).then_some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(&self.inner(k), &self.inner(v))?;
                }
                map.end()
            }
            scalar => scalar.serialize(s),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Collections of unknown length leave gaps for their headers, and maps
    /// among them are compacted into shape references when they end; the
    /// gaps and the dropped keys are removed later, in one pass. Whatever
    /// mix of the two kinds a document has, its bytes are the reference's.
    #[test]
    fn unknown_length_collections_give_the_reference_encoding(v in document(), which in 0u8..3) {
        let unknown = Unsized { value: &v, depth: 0, which };
        prop_assert_eq!(surp_dedup::to_vec(&unknown).unwrap(), Reference::encode(&v));
        // Inside a document whose first map compacts, and a second copy.
        let pair = (&unknown, &unknown);
        prop_assert_eq!(
            surp_dedup::to_vec(&pair).unwrap(),
            Reference::encode(&Value::Array(vec![v.clone(), v.clone()]))
        );
    }
}

/// A map whose header and first key (`""`) take two bytes, compacted into a
/// three-byte reference to shape 300: the reference does not fit where they
/// were, so the values move at once, without the gaps pending in them.
#[test]
fn a_compacted_map_whose_reference_is_longer_than_its_header_and_first_key() {
    let mut shapes: Vec<Value> = (0..300)
        .map(|i| Value::Map(vec![(Value::from(format!("k{i}")), Value::from(0))]))
        .collect();
    shapes.push(Value::Map(vec![
        (Value::from(""), Value::from(1)),
        (Value::from("x"), Value::from(2)),
    ]));
    let late = Value::Map(vec![
        (
            Value::from(""),
            Value::Array(vec![Value::Array(vec![Value::from(7); 20]); 3]),
        ),
        (Value::from("x"), Value::Array(vec![Value::from(8); 17])),
    ]);
    let doc = Value::Array(vec![Value::Array(shapes), late]);
    let reference = Reference::encode(&doc);
    for which in 0..3 {
        let unknown = Unsized {
            value: &doc,
            depth: 0,
            which,
        };
        assert!(
            surp_dedup::to_vec(&unknown).unwrap() == reference,
            "unknown lengths at {which}"
        );
    }
    // The late map is a reference to shape 300 (`f7 2c 01`).
    assert!(reference.windows(3).any(|w| w == [0xf7, 0x2c, 0x01]));
}

/// Opens a map of `len` entries and gives up without ending it: the map is
/// dropped unfinished, as when a `?` returns from inside it.
struct GivesUp(Option<usize>);

impl Serialize for GivesUp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        let _unfinished = s.serialize_map(self.0)?;
        Err(S::Error::custom("gave up"))
    }
}

/// A map whose impl ignores the error of its second value: `{"first": 1,
/// "leak": <GivesUp>, "last": 2}` with `declared` entries.
struct Lenient(Option<usize>);

impl Serialize for Lenient {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(self.0)?;
        m.serialize_entry("first", &1u8)?;
        let _ignored = m.serialize_entry("leak", &GivesUp(None));
        m.serialize_entry("last", &2u8)?;
        m.end()
    }
}

#[test]
fn a_map_left_unfinished_inside_another_does_not_take_its_place() {
    // The encoder keeps an explicit map's state on a stack; the unfinished
    // map's state stays there, and must not be taken for its parent's.
    // With a declared length the parent's own count is checked...
    let err = surp_dedup::to_vec(&Lenient(Some(3))).unwrap_err();
    assert_eq!(
        *err.kind(),
        surp::ErrorKind::LengthMismatch {
            kind: Kind::Map,
            declared: 3,
            written: 2
        }
    );
    // ...and without one the parent is written with its own header (the
    // unfinished map's bytes inside it), not a panic.
    let bytes = surp_dedup::to_vec(&Lenient(None)).unwrap();
    let mut header = Vec::new();
    wire::write_header(&mut header, Kind::Map, 2).unwrap();
    assert!(bytes.starts_with(&header), "{bytes:02x?}");
}

/// An array of one element whose impl ignores the error of a first try
/// and writes another element instead.
struct LenientArray;

impl Serialize for LenientArray {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(1))?;
        let _ignored = seq.serialize_element(&GivesUp(Some(5)));
        seq.serialize_element(&0u8)?;
        seq.end()
    }
}

#[test]
fn a_rewrite_over_an_unfinished_value_is_an_error_not_a_panic() {
    // The third record is predicted to repeat the shape {a, b}; its key "c"
    // makes the encoder rewrite it explicitly, reading back the value of
    // "a", which holds a map of 5 entries that was never written.
    #[derive(Serialize)]
    struct Ab {
        a: u8,
        b: u8,
    }
    #[derive(Serialize)]
    struct Ac {
        a: LenientArray,
        c: u8,
    }
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Record {
        Ab(Ab),
        Ac(Ac),
    }
    let records = [
        Record::Ab(Ab { a: 1, b: 2 }),
        Record::Ab(Ab { a: 3, b: 4 }),
        Record::Ac(Ac {
            a: LenientArray,
            c: 5,
        }),
    ];
    let err = surp_dedup::to_vec(&records).unwrap_err();
    assert!(err.to_string().contains("left unfinished"), "{err}");
}

#[test]
fn append_to_vec_leaves_the_buffer_as_it_was_on_an_error() {
    struct Fails;
    impl Serialize for Fails {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{Error, SerializeSeq};
            let mut seq = s.serialize_seq(Some(3))?;
            seq.serialize_element("repeated")?;
            seq.serialize_element("repeated")?;
            Err(S::Error::custom("the third element cannot be serialized"))
        }
    }
    let mut buf = b"kept".to_vec();
    let err = surp_dedup::append_to_vec(&mut buf, &Fails).unwrap_err();
    assert!(err.to_string().contains("third element"), "{err}");
    assert_eq!(buf, b"kept");
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Kind2 {
    Push,
    Fork(u32),
    Watch(String, bool),
    Star { by: String, at: u64 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Actor {
    login: String,
    id: u64,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Event {
    id: u64,
    kind: Kind2,
    actor: Actor,
    #[serde(skip_serializing_if = "Option::is_none")]
    org: Option<String>,
    tags: Vec<String>,
    counts: BTreeMap<u8, i32>,
    #[serde(with = "serde_bytes")]
    raw: Vec<u8>,
}

fn event() -> impl Strategy<Value = Event> {
    let kind = prop_oneof![
        Just(Kind2::Push),
        any::<u32>().prop_map(Kind2::Fork),
        (word(), any::<bool>()).prop_map(|(s, b)| Kind2::Watch(s, b)),
        (word(), any::<u64>()).prop_map(|(by, at)| Kind2::Star { by, at }),
    ];
    (
        any::<u64>(),
        kind,
        (word(), 0u64..5),
        prop::option::of(word()),
        prop::collection::vec(word(), 0..3),
        prop::collection::btree_map(any::<u8>(), any::<i32>(), 0..3),
        prop::collection::vec(any::<u8>(), 0..4),
    )
        .prop_map(|(id, kind, (login, aid), org, tags, counts, raw)| Event {
            id,
            kind,
            actor: Actor { login, id: aid },
            org,
            tags,
            counts,
            raw,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Derived structs, skipped fields and all four enum shapes take the
    /// serializer's struct and variant paths; their bytes must match the
    /// reference's encoding of the same document as a `Value`.
    #[test]
    fn derived_types_match_the_reference(events in prop::collection::vec(event(), 0..20)) {
        let fast = surp_dedup::to_vec(&events).unwrap();
        let as_value: Value = surp::from_slice(&surp::to_vec(&events).unwrap()).unwrap();
        prop_assert_eq!(&fast, &Reference::encode(&as_value));
        let back: Vec<Event> = surp_dedup::from_slice(&fast).unwrap();
        prop_assert_eq!(back, events.clone());
        let shapes_only = surp_dedup::Options::new().dedup_strings(false).to_vec(&events).unwrap();
        prop_assert_eq!(&shapes_only, &Reference::encode_with_slots(&as_value, 0));
        let back: Vec<Event> = surp_dedup::from_slice(&shapes_only).unwrap();
        prop_assert_eq!(back, events);
    }
}

#[test]
fn nothing_repeated_gives_the_plain_document() {
    let v = vec!["a", "bc", "def"];
    assert_eq!(surp_dedup::to_vec(&v).unwrap(), surp::to_vec(&v).unwrap());
}

#[test]
fn large_tables_use_two_and_three_byte_references() {
    // 70,000 distinct strings fill slots past 256 and 65,536; then repeats.
    let words: Vec<String> = (0..70_000).map(|i| format!("w{i:05}")).collect();
    let mut doc: Vec<&str> = words.iter().map(String::as_str).collect();
    doc.extend(["w00001", "w00300", "w69999"]);
    let bytes = surp_dedup::to_vec(&doc).unwrap();
    let tail = &bytes[bytes.len() - 9..];
    assert_eq!(
        tail,
        [
            wire::STR_REF1,
            1,
            wire::STR_REF2,
            0x2c,
            0x01,
            wire::STR_REF3,
            0x6f,
            0x11,
            0x01
        ]
    );
    assert_eq!(surp::from_slice::<Vec<&str>>(&bytes).unwrap(), doc);
    let value: Value = surp::from_slice(&bytes).unwrap();
    assert_eq!(Reference::encode(&value), bytes);
}

#[test]
fn many_shapes_use_two_byte_shape_references() {
    let mut doc: Vec<BTreeMap<String, u8>> = (0..300)
        .map(|i| BTreeMap::from([(format!("k{i:03}"), 0)]))
        .collect();
    doc.push(BTreeMap::from([("k299".to_owned(), 1)]));
    let bytes = surp_dedup::to_vec(&doc).unwrap();
    assert_eq!(&bytes[bytes.len() - 4..], [wire::SHAPE_REF2, 0x2b, 0x01, 1]);
    assert_eq!(
        surp_dedup::from_slice::<Vec<BTreeMap<String, u8>>>(&bytes).unwrap(),
        doc
    );
    let value: Value = surp::from_slice(&bytes).unwrap();
    assert_eq!(Reference::encode(&value), bytes);
}

/// A struct's field names are checked against a predicted shape inline.
/// Shapes first written by a map of owned strings, structs of different
/// types with the same field names, and a struct that leaves the shape at
/// its last field must all give the reference's bytes.
#[test]
fn field_names_match_shapes_whoever_wrote_them_first() {
    #[derive(Serialize)]
    struct Abc {
        alpha: u8,
        beta: u8,
        gamma: u8,
    }
    #[derive(Serialize)]
    struct AlsoAbc {
        alpha: u8,
        beta: u8,
        gamma: u8,
    }
    #[derive(Serialize)]
    struct Abd {
        alpha: u8,
        beta: u8,
        delta: u8,
    }
    let map = BTreeMap::from([("alpha", 1), ("beta", 2), ("gamma", 3)]);
    let abc = || Abc {
        alpha: 4,
        beta: 5,
        gamma: 6,
    };
    let also = AlsoAbc {
        alpha: 7,
        beta: 8,
        gamma: 9,
    };
    let abd = Abd {
        alpha: 10,
        beta: 11,
        delta: 12,
    };
    let doc = (map, abc(), also, abc(), abd, abc(), abc());
    let bytes = surp_dedup::to_vec(&doc).unwrap();
    let value: Value = surp::from_slice(&bytes).unwrap();
    assert_eq!(Reference::encode(&value), bytes);
    assert_eq!(
        value,
        surp::from_slice::<Value>(&surp::to_vec(&doc).unwrap()).unwrap()
    );
    // Every struct after the map is a reference to a shape.
    // (No other byte of this document falls in the one-byte reference range:
    // the numbers are below 0x80 and the keys are ASCII.)
    let refs = bytes
        .iter()
        .filter(|&&b| (wire::FIXSHAPE..=wire::FIXSHAPE_LAST).contains(&b))
        .count();
    assert!(refs >= 5, "{refs} shape references in {bytes:02x?}");
}

/// Enum variants are predicted per variant: a sequence that alternates
/// between struct variants writes each as a shape reference up front, and
/// rewrites none of them (each change of variant rewrote a map when all
/// variants shared one prediction).
#[test]
fn alternating_variants_are_not_rewritten() {
    #[derive(Serialize)]
    enum Step {
        Walk { north: u32, east: u32, up: u32 },
        Wait { seconds: u32, reason: String },
    }
    let steps: Vec<Step> = (0..1000)
        .map(|i| match i % 2 {
            0 => Step::Walk {
                north: i,
                east: i + 1,
                up: 0,
            },
            _ => Step::Wait {
                seconds: i,
                reason: "rest".to_owned(),
            },
        })
        .collect();
    let (bytes, moved) = surp_dedup::__private::to_vec_counting_moves(&steps).unwrap();
    let value: Value = surp::from_slice(&bytes).unwrap();
    assert_eq!(Reference::encode(&value), bytes);
    // The first map of each variant is registered where it stands and the
    // rest are references from the start: nothing is copied. With one
    // prediction for both variants, 8,413 of the 9,466 bytes were.
    assert_eq!(moved, 0, "bytes moved for {} bytes of output", bytes.len());
}
