//! Struct keys: `deserialize_struct` first compares each key with the field
//! name it expects next and, on equal bytes, hands the visitor that name
//! without decoding the string. These tests check that every key the fast
//! path does not take (other orders, unknown and missing fields, aliases,
//! long names, keys of other types, truncated input, a reader) decodes
//! exactly as a map key would, with the same errors at the same offsets.

use std::collections::BTreeMap;
use std::fmt;

use common::{MapKeys, Readable};
use serde::de;
use serde::{Deserialize, Serialize};

mod common;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Record {
    id: u32,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    a_field_name_longer_than_31_bytes: bool,
    tags: Vec<u8>,
}

fn record(note: Option<&str>) -> Record {
    Record {
        id: 7,
        name: "seven".into(),
        note: note.map(Into::into),
        a_field_name_longer_than_31_bytes: true,
        tags: vec![1, 2],
    }
}

/// Decodes `bytes` as a `T` with `opts` from a slice (where matched keys
/// take the fast path) and from a reader (where none does): the values, or
/// the errors' kinds and offsets, must be the same. A slice's error also
/// names the path, which a reader cannot find (a documented difference).
fn same_as_reader_with<T>(opts: surp::Options, bytes: &[u8]) -> Result<T, String>
where
    T: for<'de> Deserialize<'de> + PartialEq + fmt::Debug,
{
    let show = |e: surp::Error| format!("{:?} (offset {:?})", e.kind(), e.offset());
    let slice = opts.from_slice::<T>(bytes).map_err(show);
    let reader = opts.from_reader::<_, T>(bytes).map_err(show);
    assert_eq!(slice, reader);
    slice
}

fn same_as_reader<T>(bytes: &[u8]) -> Result<T, String>
where
    T: for<'de> Deserialize<'de> + PartialEq + fmt::Debug,
{
    same_as_reader_with(surp::Options::new(), bytes)
}

fn both<T: for<'de> Deserialize<'de> + PartialEq + fmt::Debug>(bytes: &[u8]) -> T {
    same_as_reader(bytes).unwrap()
}

/// A map with these entries, in this order, as Surp writes it.
fn map_bytes(entries: &[(&str, surp::Value)]) -> Vec<u8> {
    struct Entries<'a>(&'a [(&'a str, surp::Value)]);
    impl Serialize for Entries<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = s.serialize_map(Some(self.0.len()))?;
            for (k, v) in self.0 {
                map.serialize_entry(k, v)?;
            }
            map.end()
        }
    }
    surp::to_vec(&Entries(entries)).unwrap()
}

#[test]
fn fields_in_order_with_one_left_out_and_a_long_name() {
    for note in [None, Some("n")] {
        let value = record(note);
        assert_eq!(both::<Record>(&surp::to_vec(&value).unwrap()), value);
    }
}

#[test]
fn fields_in_another_order_and_unknown_fields_decode_as_before() {
    use surp::Value;
    let bytes = map_bytes(&[
        (
            "tags",
            Value::from(vec![Value::from(1u8), Value::from(2u8)]),
        ),
        ("unknown", Value::from("ignored")),
        ("a_field_name_longer_than_31_bytes", Value::from(true)),
        ("name", Value::from("seven")),
        ("id", Value::from(7u32)),
    ]);
    assert_eq!(both::<Record>(&bytes), record(None));
}

#[test]
fn a_key_that_is_not_a_string_is_read_like_any_key() {
    // A derived field visitor also accepts the field's index.
    #[derive(Debug, PartialEq, Deserialize)]
    struct Pair {
        x: u8,
        y: u8,
    }
    let mut map = BTreeMap::new();
    map.insert(0u8, 3u8);
    map.insert(1u8, 4u8);
    let bytes = surp::to_vec(&map).unwrap();
    assert_eq!(both::<Pair>(&bytes), Pair { x: 3, y: 4 });
}

#[test]
fn an_alias_is_matched_by_serde_as_before() {
    #[derive(Debug, PartialEq, Deserialize)]
    struct Aliased {
        #[serde(alias = "identifier")]
        id: u32,
        name: String,
    }
    use surp::Value;
    for key in ["id", "identifier"] {
        let bytes = map_bytes(&[(key, Value::from(1u32)), ("name", Value::from("a"))]);
        assert_eq!(
            both::<Aliased>(&bytes),
            Aliased {
                id: 1,
                name: "a".into()
            }
        );
    }
}

