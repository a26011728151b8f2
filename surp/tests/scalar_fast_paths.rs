//! Scalars with fast paths. From a slice, a binary32 or binary64 value read
//! as `f32` or `f64`, and an unsigned integer read as an array's item,
//! whose bytes are all in the buffer take a short fast path (and an
//! unsigned integer read by `deserialize_any` takes one from any input);
//! everything
//! else (binary16, the other width, a negative or wide integer, the end of
//! the input, another tag) takes the general one, and a reader always
//! does. These tests check that both give the same values, bit for bit,
//! and the same errors at the same offsets.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Deserialize as DeriveDeserialize, Serialize};

/// Decodes `bytes` as a `T` from a slice and from a reader: the values, or
/// the errors' kinds and offsets, must be the same.
fn same_as_reader<T>(bytes: &[u8]) -> Result<T, String>
where
    T: for<'de> Deserialize<'de> + fmt::Debug,
{
    let show = |e: surp::Error| format!("{:?} (offset {:?})", e.kind(), e.offset());
    let slice = surp::from_slice::<T>(bytes).map_err(show);
    let reader = surp::from_reader::<_, T>(bytes).map_err(show);
    assert_eq!(format!("{slice:?}"), format!("{reader:?}"));
    slice
}

#[derive(Debug, Serialize, DeriveDeserialize)]
struct Shape {
    points: Vec<[f32; 3]>,
    weights: Vec<f64>,
    scale: f32,
}

/// Floats of every width the encoder picks: exact in binary16, exact in
/// binary32, only in binary64, and NaNs with payloads.
fn shape() -> Shape {
    Shape {
        points: vec![
            [0.5, -2.0, 65504.0],
            [0.1, 1.0e-40, f32::from_bits(0x7fc0_0001)],
            [f32::MAX, -0.0, f32::NEG_INFINITY],
        ],
        weights: vec![
            0.25,
            0.1,
            f64::from(0.1f32),
            1e300,
            -0.0,
            f64::from_bits(0x7ff8_0000_0000_0001),
            f64::from_bits(0x7ff0_0000_2000_0000),
        ],
        scale: 3.25,
    }
}

fn bits(s: &Shape) -> (Vec<u32>, Vec<u64>, u32) {
    (
        s.points.iter().flatten().map(|f| f.to_bits()).collect(),
        s.weights.iter().map(|f| f.to_bits()).collect(),
        s.scale.to_bits(),
    )
}

#[test]
fn floats_of_every_width_decode_bit_for_bit() {
    let value = shape();
    let bytes = surp::to_vec(&value).unwrap();
    let decoded: Shape = same_as_reader(&bytes).unwrap();
    assert_eq!(bits(&decoded), bits(&value));
    // The document holds every float form, so both paths were taken.
    for tag in [0xec, 0xed, 0xee] {
        assert!(bytes.contains(&tag), "no tag {tag:#x} in {bytes:02x?}");
    }
}

/// Every prefix of `bytes` (a whole `T`) fails to decode, as from a reader.
fn every_truncation_fails_as_from_a_reader<T>(bytes: &[u8])
where
    T: for<'de> Deserialize<'de> + fmt::Debug,
{
    for end in 0..bytes.len() {
        let e = same_as_reader::<T>(&bytes[..end]).unwrap_err();
        assert!(
            e.starts_with("UnexpectedEof") || e.starts_with("LengthExceedsInput"),
            "{end}: {e}"
        );
    }
}

#[test]
fn every_truncation_is_the_same_error_as_from_a_reader() {
    every_truncation_fails_as_from_a_reader::<Shape>(&surp::to_vec(&shape()).unwrap());
}

#[test]
fn a_float_as_the_last_bytes_of_the_input_takes_them_exactly() {
    for v in [1.5f32, 0.1, f32::from_bits(0x7f80_0001)] {
        let bytes = surp::to_vec(&v).unwrap();
        let back: f32 = same_as_reader(&bytes).unwrap();
        assert_eq!(back.to_bits(), v.to_bits());
    }
    for v in [1.5f64, 0.1, 1e300, f64::from_bits(0x7ff0_0000_0000_0001)] {
        let bytes = surp::to_vec(&v).unwrap();
        let back: f64 = same_as_reader(&bytes).unwrap();
        assert_eq!(back.to_bits(), v.to_bits());
    }
}

