//! Property tests: every part of the serde data model, and any dynamic
//! `Value`, comes back from Surp exactly as it went in, through every decoder
//! entry point, and encodes to the same bytes every time.

mod common;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Debug;

use proptest::prelude::*;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use surp::Value;

use common::same_bits;

/// Encodes `value` through every output sink and checks they agree.
fn encode<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let bytes = surp::to_vec(value).expect("encode");
    let mut written = Vec::new();
    surp::to_writer(&mut written, value).expect("encode to a writer");
    assert_eq!(written, bytes, "to_writer and to_vec disagree");
    let mut buf = bytes::BytesMut::new();
    surp::to_buf_mut(&mut buf, value).expect("encode to a BufMut");
    assert_eq!(&buf[..], &bytes[..], "to_buf_mut and to_vec disagree");
    bytes
}

/// Round-trips `value` through `from_slice` and `from_reader`, checks the
/// encoding is deterministic and that the bytes also skip as one value.
/// (Re-encoding the decoded value is not compared: a `HashMap` may iterate
/// in another order.)
fn round_trip<T>(value: &T) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let bytes = encode(value);
    prop_assert!(encode(value) == bytes, "encoding is not deterministic");
    let back: T = surp::from_slice(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, value);
    let back: T = surp::from_reader(&bytes[..]).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, value);
    surp::from_slice::<IgnoredAny>(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_value_round_trips_bit_for_bit(value in common::value()) {
        let bytes = encode(&value);
        prop_assert!(encode(&value.clone()) == bytes, "equal values gave different bytes");
        let back: Value = surp::from_slice(&bytes).unwrap();
        prop_assert!(same_bits(&value, &back), "from_slice gave {back}");
        let from_reader: Value = surp::from_reader(&bytes[..]).unwrap();
        prop_assert!(same_bits(&value, &from_reader), "from_reader gave {from_reader}");
        // Canonical: the decoded value encodes to the very same bytes.
        prop_assert!(encode(&back) == bytes, "re-encoding the decoded value differs");
        surp::from_slice::<IgnoredAny>(&bytes).unwrap();
        surp::from_reader::<_, IgnoredAny>(&bytes[..]).unwrap();
    }

    #[test]
    fn integers_round_trip_across_the_whole_128_bit_range(i in common::integer()) {
        let bytes = encode(&Value::Integer(i));
        let back: Value = surp::from_slice(&bytes).unwrap();
        prop_assert_eq!(back.as_integer(), Some(i));
        if let Ok(v) = i128::try_from(i) {
            prop_assert_eq!(surp::from_slice::<i128>(&bytes).unwrap(), v);
            prop_assert_eq!(&surp::to_vec(&v).unwrap(), &bytes);
        }
        if let Ok(v) = u128::try_from(i) {
            prop_assert_eq!(surp::from_slice::<u128>(&bytes).unwrap(), v);
            prop_assert_eq!(&surp::to_vec(&v).unwrap(), &bytes);
        }
        if let Ok(v) = i64::try_from(i) {
            prop_assert_eq!(surp::from_slice::<i64>(&bytes).unwrap(), v);
        } else {
            prop_assert!(surp::from_slice::<i64>(&bytes).is_err());
        }
    }

    #[test]
    fn f64_round_trips_bit_for_bit_into_rust_floats(f in common::float()) {
        let bytes = encode(&f);
        let back: f64 = surp::from_slice(&bytes).unwrap();
        prop_assert_eq!(back.to_bits(), f.to_bits(), "{:02x?}", bytes);
        let back: f64 = surp::from_reader(&bytes[..]).unwrap();
        prop_assert_eq!(back.to_bits(), f.to_bits());
        let back: Value = surp::from_slice(&bytes).unwrap();
        prop_assert_eq!(back.as_f64().map(f64::to_bits), Some(f.to_bits()));
    }

    #[test]
    fn f32_round_trips_bit_for_bit_and_stays_narrow(bits in any::<u32>()) {
        let f = f32::from_bits(bits);
        let bytes = encode(&f);
        prop_assert!(bytes.len() <= 5, "an f32 was widened: {:02x?}", bytes);
        let back: f32 = surp::from_slice(&bytes).unwrap();
        prop_assert_eq!(back.to_bits(), bits);
        let back: f32 = surp::from_reader(&bytes[..]).unwrap();
        prop_assert_eq!(back.to_bits(), bits);
    }
}