#[test]
fn an_unknown_field_that_the_type_denies_is_an_error_at_its_key() {
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        id: u32,
    }
    use surp::Value;
    let bytes = map_bytes(&[("id", Value::from(1u32)), ("other", Value::from(2u32))]);
    let e = surp::from_slice::<Strict>(&bytes).unwrap_err();
    // The map's tag, then "id" (3 bytes) and 1 (1 byte): "other" is at 5.
    assert_eq!(e.offset(), Some(5), "{e}");
    assert!(e.to_string().contains("unknown field `other`"), "{e}");
    let e = surp::from_reader::<_, Strict>(&bytes[..]).unwrap_err();
    assert_eq!(e.offset(), Some(5), "{e}");
}

#[test]
fn a_duplicate_field_is_the_same_error_as_from_a_reader() {
    #[derive(Debug, PartialEq, Deserialize)]
    struct Two {
        id: u32,
        name: u32,
    }
    use surp::Value;
    // The first "id" and "name" are matched; the second "id" is not.
    let bytes = map_bytes(&[
        ("id", Value::from(1u32)),
        ("name", Value::from(2u32)),
        ("id", Value::from(3u32)),
    ]);
    let e = same_as_reader::<Two>(&bytes).unwrap_err();
    assert!(e.contains("duplicate field `id`"), "{e}");
}

#[test]
fn every_truncation_is_the_same_error_as_from_a_reader() {
    let bytes = surp::to_vec(&record(Some("n"))).unwrap();
    for end in 0..bytes.len() {
        let e = same_as_reader::<Record>(&bytes[..end]).unwrap_err();
        assert!(
            e.starts_with("UnexpectedEof") || e.starts_with("LengthExceedsInput"),
            "{end}: {e}"
        );
    }
}

#[test]
fn a_visitor_that_borrows_keys_gets_the_field_names() {
    // A hand-written struct visitor that keeps its keys as `&'de str`.
    struct Keys<'de>(Vec<&'de str>);
    impl<'de> Deserialize<'de> for Keys<'de> {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let fields = &["id", "name", "note"];
            d.deserialize_struct("Record", fields, MapKeys::new())
                .map(Keys)
        }
    }
    let bytes = surp::to_vec(&record(Some("n"))).unwrap();
    let keys = surp::from_slice::<Keys>(&bytes).unwrap().0;
    assert_eq!(
        keys,
        [
            "id",
            "name",
            "note",
            "a_field_name_longer_than_31_bytes",
            "tags"
        ]
    );
}

/// The keys of a struct with the fields `id` and `name`, each read as a `K`.
#[derive(Debug, PartialEq)]
struct KeysAs<K>(Vec<K>);

impl<'de, K: Deserialize<'de>> Deserialize<'de> for KeysAs<K> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_struct("S", &["id", "name"], MapKeys::new())
            .map(KeysAs)
    }
}

#[test]
fn key_types_other_than_identifiers_see_what_they_would_in_a_map() {
    #[derive(Debug, PartialEq, Deserialize)]
    struct Newtype(String);

    #[derive(Debug, PartialEq, Deserialize)]
    #[allow(non_camel_case_types)]
    enum Field {
        id,
        name,
    }

    use surp::Value;
    let bytes = map_bytes(&[("id", Value::from(1u32)), ("name", Value::from("a"))]);
    assert_eq!(
        same_as_reader::<KeysAs<String>>(&bytes),
        Ok(KeysAs(vec!["id".into(), "name".into()]))
    );
    assert_eq!(
        same_as_reader::<KeysAs<Option<String>>>(&bytes),
        Ok(KeysAs(vec![Some("id".into()), Some("name".into())]))
    );
    assert_eq!(
        same_as_reader::<KeysAs<Newtype>>(&bytes),
        Ok(KeysAs(vec![Newtype("id".into()), Newtype("name".into())]))
    );
    assert_eq!(
        same_as_reader::<KeysAs<Field>>(&bytes),
        Ok(KeysAs(vec![Field::id, Field::name]))
    );
    assert_eq!(
        same_as_reader::<KeysAs<Readable>>(&bytes),
        Ok(KeysAs(vec![Readable(false), Readable(false)]))
    );
    assert_eq!(
        same_as_reader::<KeysAs<Value>>(&bytes),
        Ok(KeysAs(vec![Value::from("id"), Value::from("name")]))
    );
    // A key type that rejects the name: the error is at the key's tag,
    // right after the map's.
    let e = same_as_reader::<KeysAs<u8>>(&bytes).unwrap_err();
    assert!(
        e.contains("invalid type: string") && e.contains("expected u8"),
        "{e}"
    );
    assert!(e.ends_with("(offset Some(1))"), "{e}");
}

