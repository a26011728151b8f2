//! The neutral value model: the one document shape that every format in the
//! benchmark encodes and decodes.
//!
//! It belongs to this crate rather than to any codec so that no format gets a
//! home advantage. Its serde impls use only the plain data model (no
//! format-specific hooks), with two deliberate choices:
//!
//! - **Integers are normalised.** Non-negative integers are always
//!   [`Value::U64`] and negative ones [`Value::I64`], whichever visitor method a
//!   decoder calls. Self-describing formats store the magnitude, not the Rust
//!   type, so without this a round trip could turn `I64(5)` into `U64(5)`.
//! - **Bytes follow the format's nature.** Binary formats get
//!   `serialize_bytes`; human-readable ones (JSON) get a standard base64
//!   string, which is what JSON users do in practice.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A format-neutral document.
///
/// Invariant kept by every constructor in this crate and by the `Deserialize`
/// impl: [`Value::I64`] holds only negative numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// The absence of a value.
    Null,
    /// A boolean.
    Bool(bool),
    /// A negative integer.
    I64(i64),
    /// A non-negative integer.
    U64(u64),
    /// A double-precision float.
    F64(f64),
    /// A UTF-8 string.
    String(String),
    /// Raw bytes.
    Bytes(Vec<u8>),
    /// An ordered sequence.
    Array(Vec<Value>),
    /// An ordered map with string keys; order is part of the value.
    Map(Vec<(String, Value)>),
}

impl Value {
    /// Builds an integer value, keeping the sign invariant.
    pub fn int(v: i64) -> Value {
        if v < 0 {
            Value::I64(v)
        } else {
            Value::U64(v as u64)
        }
    }

    /// The value under `key` if this is a map holding it (the first such
    /// entry; the model allows repeated keys because decoders may produce
    /// them).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The deepest container nesting: a scalar is 0, `[]` and `[1]` are 1,
    /// `{"a": [1]}` is 2.
    ///
    /// Walks with an explicit stack, so even a value nested far deeper than
    /// any dataset is measured without risk to the call stack.
    ///
    /// ```
    /// use surp_datasets::Value;
    ///
    /// let v = Value::Map(vec![("a".into(), Value::Array(vec![Value::U64(1)]))]);
    /// assert_eq!(v.depth(), 2);
    /// assert_eq!(Value::Null.depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 0)];
        while let Some((value, above)) = stack.pop() {
            match value {
                Value::Array(items) => {
                    deepest = deepest.max(above + 1);
                    stack.extend(items.iter().map(|v| (v, above + 1)));
                }
                Value::Map(entries) => {
                    deepest = deepest.max(above + 1);
                    stack.extend(entries.iter().map(|(_, v)| (v, above + 1)));
                }
                _ => {}
            }
        }
        deepest
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::I64(v) => serializer.serialize_i64(*v),
            Value::U64(v) => serializer.serialize_u64(*v),
            Value::F64(v) => serializer.serialize_f64(*v),
            Value::String(s) => serializer.serialize_str(s),
            Value::Bytes(b) => {
                if serializer.is_human_readable() {
                    serializer.serialize_str(&BASE64.encode(b))
                } else {
                    serializer.serialize_bytes(b)
                }
            }
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value of the neutral model")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::U64(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        if let Ok(v) = u64::try_from(v) {
            Ok(Value::U64(v))
        } else if let Ok(v) = i64::try_from(v) {
            Ok(Value::I64(v))
        } else {
            Err(E::custom(format_args!(
                "integer {v} is outside the 64-bit range of the model"
            )))
        }
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        u64::try_from(v).map(Value::U64).map_err(|_| {
            E::custom(format_args!(
                "integer {v} is outside the 64-bit range of the model"
            ))
        })
    }
    fn visit_f32<E>(self, v: f32) -> Result<Value, E> {
        Ok(Value::F64(f64::from(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::F64(v))
    }
    fn visit_char<E>(self, v: char) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Bytes(v.to_vec()))
    }
    fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Value, E> {
        Ok(Value::Bytes(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Value::deserialize(deserializer)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Value, D::Error> {
        Value::deserialize(deserializer)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        // The hint comes from the input, so it only sizes a bounded first allocation.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            entries.push((k, v));
        }
        Ok(Value::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_negative_integers_decode_as_u64_whatever_the_visitor() {
        let v: Value = serde_json::from_str("[5, -5, 0]").unwrap();
        assert_eq!(
            v,
            Value::Array(vec![Value::U64(5), Value::I64(-5), Value::U64(0)])
        );
    }

    #[test]
    fn bytes_are_base64_in_human_readable_formats() {
        let json = serde_json::to_string(&Value::Bytes(vec![0, 1, 2, 255])).unwrap();
        assert_eq!(json, "\"AAEC/w==\"");
    }

    #[test]
    fn depth_counts_containers_not_scalars() {
        let mut v = Value::Array(vec![]);
        for _ in 0..299 {
            v = Value::Map(vec![("k".into(), v), ("s".into(), Value::Null)]);
        }
        assert_eq!(v.depth(), 300);
        assert_eq!(Value::String("deep".into()).depth(), 0);
    }

    #[test]
    fn get_finds_the_first_entry_with_the_key() {
        let v = Value::Map(vec![
            ("a".into(), Value::U64(1)),
            ("a".into(), Value::U64(2)),
        ]);
        assert_eq!(v.get("a"), Some(&Value::U64(1)));
        assert_eq!(v.get("b"), None);
        assert_eq!(Value::Null.get("a"), None);
    }

    #[test]
    fn map_order_survives_a_json_round_trip() {
        let v = Value::Map(vec![
            ("z".into(), Value::Null),
            ("a".into(), Value::Bool(true)),
            ("m".into(), Value::F64(1.5)),
        ]);
        let back: Value = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(back, v);
    }
}