#[test]
fn signalling_nans_that_narrow_keep_their_bits_in_an_f64() {
    // Regression: binary32 and binary16 forms reached an `f64` through
    // serde's `visit_f32`, whose `as` cast sets the quiet bit on x86-64.
    for (bits, encoded_len) in [
        (0x7ff0_0000_2000_0000_u64, 5), // binary32 0x7f800001
        (0xfff0_0000_2000_0000, 5),
        (0x7ff0_0400_0000_0000, 3), // binary16 0x7c01
        (0x7ff4_0000_0000_0000, 3),
    ] {
        let f = f64::from_bits(bits);
        let bytes = surp::to_vec(&f).unwrap();
        assert_eq!(bytes.len(), encoded_len, "{bits:#x}");
        assert_eq!(surp::from_slice::<f64>(&bytes).unwrap().to_bits(), bits);
        assert_eq!(
            surp::from_reader::<_, f64>(&bytes[..]).unwrap().to_bits(),
            bits
        );
        let wrapped: Vec<F64Bits> = surp::from_slice(&surp::to_vec(&[f]).unwrap()).unwrap();
        assert_eq!(wrapped[0].0.to_bits(), bits);
    }
}

/// An `f32` compared by bits. Newtype structs are transparent on the wire, so
/// this encodes exactly as a bare `f32`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
struct F32Bits(f32);

