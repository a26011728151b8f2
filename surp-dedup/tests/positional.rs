//! Positional structs: when a deduplicated document's shape reference has
//! exactly the keys a struct's `deserialize_struct` names, in order, the
//! decoder hands the values to `visit_seq` instead of `visit_map`
//! (`Options::positional_structs`, on by default). The decoded value must be
//! the same either way, for derived types with every field attribute that
//! changes which fields are read, and a visitor must see a sequence only
//! when the keys really are its fields.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeOwned, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use surp::Options;
use surp_datasets::Scale;
use surp_datasets::typed::{TypedDataset, TypedValue};

fn on() -> Options {
    Options::new()
}

fn off() -> Options {
    Options::new().positional_structs(false)
}

/// Decodes `bytes` from a slice and from a reader, positionally and not;
/// all four must give `expected`.
fn decodes_as<T: DeserializeOwned + PartialEq + fmt::Debug>(bytes: &[u8], expected: &T) {
    for opts in [on(), off()] {
        let from_slice: T = opts.from_slice(bytes).expect("decodes from a slice");
        assert_eq!(&from_slice, expected, "from a slice, {opts:?}");
        let from_reader: T = opts.from_reader(bytes).expect("decodes from a reader");
        assert_eq!(&from_reader, expected, "from a reader, {opts:?}");
    }
}

#[test]
fn every_typed_dataset_decodes_the_same_positionally() {
    for dataset in [
        TypedDataset::Log,
        TypedDataset::Mesh,
        TypedDataset::GameSave,
        TypedDataset::GameUpdates,
        TypedDataset::World,
        TypedDataset::ScanMesh,
        TypedDataset::RequestLog,
    ] {
        match dataset.generate(Scale::Ci) {
            TypedValue::Log(v) => decodes_as(&surp_dedup::to_vec(&v).unwrap(), &v),
            TypedValue::Mesh(v) => decodes_as(&surp_dedup::to_vec(&v).unwrap(), &v),
            TypedValue::GameSave(v) => decodes_as(&surp_dedup::to_vec(&v).unwrap(), &v),
            TypedValue::GameUpdates(v) => decodes_as(&surp_dedup::to_vec(&v).unwrap(), &v),
            TypedValue::World(v) => decodes_as(&surp_dedup::to_vec(&v).unwrap(), &v),
            TypedValue::ScanMesh(v) => decodes_as(&surp_dedup::to_vec(&v).unwrap(), &v),
            TypedValue::RequestLog(v) => decodes_as(&surp_dedup::to_vec(&v).unwrap(), &v),
        }
    }
}

#[test]
fn serde_s_own_structs_decode_the_same_positionally() {
    let spans: Vec<(std::time::Duration, std::ops::Range<u32>)> = (0..10)
        .map(|i| {
            (
                std::time::Duration::new(i, 7 * i as u32),
                i as u32..2 * i as u32,
            )
        })
        .collect();
    decodes_as(&surp_dedup::to_vec(&spans).unwrap(), &spans);
}

fn default_flag() -> bool {
    true
}

/// Field attributes that change which keys are written or read, with a
/// field list that the records with a `note` match, in order.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Attributed {
    #[serde(rename = "ID")]
    id: u32,
    #[serde(skip)]
    cache: u64,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    note: Option<String>,
    #[serde(default = "default_flag")]
    flag: bool,
    name: String,
}

/// Attributes that make the field list differ from the keys written: serde
/// lists aliases among the fields, and leaves out a field it skips when
/// reading. These records always go to `visit_map`.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Aliased {
    #[serde(alias = "label")]
    name: String,
    #[serde(skip_deserializing)]
    written_only: u8,
    count: u16,
}

