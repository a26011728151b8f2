//! Shared pieces of the tests: strategies for arbitrary `Value`s
//! with an emphasis on the wire's boundaries, bit-exact comparison, and
//! headers that claim huge lengths.
//!
//! Floats are compared by their bits everywhere, so `-0.0` and NaN payloads
//! count; `Value`'s own `PartialEq` compares floats by value.

#![allow(dead_code)] // Each test binary uses its own subset.

use proptest::prelude::*;
use surp::wire::{self, Kind};
use surp::{Integer, Value};

/// Integers at every width boundary of the wire: `2^(8k)` and its neighbours
/// for every byte width k from 1 to 16, on both sides of zero, plus the inline
/// ranges' ends.
pub fn boundary_integers() -> Vec<Integer> {
    let mut out = Vec::new();
    let mut push_near = |center: i128| {
        for delta in -2..=2 {
            if let Some(v) = center.checked_add(delta) {
                out.push(Integer::from(v));
            }
        }
    };
    for center in [0, 127, 128, -8, -9, -1] {
        push_near(center);
    }
    for bits in (8..=120).step_by(8).chain([63, 64]) {
        push_near(1i128 << bits);
        push_near(-(1i128 << bits));
    }
    push_near(i128::MIN + 2);
    push_near(i128::MAX - 2);
    for v in [u128::MAX, u128::MAX - 1, 1u128 << 127, (1u128 << 127) + 1] {
        out.push(Integer::from(v));
    }
    out
}

/// Any integer the wire carries: uniform over each range, or a boundary.
pub fn integer() -> impl Strategy<Value = Integer> {
    prop_oneof![
        3 => proptest::sample::select(boundary_integers()),
        1 => any::<i8>().prop_map(Integer::from),
        1 => any::<u64>().prop_map(Integer::from),
        1 => any::<i64>().prop_map(Integer::from),
        1 => any::<u128>().prop_map(Integer::from),
        1 => any::<i128>().prop_map(Integer::from),
    ]
}

/// Widens binary16 bits to an `f64` on the bits, independently of the crate.
pub fn f64_from_f16_bits(h: u16) -> f64 {
    let sign = u64::from(h >> 15) << 63;
    let exp = u64::from((h >> 10) & 0x1f);
    let mantissa = u64::from(h & 0x3ff);
    match exp {
        0 => {
            let magnitude = mantissa as f64 * 2f64.powi(-24);
            f64::from_bits(sign | magnitude.to_bits())
        }
        0x1f => f64::from_bits(sign | (0x7ff << 52) | (mantissa << 42)),
        _ => f64::from_bits(sign | ((exp + 1023 - 15) << 52) | (mantissa << 42)),
    }
}

/// Widens binary32 bits to an `f64` on the bits (a cast may quiet a NaN).
pub fn f64_from_f32_bits(s: u32) -> f64 {
    let f = f32::from_bits(s);
    if f.is_nan() {
        let sign = u64::from(s >> 31) << 63;
        let mantissa = u64::from(s & 0x7f_ffff) << 29;
        return f64::from_bits(sign | (0x7ff << 52) | mantissa);
    }
    f64::from(f)
}

/// Floats that exercise every form: the specials, signalling and quiet NaNs
/// with payloads that narrow to binary16, binary32 or neither, values exact
/// in binary16 or binary32, and arbitrary binary64 bit patterns.
pub fn float() -> impl Strategy<Value = f64> {
    let specials = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001), // signalling, binary64 only
        f64::from_bits(0x7ff0_0000_2000_0000), // signalling, narrows to binary32
        f64::from_bits(0x7ff0_0400_0000_0000), // signalling, narrows to binary16
        f64::from_bits(0xfff8_0000_0000_0001), // quiet, negative, payload
        f64::MIN_POSITIVE,
        f64::from_bits(1), // smallest subnormal
        f64::MAX,
        f64::MIN,
        65504.0,
        65505.0,
        2f64.powi(-24),
        2f64.powi(-25),
        0.1,
    ];
    prop_oneof![
        2 => proptest::sample::select(specials.to_vec()),
        2 => any::<u16>().prop_map(f64_from_f16_bits),
        2 => any::<u32>().prop_map(f64_from_f32_bits),
        2 => any::<u64>().prop_map(f64::from_bits),
        1 => any::<f64>(),
    ]
}

/// Strings: arbitrary Unicode, and runs long enough for the 1- and 2-byte
/// length classes.
pub fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => any::<String>(),
        1 => (any::<char>(), 0usize..400).prop_map(|(c, n)| c.to_string().repeat(n)),
    ]
}

/// Byte strings around the inline limit (7) and the 1-byte length class.
pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..12),
        prop::collection::vec(any::<u8>(), 0..400),
    ]
}

/// Any `Value`: scalars of every kind, arrays and maps (with keys of any
/// kind, including containers) nested a few levels, some past 15 items.
pub fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        integer().prop_map(Value::Integer),
        float().prop_map(Value::Float),
        string().prop_map(Value::String),
        bytes().prop_map(Value::Bytes),
    ];
    leaf.prop_recursive(4, 96, 20, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..20).prop_map(Value::Array),
            prop::collection::vec((inner.clone(), inner), 0..18).prop_map(Value::Map),
        ]
    })
}

/// Structural equality with floats compared by bits.
pub fn same_bits(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_bits(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k1, v1), (k2, v2))| same_bits(k1, k2) && same_bits(v1, v2))
        }
        _ => a == b,
    }
}

/// Runs `f` on a thread with a `kib` KiB stack, so that running out of stack
/// shows as a crash of the test instead of passing on a generous main stack.
pub fn on_stack_of<T: Send + 'static>(kib: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(kib * 1024)
        .spawn(f)
        .expect("spawn a test thread")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// A header of `kind` claiming `len` items in the 8-byte length class: 9
/// bytes that promise far more than follows them.
pub fn claim(kind: Kind, len: u64) -> Vec<u8> {
    let first = match kind {
        Kind::Str => wire::STR8,
        Kind::Bytes => wire::BIN8,
        Kind::Array => wire::ARRAY8,
        Kind::Map => wire::MAP8,
    };
    let mut header = vec![first + 3];
    header.extend_from_slice(&len.to_le_bytes());
    header
}

/// A visitor that collects a map's keys, each read as a `K`, and skips the
/// values: what a key type sees, whatever form the map took on the wire.
pub struct MapKeys<K>(std::marker::PhantomData<K>);

impl<K> MapKeys<K> {
    pub fn new() -> Self {
        MapKeys(std::marker::PhantomData)
    }
}

impl<K> Default for MapKeys<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, K: serde::Deserialize<'de>> serde::de::Visitor<'de> for MapKeys<K> {
    type Value = Vec<K>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Vec<K>, A::Error> {
        let mut keys = Vec::new();
        while let Some(key) = map.next_key::<K>()? {
            map.next_value::<serde::de::IgnoredAny>()?;
            keys.push(key);
        }
        Ok(keys)
    }
}

/// A value that records whether the format called itself human-readable,
/// and skips what it was given.
#[derive(Debug, PartialEq, Clone)]
pub struct Readable(pub bool);

impl<'de> serde::Deserialize<'de> for Readable {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let readable = d.is_human_readable();
        serde::de::IgnoredAny::deserialize(d)?;
        Ok(Readable(readable))
    }
}