#[test]
fn a_matched_key_is_held_to_the_string_length_limits() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Two {
        id: u8,
        name: u8,
    }
    let value = Two { id: 1, name: 2 };
    let bytes = surp::to_vec(&value).unwrap();
    // A limit of 2 or 3 lets the map (2 entries) and the key "id" through
    // and stops the key "name", which the fast path would match: it must
    // not skip the check a string literal gets.
    for limit in [3, 2] {
        for opts in [
            surp::Options::new().max_len(limit),
            surp::Options::new().max_alloc(limit),
        ] {
            let e = opts.from_slice::<Two>(&bytes).unwrap_err();
            // The map's tag, then "id" (3 bytes) and 1 (1 byte): "name" is at 5.
            assert_eq!(e.offset(), Some(5), "{limit}: {e}");
            assert!(e.to_string().contains("limit of"), "{e}");
        }
    }
    let decoded: Two = surp::Options::new().max_len(4).from_slice(&bytes).unwrap();
    assert_eq!(decoded, value);
}

#[test]
fn somes_around_a_matched_key_are_held_to_the_depth_limit() {
    // `Some`s that read no byte nest at one offset; the decoder stops them
    // at the depth limit, so a key type like `K` cannot recurse forever.
    #[derive(Debug, PartialEq, Deserialize)]
    struct K(Option<Box<K>>);

    use surp::Value;
    let bytes = map_bytes(&[("id", Value::from(1u32))]);
    let e = same_as_reader::<KeysAs<K>>(&bytes).unwrap_err();
    assert_eq!(e, "DepthLimitExceeded(128) (offset Some(1))");
    let shallow = surp::Options::new().max_depth(1);
    let e =
        same_as_reader_with::<KeysAs<Option<Option<String>>>>(shallow.clone(), &bytes).unwrap_err();
    assert_eq!(e, "DepthLimitExceeded(1) (offset Some(1))");
    assert_eq!(
        same_as_reader_with::<KeysAs<Option<String>>>(shallow, &bytes),
        Ok(KeysAs(vec![Some("id".into())]))
    );
}

#[test]
fn struct_variants_in_any_order_decode_as_from_a_reader() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Event {
        Move { x: i32, y: i32, label: String },
    }
    let value = Event::Move {
        x: 1,
        y: -2,
        label: "go".into(),
    };
    assert_eq!(both::<Event>(&surp::to_vec(&value).unwrap()), value);

    use surp::Value;
    let content = Value::from(vec![
        (Value::from("label"), Value::from("go")),
        (Value::from("extra"), Value::from(true)),
        (Value::from("y"), Value::from(-2)),
        (Value::from("x"), Value::from(1)),
    ]);
    let bytes = map_bytes(&[("Move", content)]);
    assert_eq!(both::<Event>(&bytes), value);
}

/// The size hints a struct's visitor and a sequence inside it see.
#[derive(Debug, PartialEq)]
struct Hints {
    of_struct: Option<usize>,
    of_items: Option<usize>,
}

impl<'de> Deserialize<'de> for Hints {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ItemsHint;
        impl<'de> de::Visitor<'de> for ItemsHint {
            type Value = Option<usize>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let hint = seq.size_hint();
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(hint)
            }
        }
        struct ItemsSeed;
        impl<'de> de::DeserializeSeed<'de> for ItemsSeed {
            type Value = Option<usize>;
            fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                d.deserialize_seq(ItemsHint)
            }
        }
        struct StructHints;
        impl<'de> de::Visitor<'de> for StructHints {
            type Value = Hints;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("struct Hints")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Hints, A::Error> {
                let of_struct = map.size_hint();
                let mut of_items = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "items" => of_items = map.next_value_seed(ItemsSeed)?,
                        _ => map.next_value::<de::IgnoredAny>().map(drop)?,
                    }
                }
                Ok(Hints {
                    of_struct,
                    of_items,
                })
            }
        }
        deserializer.deserialize_struct("Hints", &["id", "items"], StructHints)
    }
}