#[test]
fn other_tags_read_as_floats_decode_as_from_a_reader() {
    // serde's `f32` takes integers and `f64`s too, as its visitor converts
    // them; a string is an error at its tag.
    let int: [f32; 1] = same_as_reader(&surp::to_vec(&(7u8,)).unwrap()).unwrap();
    assert_eq!(int, [7.0]);
    let wide: [f32; 1] = same_as_reader(&surp::to_vec(&(0.1f64,)).unwrap()).unwrap();
    assert_eq!(wide, [0.1f64 as f32]);
    let e = same_as_reader::<[f32; 1]>(&surp::to_vec(&("x",)).unwrap()).unwrap_err();
    assert!(e.contains("invalid type: string"), "{e}");
    assert!(e.ends_with("(offset Some(1))"), "{e}");
    let e = same_as_reader::<[f64; 1]>(&surp::to_vec(&("x",)).unwrap()).unwrap_err();
    assert!(e.ends_with("(offset Some(1))"), "{e}");
}

/// A float that must be positive: its visitor refuses others.
#[derive(Debug)]
struct Positive<T>(T);

macro_rules! positive {
    ($t:ty, $method:ident, $visit:ident) => {
        impl<'de> Deserialize<'de> for Positive<$t> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = Positive<$t>;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a positive float")
                    }
                    fn $visit<E: de::Error>(self, v: $t) -> Result<Self::Value, E> {
                        if v > 0.0 {
                            Ok(Positive(v))
                        } else {
                            Err(E::custom(format_args!("{v} is not positive")))
                        }
                    }
                }
                d.$method(V)
            }
        }
    };
}
positive!(f32, deserialize_f32, visit_f32);
positive!(f64, deserialize_f64, visit_f64);

#[test]
fn a_visitor_error_is_placed_at_the_value_as_from_a_reader() {
    // The third value is refused, in each form the encoder picks.
    let bytes = surp::to_vec(&[1.5f32, 0.1, -0.1]).unwrap();
    let e = same_as_reader::<Vec<Positive<f32>>>(&bytes).unwrap_err();
    assert!(e.contains("is not positive"), "{e}");
    assert!(e.ends_with("(offset Some(9))"), "{e}");
    let bytes = surp::to_vec(&[0.1f64, 1.5, -1.5]).unwrap();
    let e = same_as_reader::<Vec<Positive<f64>>>(&bytes).unwrap_err();
    assert!(e.ends_with("(offset Some(13))"), "{e}");
    let bytes = surp::to_vec(&[1.5f64, -0.1]).unwrap();
    let e = same_as_reader::<Vec<Positive<f64>>>(&bytes).unwrap_err();
    assert!(e.ends_with("(offset Some(4))"), "{e}");
}

/// Unsigned integers in tuples (which take the items' fast path), of every
/// width the encoder picks, and the same values in a `Vec` and as a struct
/// field (which do not).
#[derive(Debug, PartialEq, Serialize, DeriveDeserialize)]
struct Ints {
    faces: Vec<[u32; 3]>,
    pairs: Vec<(u64, u64)>,
    wide: Vec<u64>,
    small: [u8; 4],
    mid: [u16; 4],
    last: u64,
}

fn ints() -> Ints {
    let mut wide = vec![0, 1, 127, 128, 255, 256, 65_535, 65_536, u64::MAX];
    wide.extend((0..64).map(|shift| 1u64 << shift));
    wide.extend((1..64).map(|shift| (1u64 << shift) - 1));
    Ints {
        faces: vec![[0, 1, 2], [127, 128, 70_000], [u32::MAX, 300, 5]],
        pairs: wide.iter().map(|&w| (w, w / 3)).collect(),
        wide,
        small: [0, 127, 128, 255],
        mid: [0, 255, 256, u16::MAX],
        last: u64::MAX,
    }
}

#[test]
fn unsigned_items_of_every_width_decode_as_from_a_reader() {
    let value = ints();
    let bytes = surp::to_vec(&value).unwrap();
    assert_eq!(same_as_reader::<Ints>(&bytes).unwrap(), value);
}

#[test]
fn every_truncation_of_unsigned_items_is_the_same_error_as_from_a_reader() {
    every_truncation_fails_as_from_a_reader::<Ints>(&surp::to_vec(&ints()).unwrap());
}