#[test]
fn field_attributes_decode_the_same_positionally() {
    let records: Vec<(Attributed, Aliased)> = (0..20)
        .map(|i| {
            let name = ["a", "b", "c"][i as usize % 3].to_owned();
            let attributed = Attributed {
                id: i,
                cache: 99,
                note: (i % 3 == 0).then(|| format!("note {i}")),
                flag: i % 2 == 0,
                name: name.clone(),
            };
            let aliased = Aliased {
                name,
                written_only: 7,
                count: i as u16,
            };
            (attributed, aliased)
        })
        .collect();
    let bytes = surp_dedup::to_vec(&records).unwrap();
    // What is skipped when reading comes back as its default.
    let expected: Vec<(Attributed, Aliased)> = records
        .iter()
        .map(|(a, b)| {
            let a = Attributed {
                cache: 0,
                ..a.clone()
            };
            let b = Aliased {
                written_only: 0,
                ..b.clone()
            };
            (a, b)
        })
        .collect();
    decodes_as(&bytes, &expected);
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(deny_unknown_fields)]
struct Point {
    x: i32,
    y: i32,
}

/// Reads the keys of [`Point`] with a third field, so that a `Point` shape
/// is not its field list.
#[derive(Deserialize, Debug, PartialEq)]
struct PointZ {
    x: i32,
    y: i32,
    #[serde(default)]
    z: i32,
}

/// Reads the keys of [`Point`] in the other order.
#[derive(Deserialize, Debug, PartialEq)]
struct PointYx {
    y: i32,
    x: i32,
}

#[test]
fn one_shape_read_as_structs_with_other_fields() {
    // The same shape alternates between types whose field lists are, and
    // are not, its keys: the cached comparison must follow the list. The
    // two lists of two names are neighbours, so a cache that compared
    // lengths only would hand `PointYx` its values in the wrong order.
    let pairs: Vec<(Point, Point, Point)> = (0..10)
        .map(|i| {
            let p = Point { x: i, y: -i };
            (p.clone(), p.clone(), p)
        })
        .collect();
    let bytes = surp_dedup::to_vec(&pairs).unwrap();
    let expected: Vec<(Point, PointYx, PointZ)> = (0..10)
        .map(|i| {
            (
                Point { x: i, y: -i },
                PointYx { y: -i, x: i },
                PointZ { x: i, y: -i, z: 0 },
            )
        })
        .collect();
    decodes_as(&bytes, &expected);
}

thread_local! {
    /// How each [`Probe`] was handed to its visitor, in order.
    static SEEN: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

/// A struct `{ x, y }` that records whether it got a sequence or a map.
#[derive(Debug, PartialEq)]
struct Probe(i32, i32);

impl<'de> Deserialize<'de> for Probe {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Probe;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("struct Probe")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Probe, A::Error> {
                SEEN.with(|s| s.borrow_mut().push("seq"));
                let x = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let y = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                Ok(Probe(x, y))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Probe, A::Error> {
                SEEN.with(|s| s.borrow_mut().push("map"));
                let (mut x, mut y) = (0, 0);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "x" => x = map.next_value()?,
                        "y" => y = map.next_value()?,
                        _ => return Err(de::Error::unknown_field(&key, &["x", "y"])),
                    }
                }
                Ok(Probe(x, y))
            }
        }
        d.deserialize_struct("Probe", &["x", "y"], V)
    }
}

fn seen() -> Vec<&'static str> {
    SEEN.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

#[test]
fn only_a_shape_reference_with_the_fields_in_order_is_a_sequence() {
    let points: Vec<Point> = (0..4).map(|i| Point { x: i, y: 10 * i }).collect();
    let expected: Vec<Probe> = (0..4).map(|i| Probe(i, 10 * i)).collect();
    seen();

    // The first point is an explicit map that defines the shape; the
    // others reference it.
    let bytes = surp_dedup::to_vec(&points).unwrap();
    assert_eq!(on().from_slice::<Vec<Probe>>(&bytes).unwrap(), expected);
    assert_eq!(seen(), ["map", "seq", "seq", "seq"]);
    assert_eq!(off().from_slice::<Vec<Probe>>(&bytes).unwrap(), expected);
    assert_eq!(seen(), ["map"; 4]);

    // A plain document has no shapes.
    let plain = surp::to_vec(&points).unwrap();
    assert_eq!(on().from_slice::<Vec<Probe>>(&plain).unwrap(), expected);
    assert_eq!(seen(), ["map"; 4]);

    // Keys in another order than the fields: a map, every time.
    #[derive(Serialize)]
    struct Yx {
        y: i32,
        x: i32,
    }
    let yx: Vec<Yx> = (0..4).map(|i| Yx { y: 10 * i, x: i }).collect();
    let bytes = surp_dedup::to_vec(&yx).unwrap();
    assert_eq!(on().from_slice::<Vec<Probe>>(&bytes).unwrap(), expected);
    assert_eq!(seen(), ["map"; 4]);
}