#[test]
fn a_struct_gives_no_size_hint_and_its_collections_keep_theirs() {
    // A struct's visitor fills fields, so its map gives no hint (it gave
    // `Some(2)` before); the sequence inside still gets one for all its
    // items.
    let bytes = map_bytes(&[
        ("id", surp::Value::from(1u8)),
        ("items", surp::Value::Array(vec![surp::Value::from(0u8); 5])),
    ]);
    let expected = Hints {
        of_struct: None,
        of_items: Some(5),
    };
    assert_eq!(surp::from_slice::<Hints>(&bytes).unwrap(), expected);
    // A reader knows no input size to bound hints by, so it gives none.
    let from_reader = surp::from_reader::<_, Hints>(&bytes[..]).unwrap();
    let none = Hints {
        of_struct: None,
        of_items: None,
    };
    assert_eq!(from_reader, none);
}

/// Field names of every length from 0 to 18 bytes, more fields than the
/// decoder compares as one number (the first sixteen, of up to fifteen
/// bytes), so that each way a key is matched is taken.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Wide {
    #[serde(rename = "")]
    f0: u8,
    #[serde(rename = "a")]
    f1: u8,
    #[serde(rename = "ab")]
    f2: u8,
    #[serde(rename = "abc")]
    f3: u8,
    #[serde(rename = "abcd")]
    f4: u8,
    #[serde(rename = "abcde")]
    f5: u8,
    #[serde(rename = "abcdef")]
    f6: u8,
    #[serde(rename = "abcdefg")]
    f7: u8,
    #[serde(rename = "abcdefgh")]
    f8: u8,
    #[serde(rename = "abcdefghi")]
    f9: u8,
    #[serde(rename = "abcdefghij")]
    f10: u8,
    #[serde(rename = "abcdefghijk")]
    f11: u8,
    #[serde(rename = "abcdefghijkl")]
    f12: u8,
    #[serde(rename = "abcdefghijklm")]
    f13: u8,
    #[serde(rename = "abcdefghijklmn")]
    f14: u8,
    #[serde(rename = "abcdefghijklmno")]
    f15: u8,
    #[serde(rename = "abcdefghijklmnop")]
    f16: u8,
    #[serde(rename = "abcdefghijklmnopq")]
    f17: u8,
    #[serde(rename = "abcdefghijklmnopqr")]
    f18: u8,
}

fn wide() -> Wide {
    Wide {
        f0: 0,
        f1: 1,
        f2: 2,
        f3: 3,
        f4: 4,
        f5: 5,
        f6: 6,
        f7: 7,
        f8: 8,
        f9: 9,
        f10: 10,
        f11: 11,
        f12: 12,
        f13: 13,
        f14: 14,
        f15: 15,
        f16: 16,
        f17: 17,
        f18: 18,
    }
}

#[test]
fn names_of_every_length_decode_and_every_flipped_bit_decodes_as_from_a_reader() {
    let bytes = surp::to_vec(&wide()).unwrap();
    assert_eq!(both::<Wide>(&bytes), wide());
    // A flipped bit in a key's text makes another name, and one in its
    // tag's length bits another length; whatever that makes (another
    // field, an unknown one, an error), the slice must see what the reader
    // sees. The last keys are within sixteen bytes of the end, where the
    // decoder cannot compare whole numbers and falls back. (The map's
    // header, 2 bytes, and the values are left alone: a length that claims
    // more than the input is refused earlier from a slice.)
    let mut at = 2;
    let mut flips = 0;
    for len in 0..19 {
        assert_eq!(bytes[at], 0x80 | len as u8, "the key of {len} bytes");
        let bits = std::iter::once(0..5).chain(std::iter::repeat(0..8));
        for (pos, bits) in (at..at + 1 + len).zip(bits) {
            for bit in bits {
                let mut flipped = bytes.clone();
                flipped[pos] ^= 1 << bit;
                let _ = same_as_reader::<Wide>(&flipped);
                flips += 1;
            }
        }
        at += 1 + len + 1;
    }
    assert_eq!(at, bytes.len());
    assert_eq!(flips, 19 * 5 + (0..19).sum::<usize>() * 8);
    for end in 0..bytes.len() {
        assert!(same_as_reader::<Wide>(&bytes[..end]).is_err(), "{end}");
    }
}
