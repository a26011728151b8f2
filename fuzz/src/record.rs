//! Derived types that cover serde's data model, for the typed targets.
//!
//! [`Record`] is owned (a reader can decode it) and has every kind of field
//! a derived struct meets: integers of every width, floats, `char`, strings,
//! byte strings and byte sequences, nested options, unit, unit and newtype
//! structs, tuples, every kind of enum variant, maps with string and integer
//! keys, externally, internally and adjacently tagged and untagged enums,
//! a flattened struct, and recursion. [`Borrowing`] borrows from a slice.

use std::borrow::Cow;
use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
pub struct Marker;

#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
pub struct Meters(pub u32);

#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
pub struct Point(pub i16, pub i16, pub Option<u8>);

/// Externally tagged: every variant form.
#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
pub enum Shape {
    Empty,
    Circle(f32),
    Line(Point, Point),
    Polygon { corners: Vec<Point>, closed: bool },
    Nested(Box<Option<Shape>>),
}

/// Internally tagged: decoded through serde's buffered content.
#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
#[serde(tag = "type")]
pub enum Event {
    Login { user: String, at: u64 },
    Logout { user: String },
    Ping,
}

#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Number(i64),
    Text(String),
    Pair(u8, bool),
    Nothing,
}

#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum Loose {
    Flag(bool),
    Count(u32),
    Name(String),
    List(Vec<u8>),
    Keyed { key: String },
}

/// A struct with a flattened map: serialized with an unknown length.
#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
pub struct Flat {
    pub version: u8,
    #[serde(flatten)]
    pub rest: BTreeMap<String, u16>,
}

/// Every field form a derived struct meets.
#[derive(Serialize, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
pub struct Record {
    pub id: u64,
    pub small: i8,
    pub wide: i128,
    pub uwide: u128,
    pub flag: bool,
    pub ratio: f32,
    pub score: f64,
    pub letter: char,
    pub name: String,
    #[serde(with = "serde_bytes")]
    pub payload: Vec<u8>,
    pub raw: Vec<u8>,
    pub maybe: Option<u16>,
    pub nested_option: Option<Option<()>>,
    pub unit: (),
    pub marker: Marker,
    pub meters: Meters,
    pub pair: (u8, String),
    pub point: Point,
    pub shape: Shape,
    pub history: Vec<Shape>,
    pub tags: BTreeMap<String, i64>,
    pub by_id: BTreeMap<u32, Option<String>>,
    pub event: Event,
    pub adjacent: Adjacent,
    pub loose: Loose,
    pub flat: Flat,
    #[serde(default)]
    pub optional_count: u32,
    pub child: Option<Box<Record>>,
}

/// Fields that borrow from the input: strings, bytes, and copy-on-write
/// strings that borrow when they can.
#[derive(Serialize, Deserialize, Debug)]
pub struct Borrowing<'a> {
    pub name: &'a str,
    #[serde(with = "serde_bytes")]
    pub payload: &'a [u8],
    #[serde(borrow)]
    pub label: Cow<'a, str>,
    #[serde(borrow)]
    pub words: Vec<&'a str>,
    #[serde(borrow)]
    pub index: BTreeMap<&'a str, Option<&'a str>>,
}

/// A record that decodes must encode, with both encoders, to bytes that
/// decode back to the same bytes (floats are compared by their encoding, so
/// NaN payloads count).
pub fn check_record_round_trips(record: &Record) {
    let plain = surp::to_vec(record).expect("a record encodes");
    let back: Record = surp::from_slice(&plain).expect("an encoded record decodes");
    assert_eq!(
        surp::to_vec(&back).expect("encodes"),
        plain,
        "{record:?} became {back:?}"
    );

    let dedup = surp_dedup::to_vec(record).expect("a record encodes with dedup");
    crate::decode::check_never_longer(&plain, &dedup);
    let back: Record = surp_dedup::from_slice(&dedup).expect("a deduplicated record decodes");
    assert_eq!(
        surp::to_vec(&back).expect("encodes"),
        plain,
        "{record:?} became {back:?}"
    );
}

/// Deepest nesting of an arbitrary [`Record`] that the structured targets
/// encode: decoding stops at 128 levels, and `arbitrary` can nest a
/// recursive type as deep as its input allows.
pub const MAX_RECORD_DEPTH: usize = 32;

impl Record {
    /// Makes an arbitrary record one that a round trip can reproduce: a
    /// flattened map may not repeat the struct's own field name (that reads
    /// back as a duplicate field). Returns `false` for records nested too
    /// deeply to decode.
    pub fn prepare_for_round_trip(&mut self) -> bool {
        self.prepare(0)
    }

    fn prepare(&mut self, depth: usize) -> bool {
        self.flat.rest.remove("version");
        let shapes = std::iter::once(&self.shape).chain(&self.history);
        if depth > MAX_RECORD_DEPTH
            || shapes.map(Shape::depth).max().unwrap_or(0) > MAX_RECORD_DEPTH
        {
            return false;
        }
        match &mut self.child {
            Some(child) => child.prepare(depth + 1),
            None => true,
        }
    }
}

impl Shape {
    fn depth(&self) -> usize {
        match self {
            Shape::Nested(inner) => 1 + inner.as_ref().as_ref().map_or(0, Shape::depth),
            _ => 1,
        }
    }
}
