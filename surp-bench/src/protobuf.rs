//! Protobuf through prost: a generic Value message, declared with prost's
//! derive macros (no `.proto` file, no protoc), and the conversions between
//! it and the neutral value.
//!
//! The schema, in `.proto` terms:
//!
//! ```text
//! message Value {
//!   oneof kind {
//!     Null   null   = 1;   // message Null {}
//!     bool   bool   = 2;
//!     sint64 int    = 3;   // negative integers (zigzag)
//!     uint64 uint   = 4;   // non-negative integers
//!     double double = 5;
//!     string string = 6;
//!     bytes  bytes  = 7;
//!     List   list   = 8;   // message List { repeated Value items = 1; }
//!     Map    map    = 9;   // message Map { repeated Entry entries = 1; }
//!   }
//! }
//! message Entry { string key = 1; Value value = 2; }
//! ```
//!
//! A map is a repeated list of entries rather than a protobuf `map<>` so
//! that key order (part of the neutral value) survives. Protobuf has no
//! schema-free mode, so a generic message like this is how a document of
//! unknown shape is carried; the timed encode includes building the message
//! from the neutral value, and the timed decode includes turning it back.

use prost::Message;
use surp_datasets::Value;

use crate::codec::CodecError;

/// A neutral value as a protobuf message.
#[derive(Clone, PartialEq, Message)]
pub struct ProtoValue {
    /// Which kind of value this is; always set by [`encode`].
    #[prost(oneof = "Kind", tags = "1, 2, 3, 4, 5, 6, 7, 8, 9")]
    pub kind: Option<Kind>,
}

/// The kinds of value, one oneof field each.
#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Kind {
    /// The absence of a value.
    #[prost(message, tag = "1")]
    Null(ProtoNull),
    /// A boolean.
    #[prost(bool, tag = "2")]
    Bool(bool),
    /// A negative integer.
    #[prost(sint64, tag = "3")]
    Int(i64),
    /// A non-negative integer.
    #[prost(uint64, tag = "4")]
    Uint(u64),
    /// A double.
    #[prost(double, tag = "5")]
    Double(f64),
    /// A string.
    #[prost(string, tag = "6")]
    String(String),
    /// Raw bytes.
    #[prost(bytes = "vec", tag = "7")]
    Bytes(Vec<u8>),
    /// An ordered sequence.
    #[prost(message, tag = "8")]
    List(ProtoList),
    /// An ordered map.
    #[prost(message, tag = "9")]
    Map(ProtoMap),
}

/// The empty message that marks a null.
#[derive(Clone, Copy, PartialEq, Message)]
pub struct ProtoNull {}

/// An ordered sequence of values.
#[derive(Clone, PartialEq, Message)]
pub struct ProtoList {
    /// The items, in order.
    #[prost(message, repeated, tag = "1")]
    pub items: Vec<ProtoValue>,
}

/// An ordered map, as its entries.
#[derive(Clone, PartialEq, Message)]
pub struct ProtoMap {
    /// The entries, in order.
    #[prost(message, repeated, tag = "1")]
    pub entries: Vec<ProtoEntry>,
}

/// One key and its value.
#[derive(Clone, PartialEq, Message)]
pub struct ProtoEntry {
    /// The key.
    #[prost(string, tag = "1")]
    pub key: String,
    /// The value; always set by [`encode`].
    #[prost(message, optional, tag = "2")]
    pub value: Option<ProtoValue>,
}

impl From<&Value> for ProtoValue {
    fn from(value: &Value) -> ProtoValue {
        let kind = match value {
            Value::Null => Kind::Null(ProtoNull {}),
            Value::Bool(b) => Kind::Bool(*b),
            Value::I64(v) => Kind::Int(*v),
            Value::U64(v) => Kind::Uint(*v),
            Value::F64(v) => Kind::Double(*v),
            Value::String(s) => Kind::String(s.clone()),
            Value::Bytes(b) => Kind::Bytes(b.clone()),
            Value::Array(items) => Kind::List(ProtoList {
                items: items.iter().map(ProtoValue::from).collect(),
            }),
            Value::Map(entries) => Kind::Map(ProtoMap {
                entries: entries
                    .iter()
                    .map(|(key, value)| ProtoEntry {
                        key: key.clone(),
                        value: Some(ProtoValue::from(value)),
                    })
                    .collect(),
            }),
        };
        ProtoValue { kind: Some(kind) }
    }
}

impl TryFrom<ProtoValue> for Value {
    type Error = CodecError;

    fn try_from(proto: ProtoValue) -> Result<Value, CodecError> {
        let kind = proto.kind.ok_or("a Value message has no kind set")?;
        Ok(match kind {
            Kind::Null(ProtoNull {}) => Value::Null,
            Kind::Bool(b) => Value::Bool(b),
            Kind::Int(v) => Value::int(v),
            Kind::Uint(v) => Value::U64(v),
            Kind::Double(v) => Value::F64(v),
            Kind::String(s) => Value::String(s),
            Kind::Bytes(b) => Value::Bytes(b),
            Kind::List(list) => Value::Array(
                list.items
                    .into_iter()
                    .map(Value::try_from)
                    .collect::<Result<_, _>>()?,
            ),
            Kind::Map(map) => Value::Map(
                map.entries
                    .into_iter()
                    .map(|entry| {
                        let value = entry
                            .value
                            .ok_or_else(|| format!("map entry `{}` has no value", entry.key))?;
                        Ok((entry.key, Value::try_from(value)?))
                    })
                    .collect::<Result<_, CodecError>>()?,
            ),
        })
    }
}

/// Protobuf through prost: in the value suite this module's generic Value
/// message, in the typed suite each dataset's own messages
/// (`surp_datasets::typed::TypedData::Proto`).
pub(crate) struct Protobuf;

/// Converts the value to a [`ProtoValue`] and appends its encoding.
pub fn encode(value: &Value, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(ProtoValue::from(value).encode(buf)?)
}

/// Decodes a [`ProtoValue`] and converts it to the neutral value.
pub fn decode(bytes: &[u8]) -> Result<Value, CodecError> {
    Value::try_from(ProtoValue::decode(bytes)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_without_a_kind_is_an_error() {
        let empty = ProtoValue { kind: None }.encode_to_vec();
        let err = decode(&empty).unwrap_err();
        assert!(err.to_string().contains("no kind"), "{err}");
    }

    #[test]
    fn a_map_entry_without_a_value_is_an_error() {
        let map = ProtoValue {
            kind: Some(Kind::Map(ProtoMap {
                entries: vec![ProtoEntry {
                    key: "k".into(),
                    value: None,
                }],
            })),
        };
        let err = decode(&map.encode_to_vec()).unwrap_err();
        assert!(err.to_string().contains("`k` has no value"), "{err}");
    }

    #[test]
    fn map_order_and_repeated_keys_survive() {
        let value = Value::Map(vec![
            ("z".into(), Value::U64(1)),
            ("a".into(), Value::I64(-1)),
            ("z".into(), Value::Null),
        ]);
        let mut buf = Vec::new();
        encode(&value, &mut buf).unwrap();
        assert_eq!(decode(&buf).unwrap(), value);
    }
}