impl PartialEq for F32Bits {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

/// An `f64` compared by bits.
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
struct F64Bits(f64);

impl PartialEq for F64Bits {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Scalars {
    t: bool,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    u128: u128,
    usize: usize,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    i128: i128,
    isize: isize,
    f32: F32Bits,
    f64: F64Bits,
    c: char,
    s: String,
}

/// A value of type `T` from the boundary integers that fit it, or any `T`.
fn int<T>() -> BoxedStrategy<T>
where
    T: TryFrom<surp::Integer> + Arbitrary + Clone + Debug + 'static,
{
    let edges: Vec<T> = common::boundary_integers()
        .into_iter()
        .filter_map(|i| T::try_from(i).ok())
        .collect();
    prop_oneof![proptest::sample::select(edges), any::<T>()].boxed()
}

fn scalars() -> impl Strategy<Value = Scalars> {
    (
        (
            any::<bool>(),
            int::<u8>(),
            int::<u16>(),
            int::<u32>(),
            int::<u64>(),
            int::<u128>(),
            int::<usize>(),
        ),
        (
            int::<i8>(),
            int::<i16>(),
            int::<i32>(),
            int::<i64>(),
            int::<i128>(),
            int::<isize>(),
        ),
        (
            any::<u32>(),
            common::float(),
            any::<char>(),
            common::string(),
        ),
    )
        .prop_map(
            |(
                (t, u8, u16, u32, u64, u128, usize),
                (i8, i16, i32, i64, i128, isize),
                (f, d, c, s),
            )| {
                Scalars {
                    t,
                    u8,
                    u16,
                    u32,
                    u64,
                    u128,
                    usize,
                    i8,
                    i16,
                    i32,
                    i64,
                    i128,
                    isize,
                    f32: F32Bits(f32::from_bits(f)),
                    f64: F64Bits(d),
                    c,
                    s,
                }
            },
        )
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct UnitStruct;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Newtype(u32);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct TupleStruct(i16, String, Option<u8>);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Shapes {
    unit: (),
    unit_struct: UnitStruct,
    newtype: Newtype,
    tuple: (u8, String, bool),
    tuple_struct: TupleStruct,
    opt3: Option<Option<Option<u8>>>,
    opt_unit: Option<()>,
    opt_opt_unit: Option<Option<()>>,
    opt_unit_struct: Option<UnitStruct>,
    opt_newtype_unit: Option<Option<UnitStruct>>,
    #[serde(with = "serde_bytes")]
    bytes: Vec<u8>,
    /// Without `serde_bytes`: an array of integers.
    byte_array: Vec<u8>,
    opt_bytes: Option<ByteBuf>,
}

fn opt3() -> impl Strategy<Value = Option<Option<Option<u8>>>> {
    prop_oneof![
        Just(None),
        Just(Some(None)),
        Just(Some(Some(None))),
        any::<u8>().prop_map(|x| Some(Some(Some(x)))),
    ]
}

fn shapes() -> impl Strategy<Value = Shapes> {
    (
        (
            any::<u32>(),
            (any::<u8>(), common::string(), any::<bool>()),
            (any::<i16>(), common::string(), any::<Option<u8>>()),
        ),
        (
            opt3(),
            any::<Option<()>>(),
            prop_oneof![Just(None), Just(Some(None)), Just(Some(Some(())))],
            any::<bool>(),
            prop_oneof![Just(None), Just(Some(None)), Just(Some(Some(UnitStruct)))],
        ),
        (
            common::bytes(),
            common::bytes(),
            proptest::option::of(common::bytes().prop_map(ByteBuf::from)),
        ),
    )
        .prop_map(
            |(
                (n, tuple, (a, b, c)),
                (opt3, opt_unit, opt_opt_unit, has_unit_struct, opt_newtype_unit),
                (bytes, byte_array, opt_bytes),
            )| Shapes {
                unit: (),
                unit_struct: UnitStruct,
                newtype: Newtype(n),
                tuple,
                tuple_struct: TupleStruct(a, b, c),
                opt3,
                opt_unit,
                opt_opt_unit,
                opt_unit_struct: has_unit_struct.then_some(UnitStruct),
                opt_newtype_unit,
                bytes,
                byte_array,
                opt_bytes,
            },
        )
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum External {
    Unit,
    Newtype(i64),
    NewtypeOfUnit(()),
    NewtypeOfOption(Option<Option<u8>>),
    Tuple(u8, String),
    Struct { id: u128, name: Option<String> },
}

fn external() -> impl Strategy<Value = External> {
    prop_oneof![
        Just(External::Unit),
        int::<i64>().prop_map(External::Newtype),
        Just(External::NewtypeOfUnit(())),
        any::<Option<Option<u8>>>().prop_map(External::NewtypeOfOption),
        (any::<u8>(), common::string()).prop_map(|(a, b)| External::Tuple(a, b)),
        (int::<u128>(), proptest::option::of(common::string()))
            .prop_map(|(id, name)| External::Struct { id, name }),
    ]
}

/// Untagged variants are told apart by the wire type alone. serde buffers
/// them in its `Content`, which has no 128-bit integers, so none here.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Nothing,
    Flag(bool),
    Int(i64),
    Real(f64),
    Text(String),
    Pair(u8, String),
    Record { x: u32, tags: Vec<String> },
}

fn untagged() -> impl Strategy<Value = Untagged> {
    prop_oneof![
        Just(Untagged::Nothing),
        any::<bool>().prop_map(Untagged::Flag),
        int::<i64>().prop_map(Untagged::Int),
        // Floats keep their wire type, so even integral ones stay `Real`.
        // NaN is left out only because it is not equal to itself.
        common::float()
            .prop_filter("NaN is unequal to itself", |f| !f.is_nan())
            .prop_map(Untagged::Real),
        common::string().prop_map(Untagged::Text),
        (any::<u8>(), common::string()).prop_map(|(a, b)| Untagged::Pair(a, b)),
        (any::<u32>(), prop::collection::vec(common::string(), 0..4))
            .prop_map(|(x, tags)| Untagged::Record { x, tags }),
    ]
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Inner {
    id: u64,
    label: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type")]
enum Internal {
    Ping,
    Move { x: i32, y: i32 },
    Wrapped(Inner),
    Labels { names: BTreeMap<String, u8> },
}

fn internal() -> impl Strategy<Value = Internal> {
    prop_oneof![
        Just(Internal::Ping),
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| Internal::Move { x, y }),
        (any::<u64>(), common::string())
            .prop_map(|(id, label)| Internal::Wrapped(Inner { id, label })),
        prop::collection::btree_map(common::string(), any::<u8>(), 0..5)
            .prop_map(|names| Internal::Labels { names }),
    ]
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Flattened {
    serial: u32,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    rest: BTreeMap<String, i32>,
}

fn flattened() -> impl Strategy<Value = Flattened> {
    (
        any::<u32>(),
        any::<u64>(),
        common::string(),
        // Prefixed so they never collide with the named fields.
        prop::collection::btree_map("x_[a-z0-9]{0,8}", any::<i32>(), 0..20),
    )
        .prop_map(|(serial, id, label, rest)| Flattened {
            serial,
            inner: Inner { id, label },
            rest,
        })
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Enums {
    external: Vec<External>,
    untagged: Vec<Untagged>,
    internal: Vec<Internal>,
    flattened: Flattened,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Collections {
    by_u32: BTreeMap<u32, String>,
    by_i64: HashMap<i64, Vec<u8>>,
    by_u128: BTreeMap<u128, Option<()>>,
    by_tuple: BTreeMap<(u8, i8), bool>,
    by_string: BTreeMap<String, Vec<i16>>,
    set: BTreeSet<i8>,
    nested: Vec<Vec<String>>,
    records: Vec<Inner>,
}

fn collections() -> impl Strategy<Value = Collections> {
    use prop::collection::{btree_map, btree_set, hash_map, vec};
    (
        btree_map(int::<u32>(), common::string(), 0..20),
        hash_map(int::<i64>(), common::bytes(), 0..6),
        btree_map(int::<u128>(), any::<Option<()>>(), 0..6),
        btree_map((any::<u8>(), any::<i8>()), any::<bool>(), 0..6),
        btree_map(common::string(), vec(any::<i16>(), 0..20), 0..6),
        btree_set(any::<i8>(), 0..40),
        vec(vec(common::string(), 0..4), 0..4),
        vec(
            (any::<u64>(), common::string()).prop_map(|(id, label)| Inner { id, label }),
            0..18,
        ),
    )
        .prop_map(
            |(by_u32, by_i64, by_u128, by_tuple, by_string, set, nested, records)| Collections {
                by_u32,
                by_i64,
                by_u128,
                by_tuple,
                by_string,
                set,
                nested,
                records,
            },
        )
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Sparse {
    always: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    maybe: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    list: Vec<u32>,
    #[serde(skip)]
    never: u8,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn scalars_round_trip(v in scalars()) {
        round_trip(&v)?;
    }

    #[test]
    fn units_newtypes_tuples_options_and_bytes_round_trip(v in shapes()) {
        round_trip(&v)?;
        // `serde_bytes` is a byte string; a bare `Vec<u8>` is an array.
        let value: Value = surp::from_slice(&surp::to_vec(&v).unwrap()).unwrap();
        prop_assert!(matches!(value["bytes"], Value::Bytes(_)));
        prop_assert!(matches!(value["byte_array"], Value::Array(_)));
    }

    #[test]
    fn all_enum_shapes_untagged_internally_tagged_and_flatten_round_trip(
        external in prop::collection::vec(external(), 0..6),
        untagged in prop::collection::vec(untagged(), 0..6),
        internal in prop::collection::vec(internal(), 0..6),
        flattened in flattened(),
    ) {
        round_trip(&Enums { external, untagged, internal, flattened })?;
    }

    #[test]
    fn maps_with_integer_and_composite_keys_and_vecs_round_trip(v in collections()) {
        round_trip(&v)?;
    }

    #[test]
    fn skipped_fields_are_not_written_and_default_on_decode(
        always in any::<u8>(),
        maybe in proptest::option::of(common::string()),
        list in prop::collection::vec(any::<u32>(), 0..20),
    ) {
        let v = Sparse { always, maybe, list, never: 0 };
        round_trip(&v)?;
        let expected_fields = 1 + usize::from(v.maybe.is_some()) + usize::from(!v.list.is_empty());
        let value: Value = surp::from_slice(&surp::to_vec(&v).unwrap()).unwrap();
        prop_assert_eq!(value.as_map().map(Vec::len), Some(expected_fields));
    }
}

#[test]
fn nested_options_keep_every_level_with_the_fewest_bytes() {
    type O3 = Option<Option<Option<u8>>>;
    let cases: [(O3, &[u8]); 5] = [
        (None, &[0xe8]),
        (Some(None), &[0xeb, 0xe8]),
        (Some(Some(None)), &[0xeb, 0xeb, 0xe8]),
        (Some(Some(Some(0))), &[0x00]),
        (Some(Some(Some(200))), &[0xd8, 200]),
    ];
    for (value, bytes) in cases {
        assert_eq!(surp::to_vec(&value).unwrap(), bytes, "{value:?}");
        assert_eq!(surp::from_slice::<O3>(bytes).unwrap(), value);
        assert_eq!(surp::from_reader::<_, O3>(bytes).unwrap(), value);
    }
    assert_eq!(surp::to_vec(&Some(())).unwrap(), [0xeb, 0xe8]);
    assert_eq!(
        surp::from_slice::<Option<()>>(&[0xeb, 0xe8]).unwrap(),
        Some(())
    );
    assert_eq!(surp::from_slice::<Option<()>>(&[0xe8]).unwrap(), None);
    let some_none: Option<Option<()>> = Some(None);
    assert_eq!(surp::to_vec(&some_none).unwrap(), [0xeb, 0xe8]);
    assert_eq!(
        surp::from_slice::<Option<Option<()>>>(&[0xeb, 0xeb, 0xe8]).unwrap(),
        Some(Some(()))
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Borrowed<'a> {
    s: &'a str,
    #[serde(with = "serde_bytes")]
    b: &'a [u8],
    #[serde(borrow)]
    c: Cow<'a, str>,
    #[serde(borrow, with = "serde_bytes")]
    cb: Cow<'a, [u8]>,
    #[serde(borrow)]
    keys: BTreeMap<&'a str, &'a str>,
    #[serde(borrow)]
    list: Vec<&'a str>,
    #[serde(borrow)]
    variant: BorrowedEnum<'a>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum BorrowedEnum<'a> {
    Name(&'a str),
    Blob(#[serde(with = "serde_bytes")] &'a [u8]),
}

/// Does `part` lie inside `whole`?
fn inside(whole: &[u8], part: &[u8]) -> bool {
    let range = whole.as_ptr_range();
    let p = part.as_ptr_range();
    range.start <= p.start && p.end <= range.end
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn borrowed_str_bytes_and_cow_point_into_the_input(
        s in common::string(),
        b in common::bytes(),
        c in common::string(),
        cb in common::bytes(),
        keys in prop::collection::btree_map(common::string(), common::string(), 0..5),
        list in prop::collection::vec(common::string(), 0..5),
        blob in any::<bool>(),
    ) {
        let variant = if blob { BorrowedEnum::Blob(b.as_slice()) } else { BorrowedEnum::Name(&s) };
        let original = Borrowed {
            s: &s,
            b: &b,
            c: Cow::Owned(c.clone()),
            cb: Cow::Owned(cb.clone()),
            keys: keys.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
            list: list.iter().map(String::as_str).collect(),
            variant,
        };
        let input = surp::to_vec(&original).unwrap();
        let back: Borrowed = surp::from_slice(&input).unwrap();
        prop_assert_eq!(&back, &original);
        prop_assert!(inside(&input, back.s.as_bytes()));
        prop_assert!(inside(&input, back.b));
        prop_assert!(matches!(back.c, Cow::Borrowed(_)), "Cow<str> was copied");
        prop_assert!(inside(&input, back.c.as_bytes()));
        prop_assert!(matches!(back.cb, Cow::Borrowed(_)), "Cow<[u8]> was copied");
        prop_assert!(inside(&input, &back.cb[..]));
        for (k, v) in &back.keys {
            prop_assert!(inside(&input, k.as_bytes()) && inside(&input, v.as_bytes()));
        }
        for item in &back.list {
            prop_assert!(inside(&input, item.as_bytes()));
        }
        match back.variant {
            BorrowedEnum::Name(n) => prop_assert!(inside(&input, n.as_bytes())),
            BorrowedEnum::Blob(b) => prop_assert!(inside(&input, b)),
        }
    }
}

#[test]
fn a_reader_cannot_lend_a_str_and_says_so() {
    use serde::Deserialize as _;
    let input = surp::to_vec("abc").unwrap();
    let mut de = surp::Deserializer::from_reader(&input[..]);
    let err = <&str>::deserialize(&mut de).unwrap_err();
    assert!(
        err.to_string().contains("borrowed string"),
        "unexpected message: {err}"
    );
    assert_eq!(err.offset(), Some(0));
}

fn json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value as J;
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        any::<i64>().prop_map(J::from),
        any::<u64>().prop_map(J::from),
        common::float()
            .prop_filter_map("JSON numbers are finite", serde_json::Number::from_f64)
            .prop_map(J::Number),
        common::string().prop_map(J::String),
    ];
    leaf.prop_recursive(4, 64, 12, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(J::Array),
            prop::collection::btree_map(common::string(), inner, 0..12)
                .prop_map(|m| J::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn json_values_decode_into_serde_json_unchanged(v in json()) {
        let bytes = encode(&v);
        let back: serde_json::Value = surp::from_slice(&bytes).unwrap();
        prop_assert_eq!(&back, &v);
        let back: serde_json::Value = surp::from_reader(&bytes[..]).unwrap();
        prop_assert_eq!(&back, &v);
    }
}

#[derive(Serialize)]
struct Wide {
    before: Value,
    a: u32,
    extra: Value,
    #[serde(with = "serde_bytes")]
    large: Vec<u8>,
    b: String,
    deep: Value,
    after: Vec<Value>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Narrow {
    a: u32,
    b: String,
}

/// `depth` arrays, each holding the next, around `leaf`.
fn nested(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |v, _| Value::Array(vec![v]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn unknown_fields_of_any_value_are_skipped(
        before in common::value(),
        extra in common::value(),
        after in prop::collection::vec(common::value(), 0..3),
        a in any::<u32>(),
        b in common::string(),
        large_len in 0usize..70_000,
        depth in 0usize..300,
    ) {
        let wide = Wide {
            before,
            a,
            extra,
            large: vec![0xa5; large_len],
            b: b.clone(),
            // Deeper than the decoder's depth limit: skipping uses no stack.
            deep: nested(depth, Value::Map(vec![(1.into(), "x".into())])),
            after,
        };
        // Deeper than the serializer's default limit too.
        let mut ser = surp::Serializer::new(Vec::new()).max_depth(400);
        wide.serialize(&mut ser).unwrap();
        let bytes = ser.into_inner();
        let expected = Narrow { a, b };
        prop_assert_eq!(&surp::from_slice::<Narrow>(&bytes).unwrap(), &expected);
        prop_assert_eq!(&surp::from_reader::<_, Narrow>(&bytes[..]).unwrap(), &expected);
    }
}

#[test]
fn an_unknown_field_nested_a_million_deep_is_skipped_on_a_small_stack() {
    let mut input = vec![0xb3, 0x81, b'a', 0x07, 0x84];
    input.extend_from_slice(b"deep");
    input.extend(std::iter::repeat_n(0xa1, 1_000_000));
    input.push(0x00);
    input.extend_from_slice(&[0x81, b'b', 0x81, b'z']);
    let expected = Narrow {
        a: 7,
        b: "z".into(),
    };
    let from_slice = input.clone();
    let back = common::on_stack_of(256, move || {
        surp::from_slice::<Narrow>(&from_slice).unwrap()
    });
    assert_eq!(back, expected);
    let back = common::on_stack_of(256, move || {
        surp::from_reader::<_, Narrow>(&input[..]).unwrap()
    });
    assert_eq!(back, expected);
}

#[test]
fn a_struct_also_decodes_from_an_array_of_its_fields() {
    let bytes = surp::to_vec(&(5u32, "five")).unwrap();
    let back: Narrow = surp::from_slice(&bytes).unwrap();
    assert_eq!(
        back,
        Narrow {
            a: 5,
            b: "five".into()
        }
    );
}

#[test]
fn non_human_readable_types_take_their_compact_form() {
    use std::net::{IpAddr, Ipv4Addr, SocketAddr};
    let ip = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1));
    // Not human-readable: an enum whose content is an array of octets.
    assert_eq!(
        surp::to_vec(&ip).unwrap(),
        [0xb1, 0x82, b'V', b'4', 0xa4, 0x7f, 0x00, 0x00, 0x01]
    );
    assert_eq!(
        surp::from_slice::<IpAddr>(&surp::to_vec(&ip).unwrap()).unwrap(),
        ip
    );
    let addr = SocketAddr::new(ip, 8080);
    assert_eq!(
        surp::from_slice::<SocketAddr>(&surp::to_vec(&addr).unwrap()).unwrap(),
        addr
    );
}
