//! `to_value` and `from_value` against the wire: `to_value(&x)` is the
//! `Value` that decoding `to_vec(&x)` gives, and `from_value` gives a type
//! what `from_slice` gives it from the same document.

mod common;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use surp::{Integer, Value};

use common::same_bits;

/// Checks both directions for `x` against the wire, and returns the value.
fn agrees<T: Serialize + DeserializeOwned + PartialEq + Debug>(x: &T) -> Value {
    let bytes = surp::to_vec(x).unwrap();
    let decoded: Value = surp::from_slice(&bytes).unwrap();
    let value = surp::to_value(x).unwrap();
    assert!(
        same_bits(&value, &decoded),
        "to_value({x:?}) = {value:?}, but its bytes decode to {decoded:?}"
    );
    let back: T = surp::from_value(value.clone()).unwrap();
    assert_eq!(&back, x, "from_value({value:?})");
    let from_wire: T = surp::from_slice(&bytes).unwrap();
    assert_eq!(back, from_wire);
    value
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Point,
    Circle(f64),
    Segment(i32, i32),
    Rect { w: u16, h: u16 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Unit;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Meters(f32);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Pair(u8, String);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Record {
    id: u64,
    name: String,
    score: f64,
    ratio: f32,
    flag: bool,
    letter: char,
    blob: ByteBuf,
    tags: Vec<String>,
    shapes: Vec<Shape>,
    missing: Option<u32>,
    present: Option<u32>,
    unit: (),
    marker: Unit,
    length: Meters,
    pair: Pair,
    by_id: BTreeMap<i32, String>,
    wide: (i128, u128),
    address: IpAddr,
}

fn record() -> Record {
    Record {
        id: u64::MAX,
        name: "greenhouse-3".into(),
        score: 0.1,
        ratio: 0.5,
        flag: true,
        letter: 'é',
        blob: ByteBuf::from(vec![0, 1, 255]),
        tags: vec!["a".into(), String::new()],
        shapes: vec![
            Shape::Point,
            Shape::Circle(2.5),
            Shape::Segment(-1, 1),
            Shape::Rect { w: 3, h: 4 },
        ],
        missing: None,
        present: Some(7),
        unit: (),
        marker: Unit,
        length: Meters(1.25),
        pair: Pair(9, "nine".into()),
        by_id: [(-5, "minus five".to_owned()), (300, "three hundred".into())].into(),
        wide: (i128::MIN, u128::MAX),
        address: IpAddr::V6(Ipv6Addr::LOCALHOST),
    }
}

#[test]
fn a_record_with_every_kind_of_field_agrees_with_the_wire() {
    let value = agrees(&record());
    assert_eq!(value["name"].as_str(), Some("greenhouse-3"));
    assert_eq!(value["blob"].as_bytes(), Some(&[0, 1, 255][..]));
    assert_eq!(
        value["wide"][0].as_integer(),
        Some(Integer::from(i128::MIN))
    );
    assert_eq!(value["by_id"].as_map().unwrap()[0].0, Value::from(-5));
}

#[test]
fn enums_are_externally_tagged() {
    assert_eq!(agrees(&Shape::Point), Value::from("Point"));
    assert_eq!(
        agrees(&Shape::Circle(2.5)),
        Value::Map(vec![("Circle".into(), 2.5.into())])
    );
    assert_eq!(
        agrees(&Shape::Segment(-1, 1)),
        Value::Map(vec![(
            "Segment".into(),
            Value::Array(vec![(-1).into(), 1.into()])
        )])
    );
    assert_eq!(
        agrees(&Shape::Rect { w: 3, h: 4 }),
        Value::Map(vec![(
            "Rect".into(),
            Value::Map(vec![("w".into(), 3.into()), ("h".into(), 4.into())])
        )])
    );
}

#[test]
fn scalars_agree_with_the_wire() {
    agrees(&i8::MIN);
    agrees(&u16::MAX);
    agrees(&i64::MIN);
    agrees(&(u64::MAX as u128 + 1));
    agrees(&-0.0f64);
    agrees(&f64::INFINITY);
    agrees(&1e300);
    agrees(&'x');
    agrees(&String::from("naïve 😀"));
    agrees(&IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)));
    agrees(&Some(Some(3u8)));
    agrees(&(1u8, "two".to_owned(), [3.5f32, -0.0]));
}

