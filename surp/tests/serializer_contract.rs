//! The serializer's side of serde's contract: a `Serialize` impl that lies
//! about a collection's length gets an error rather than a corrupt document,
//! and collections of unknown length (`serialize_seq(None)`,
//! `serialize_map(None)`, `#[serde(flatten)]`) encode to exactly the bytes of
//! their sized equivalents.

mod common;

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};
use surp::Value;

/// Every serde form that declares a count up front.
#[derive(Clone, Copy, Debug)]
enum Form {
    Seq,
    Tuple,
    TupleStruct,
    TupleVariant,
    Map,
    Struct,
    StructVariant,
}

const FORMS: [Form; 7] = [
    Form::Seq,
    Form::Tuple,
    Form::TupleStruct,
    Form::TupleVariant,
    Form::Map,
    Form::Struct,
    Form::StructVariant,
];

/// Declares `declared` items of `form`, then serializes `actual` of them.
struct Lying {
    form: Form,
    declared: usize,
    actual: usize,
}

const FIELDS: [&str; 4] = ["a", "b", "c", "d"];

impl Serialize for Lying {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (n, items) = (self.declared, 0..self.actual);
        match self.form {
            Form::Seq => {
                let mut c = s.serialize_seq(Some(n))?;
                items
                    .into_iter()
                    .try_for_each(|i| c.serialize_element(&i))?;
                c.end()
            }
            Form::Tuple => {
                let mut c = s.serialize_tuple(n)?;
                items
                    .into_iter()
                    .try_for_each(|i| c.serialize_element(&i))?;
                c.end()
            }
            Form::TupleStruct => {
                let mut c = s.serialize_tuple_struct("T", n)?;
                items.into_iter().try_for_each(|i| c.serialize_field(&i))?;
                c.end()
            }
            Form::TupleVariant => {
                let mut c = s.serialize_tuple_variant("E", 0, "V", n)?;
                items.into_iter().try_for_each(|i| c.serialize_field(&i))?;
                c.end()
            }
            Form::Map => {
                let mut c = s.serialize_map(Some(n))?;
                items
                    .into_iter()
                    .try_for_each(|i| c.serialize_entry(&i, &i))?;
                c.end()
            }
            Form::Struct => {
                let mut c = s.serialize_struct("S", n)?;
                items
                    .into_iter()
                    .try_for_each(|i| c.serialize_field(FIELDS[i], &i))?;
                c.end()
            }
            Form::StructVariant => {
                let mut c = s.serialize_struct_variant("E", 0, "V", n)?;
                items
                    .into_iter()
                    .try_for_each(|i| c.serialize_field(FIELDS[i], &i))?;
                c.end()
            }
        }
    }
}

#[test]
fn a_struct_declaring_three_fields_but_serializing_two_is_an_error() {
    let short = Lying {
        form: Form::Struct,
        declared: 3,
        actual: 2,
    };
    let err = surp::to_vec(&short).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a map declared 3 items but 2 were serialized"
    );
    assert!(surp::to_writer(Vec::new(), &short).is_err());
    assert!(surp::to_buf_mut(bytes::BytesMut::new(), &short).is_err());
    // Also when the lie is buried inside another value.
    assert!(surp::to_vec(&vec![Some(short)]).is_err());
}

#[test]
fn every_counted_form_rejects_too_few_or_too_many_items() {
    for form in FORMS {
        for (declared, actual) in [(3, 2), (3, 4), (1, 0), (0, 1)] {
            let lying = Lying {
                form,
                declared,
                actual,
            };
            let err = surp::to_vec(&lying).expect_err(&format!("{form:?} {declared}/{actual}"));
            assert!(
                err.to_string()
                    .contains(&format!("declared {declared} items but {actual} were")),
                "{form:?}: {err}"
            );
            assert_eq!(err.offset(), None, "an encoding error has no input offset");
        }
        // An honest count of the same form encodes and decodes.
        let honest = Lying {
            form,
            declared: 3,
            actual: 3,
        };
        let bytes = surp::to_vec(&honest).unwrap();
        let value: Value = surp::from_slice(&bytes).unwrap();
        let content = match form {
            Form::TupleVariant | Form::StructVariant => &value["V"],
            _ => &value,
        };
        let len = content
            .as_array()
            .map(Vec::len)
            .or(content.as_map().map(Vec::len));
        assert_eq!(len, Some(3), "{form:?}: {value}");
    }
}

/// Serializes a `Value` with every array and map of unknown length.
struct Unsized<'a>(&'a Value);