#[test]
fn a_visitor_that_takes_fewer_values_than_the_shape_is_an_error() {
    /// Reads `{ x, y }` shapes as a struct of one field.
    #[derive(Debug)]
    struct OnlyX(#[allow(dead_code)] i32);
    impl<'de> Deserialize<'de> for OnlyX {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = OnlyX;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("struct OnlyX")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OnlyX, A::Error> {
                    let x = seq
                        .next_element()?
                        .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                    Ok(OnlyX(x))
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OnlyX, A::Error> {
                    let mut x = 0;
                    while let Some(key) = map.next_key::<String>()? {
                        let value = map.next_value()?;
                        if key == "x" {
                            x = value;
                        }
                    }
                    Ok(OnlyX(x))
                }
            }
            // Claims the shape's fields, but reads one value of a sequence.
            d.deserialize_struct("OnlyX", &["x", "y"], V)
        }
    }
    let points: Vec<Point> = (0..3).map(|i| Point { x: i, y: i }).collect();
    let bytes = surp_dedup::to_vec(&points).unwrap();
    let err = on().from_slice::<Vec<OnlyX>>(&bytes).unwrap_err();
    assert_eq!(*err.kind(), surp::ErrorKind::TrailingItems(1));
    // The second point: after the marker, the array header and the first
    // point, an explicit map as in a plain document.
    let second = 2 + surp::to_vec(&points[0]).unwrap().len();
    assert_eq!(err.offset(), Some(second), "{err}");
    assert!(off().from_slice::<Vec<OnlyX>>(&bytes).is_ok());
}

/// A hand-written struct that implements `visit_map` only.
#[derive(Debug)]
struct MapOnly(i32);

impl<'de> Deserialize<'de> for MapOnly {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MapOnly;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("struct MapOnly")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MapOnly, A::Error> {
                let mut sum = 0;
                while let Some((_, v)) = map.next_entry::<String, i32>()? {
                    sum += v;
                }
                Ok(MapOnly(sum))
            }
        }
        d.deserialize_struct("MapOnly", &["x", "y"], V)
    }
}

#[test]
fn a_visitor_without_visit_seq_gets_an_error_that_says_what_to_do() {
    let points: Vec<Point> = (0..3).map(|i| Point { x: i, y: 1 }).collect();
    let bytes = surp_dedup::to_vec(&points).unwrap();
    let err = on().from_slice::<Vec<MapOnly>>(&bytes).unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with("invalid type: sequence, expected struct MapOnly at byte "),
        "{message}"
    );
    assert!(
        message.ends_with("`surp::Options::new().positional_structs(false)`)"),
        "{message}"
    );
    let err = on().from_reader::<_, Vec<MapOnly>>(&bytes[..]).unwrap_err();
    assert!(
        err.to_string().contains("positional_structs(false)"),
        "{err}"
    );
    let sums: Vec<i32> = off()
        .from_slice::<Vec<MapOnly>>(&bytes)
        .unwrap()
        .iter()
        .map(|m| m.0)
        .collect();
    assert_eq!(sums, [1, 2, 3]);
}