#[test]
fn float_bits_survive_both_ways() {
    // A binary32 NaN with a payload: widened on the bits, narrowed back.
    let nan = f32::from_bits(0x7fa0_0001);
    let value = surp::to_value(&nan).unwrap();
    let decoded: Value = surp::from_slice(&surp::to_vec(&nan).unwrap()).unwrap();
    assert!(same_bits(&value, &decoded));
    let back: f32 = surp::from_value(value).unwrap();
    assert_eq!(back.to_bits(), nan.to_bits());

    let nan64 = f64::from_bits(0x7ff0_0000_0000_0001);
    let back: f64 = surp::from_value(surp::to_value(&nan64).unwrap()).unwrap();
    assert_eq!(back.to_bits(), nan64.to_bits());
}

#[test]
fn some_none_is_null_as_when_decoding_a_value() {
    let x: Option<Option<u8>> = Some(None);
    let value = surp::to_value(&x).unwrap();
    let decoded: Value = surp::from_slice(&surp::to_vec(&x).unwrap()).unwrap();
    assert_eq!(value, Value::Null);
    assert_eq!(decoded, Value::Null);
    assert_eq!(surp::from_value::<Option<Option<u8>>>(value).unwrap(), None);
}

#[test]
fn values_that_do_not_fit_are_errors_without_an_offset() {
    let err = surp::from_value::<u8>(Value::from(256)).unwrap_err();
    assert_eq!(err.offset(), None);
    assert_eq!(err.to_string(), "invalid value: integer `256`, expected u8");

    let err = surp::from_value::<String>(Value::from(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `1`, expected a string"
    );

    let err = surp::from_value::<Shape>(Value::Map(vec![
        ("Point".into(), Value::Null),
        ("Circle".into(), 1.0.into()),
    ]))
    .unwrap_err();
    assert!(
        err.to_string().contains("a map without exactly one entry"),
        "{err}"
    );

    let err = surp::from_value::<Shape>(Value::from("Hexagon")).unwrap_err();
    assert!(
        err.to_string().contains("unknown variant `Hexagon`"),
        "{err}"
    );

    let err = surp::from_value::<Shape>(Value::from(true)).unwrap_err();
    assert!(
        err.to_string().starts_with("invalid type: boolean `true`"),
        "{err}"
    );

    let err =
        surp::from_value::<(u8, u8)>(Value::Array(vec![1.into(), 2.into(), 3.into()])).unwrap_err();
    assert!(err.to_string().contains("invalid length 3"), "{err}");

    let err = surp::from_value::<Pair>(Value::Map(vec![("id".into(), 1.into())])).unwrap_err();
    assert!(err.to_string().starts_with("invalid type: map"), "{err}");
}

#[test]
fn a_unit_variant_may_also_be_a_one_entry_map_to_null() {
    let value = Value::Map(vec![("Point".into(), Value::Null)]);
    assert_eq!(
        surp::from_value::<Shape>(value.clone()).unwrap(),
        Shape::Point
    );
    let bytes = surp::to_vec(&value).unwrap();
    assert_eq!(surp::from_slice::<Shape>(&bytes).unwrap(), Shape::Point);
}

proptest! {
    #[test]
    fn any_value_converts_to_itself(v in common::value()) {
        let to = surp::to_value(&v).unwrap();
        prop_assert!(same_bits(&to, &v), "to_value: {to:?}");
        let from: Value = surp::from_value(v.clone()).unwrap();
        prop_assert!(same_bits(&from, &v), "from_value: {from:?}");
    }
}