impl Serialize for Unsized<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Array(items) => {
                let mut seq = s.serialize_seq(None)?;
                for item in items {
                    seq.serialize_element(&Unsized(item))?;
                }
                seq.end()
            }
            Value::Map(entries) => {
                let mut map = s.serialize_map(None)?;
                for (k, v) in entries {
                    map.serialize_entry(&Unsized(k), &Unsized(v))?;
                }
                map.end()
            }
            scalar => scalar.serialize(s),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn collections_of_unknown_length_encode_like_sized_ones(value in common::value()) {
        let sized = surp::to_vec(&value).unwrap();
        prop_assert!(surp::to_vec(&Unsized(&value)).unwrap() == sized);
        let mut written = Vec::new();
        surp::to_writer(&mut written, &Unsized(&value)).unwrap();
        prop_assert!(written == sized);
        // Inside the `Some` and enum paths of the serializer too.
        prop_assert!(surp::to_vec(&Some(Unsized(&value))).unwrap() == surp::to_vec(&Some(&value)).unwrap());
        prop_assert!(
            surp::to_vec(&Wrapper::Content(Unsized(&value))).unwrap()
                == surp::to_vec(&Wrapper::Content(&value)).unwrap()
        );
    }
}

#[derive(serde::Serialize)]
enum Wrapper<T> {
    Content(T),
}

#[test]
fn unknown_lengths_at_every_length_class_boundary_encode_like_sized_ones() {
    for n in [0usize, 1, 15, 16, 255, 256, 65_535, 65_536] {
        let items: Vec<u32> = (0..n as u32).collect();
        let sized = surp::to_vec(&items).unwrap();
        // A filtered iterator has no exact length, so serde passes `None`.
        let unsized_seq = surp::to_vec(&SeqOf(&items)).unwrap();
        assert!(unsized_seq == sized, "array of {n}");

        let map: BTreeMap<u32, u32> = items.iter().map(|&i| (i, i)).collect();
        let sized = surp::to_vec(&map).unwrap();
        let unsized_map = surp::to_vec(&MapOf(&map)).unwrap();
        assert!(unsized_map == sized, "map of {n}");
    }
}

/// A sequence serialized through `collect_seq` of an iterator of unknown length.
struct SeqOf<'a>(&'a [u32]);

impl Serialize for SeqOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().filter(|_| true))
    }
}

/// A map serialized through `collect_map` of an iterator of unknown length.
struct MapOf<'a>(&'a BTreeMap<u32, u32>);

impl Serialize for MapOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().filter(|_| true))
    }
}

#[derive(serde::Serialize)]
struct Flattened {
    id: u32,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    rest: BTreeMap<String, i32>,
}

#[derive(serde::Serialize)]
struct Inner {
    a: bool,
    b: &'static str,
}

#[test]
fn a_flattened_struct_encodes_like_the_plain_map_of_its_fields() {
    let rest: BTreeMap<String, i32> = (0..20).map(|i| (format!("x{i:02}"), i - 10)).collect();
    let flattened = Flattened {
        id: 7,
        inner: Inner { a: true, b: "bee" },
        rest: rest.clone(),
    };
    let mut entries = vec![
        (Value::from("id"), Value::from(7)),
        (Value::from("a"), Value::from(true)),
        (Value::from("b"), Value::from("bee")),
    ];
    entries.extend(rest.into_iter().map(|(k, v)| (k.into(), v.into())));
    assert_eq!(entries.len(), 23, "past the inline map count of 15");
    assert_eq!(
        surp::to_vec(&flattened).unwrap(),
        surp::to_vec(&Value::Map(entries)).unwrap()
    );
}

/// A sequence whose third element fails to serialize.
struct FailsPartWay;

impl Serialize for FailsPartWay {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        seq.serialize_element(&1u8)?;
        seq.serialize_element(&2u8)?;
        seq.serialize_element(&Failing)?;
        seq.end()
    }
}

struct Failing;

impl Serialize for Failing {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom(
            "this value refuses to be written",
        ))
    }
}

#[test]
fn an_error_inside_a_buffered_collection_reaches_the_caller() {
    let err = surp::to_vec(&FailsPartWay).unwrap_err();
    assert_eq!(err.to_string(), "this value refuses to be written");
    let mut out = Vec::new();
    assert!(surp::to_writer(&mut out, &FailsPartWay).is_err());
    // Nothing of the buffered collection reached the writer.
    assert!(out.is_empty(), "wrote {out:02x?}");
}