#[test]
fn positional_structs_borrow_their_strings() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Row<'a> {
        name: &'a str,
        kind: &'a str,
    }
    let rows: Vec<Row> = (0..6)
        .map(|i| Row {
            name: ["alpha", "beta"][i % 2],
            kind: "record",
        })
        .collect();
    let bytes = surp_dedup::to_vec(&rows).unwrap();
    let decoded: Vec<Row> = on().from_slice(&bytes).unwrap();
    assert_eq!(decoded, rows);
    let range = bytes.as_ptr_range();
    assert!(decoded.iter().all(|r| range.contains(&r.name.as_ptr())));
}

#[test]
fn an_error_in_a_struct_read_by_position_names_the_field() {
    #[derive(Serialize)]
    struct NamedY {
        x: i32,
        y: &'static str,
    }
    // The second struct is a reference to the first one's shape, and its
    // `y` is not a number.
    let bytes = surp_dedup::to_vec(&(Point { x: 1, y: 2 }, NamedY { x: 3, y: "four" })).unwrap();
    let err = on().from_slice::<(Point, Point)>(&bytes).unwrap_err();
    assert_eq!(err.path(), Some("[1].y"), "{err}");
    assert!(
        err.to_string()
            .starts_with("invalid type: string \"four\", expected i32 at byte "),
        "{err}"
    );
}

#[test]
fn a_field_and_its_alias_both_present_are_an_error_either_way() {
    /// `Aliased` as read: serde lists its fields as `label`, `name`,
    /// `count` (a field's names sorted), so these keys equal them.
    #[derive(Serialize)]
    struct Both {
        label: &'static str,
        name: &'static str,
        count: u16,
    }
    let both: Vec<Both> = (0..3)
        .map(|i| Both {
            label: "l",
            name: "n",
            count: i,
        })
        .collect();
    let bytes = surp_dedup::to_vec(&both).unwrap();
    let err = off().from_slice::<Vec<Aliased>>(&bytes).unwrap_err();
    assert!(
        err.to_string().starts_with("duplicate field `name`"),
        "{err}"
    );
    // By position the second record's visitor reads `label` as the name
    // and "n" as the count; either way it is an error, never a value.
    assert!(on().from_slice::<Vec<Aliased>>(&bytes).is_err());
}

#[test]
fn a_shape_referenced_with_two_bytes_is_read_by_position_too() {
    // Eight one-key maps take shapes 0-7, so the points' shape is 8, whose
    // references are `f6 08`.
    let fillers: Vec<std::collections::BTreeMap<String, u8>> = (0..8)
        .map(|i| [(format!("k{i}"), i)].into_iter().collect())
        .collect();
    let points: Vec<Point> = (0..4).map(|i| Point { x: i, y: 10 * i }).collect();
    let bytes = surp_dedup::to_vec(&(&fillers, &points)).unwrap();
    assert!(bytes.windows(2).any(|w| w == [0xf6, 8]));
    seen();
    let (_, probes): (serde::de::IgnoredAny, Vec<Probe>) = on().from_slice(&bytes).unwrap();
    assert_eq!(probes, (0..4).map(|i| Probe(i, 10 * i)).collect::<Vec<_>>());
    assert_eq!(seen(), ["map", "seq", "seq", "seq"]);
}

#[test]
fn a_struct_whose_name_starts_with_a_dollar_is_always_a_map() {
    /// A format's private struct: a hand-written visitor for maps only.
    #[derive(Debug)]
    struct Private(i32);
    impl<'de> Deserialize<'de> for Private {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Private;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a private struct")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Private, A::Error> {
                    let (_, v) = map
                        .next_entry::<String, i32>()?
                        .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                    Ok(Private(v))
                }
            }
            d.deserialize_struct("$__private", &["$__private"], V)
        }
    }
    #[derive(Serialize)]
    struct Wire {
        #[serde(rename = "$__private")]
        value: i32,
    }
    let wire: Vec<Wire> = (0..3).map(|value| Wire { value }).collect();
    let bytes = surp_dedup::to_vec(&wire).unwrap();
    let values: Vec<i32> = on()
        .from_slice::<Vec<Private>>(&bytes)
        .unwrap()
        .iter()
        .map(|p| p.0)
        .collect();
    assert_eq!(values, [0, 1, 2]);
}