#[test]
fn an_unsigned_item_out_of_range_is_the_same_error_as_from_a_reader() {
    // Each document's second item is refused, at its tag (offset 2): a
    // value the visitor finds too large, a negative integer (which takes
    // the general path), a string and a float.
    let refused = |bytes: Vec<u8>, message: &str, as_u32: bool| {
        let e = if as_u32 {
            same_as_reader::<[u32; 2]>(&bytes).unwrap_err()
        } else {
            same_as_reader::<(u8, u8)>(&bytes).unwrap_err()
        };
        assert!(e.contains(message), "{e}");
        assert!(e.ends_with("(offset Some(2))"), "{e}");
    };
    for as_u32 in [false, true] {
        refused(surp::to_vec(&[1i64, -1]).unwrap(), "integer `-1`", as_u32);
        refused(
            surp::to_vec(&[1i64, -300]).unwrap(),
            "integer `-300`",
            as_u32,
        );
        refused(
            surp::to_vec(&(1u8, "x")).unwrap(),
            "invalid type: string",
            as_u32,
        );
        refused(
            surp::to_vec(&(1u8, 0.5)).unwrap(),
            "invalid type: floating",
            as_u32,
        );
    }
    refused(surp::to_vec(&[1u16, 256]).unwrap(), "integer `256`", false);
    refused(
        surp::to_vec(&[7u64, 1 << 40]).unwrap(),
        "integer `1099511627776`",
        true,
    );
}

/// `deserialize_any` (every dynamic value: `surp::Value`, `serde_json::Value`)
/// takes unsigned integers without the general dispatcher. Every width,
/// in arrays, as map values and as the root, must decode as from a reader
/// and as the general path's types read them.
#[test]
fn unsigned_integers_read_as_any_value_decode_as_from_a_reader() {
    let wide = ints().wide;
    let doc = (
        wide.clone(),
        std::collections::BTreeMap::from([("a", u64::MAX), ("b", 0), ("c", 300)]),
    );
    let bytes = surp::to_vec(&doc).unwrap();
    let value: surp::Value = same_as_reader(&bytes).unwrap();
    let json: serde_json::Value = same_as_reader(&bytes).unwrap();
    assert_eq!(json, serde_json::json!(doc));
    assert_eq!(value, surp::to_value(&doc).unwrap());
    for &w in &wide {
        let root: serde_json::Value = same_as_reader(&surp::to_vec(&w).unwrap()).unwrap();
        assert_eq!(root, serde_json::json!(w));
    }
    every_truncation_fails_as_from_a_reader::<surp::Value>(&bytes);
    every_truncation_fails_as_from_a_reader::<serde_json::Value>(&bytes);
}

/// An unsigned integer that must be even, read through `deserialize_any`.
#[derive(Debug)]
struct Even(u64);

impl<'de> Deserialize<'de> for Even {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Even;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an even integer")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Even, E> {
                if v.is_multiple_of(2) {
                    Ok(Even(v))
                } else {
                    Err(E::custom(format_args!("{v} is odd")))
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[test]
fn a_visitor_error_on_an_any_unsigned_integer_is_placed_at_its_tag() {
    let even: Vec<Even> = same_as_reader(&surp::to_vec(&[2u64, 300, 70_000]).unwrap()).unwrap();
    assert_eq!(
        even.iter().map(|e| e.0).collect::<Vec<_>>(),
        [2, 300, 70_000]
    );
    // [2, 300, 7]: the third item's tag is at offset 5 (1 + 1 + 3).
    let bytes = surp::to_vec(&[2u64, 300, 7]).unwrap();
    let e = same_as_reader::<Vec<Even>>(&bytes).unwrap_err();
    assert!(e.contains("7 is odd"), "{e}");
    assert!(e.ends_with("(offset Some(5))"), "{e}");
    // [4, 70001]: a four-byte integer at offset 2.
    let bytes = surp::to_vec(&[4u64, 70_001]).unwrap();
    let e = same_as_reader::<Vec<Even>>(&bytes).unwrap_err();
    assert!(e.contains("70001 is odd"), "{e}");
    assert!(e.ends_with("(offset Some(2))"), "{e}");
    // A negative integer and a string take the general path; `Even` has no
    // visitor for them.
    let e = same_as_reader::<Vec<Even>>(&surp::to_vec(&[2i64, -2]).unwrap()).unwrap_err();
    assert!(e.ends_with("(offset Some(2))"), "{e}");
}
