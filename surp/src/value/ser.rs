//! `Serialize` for [`Value`]: each variant maps to one serde data-model type.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{Integer, Value};
#[allow(unused_imports)]
use crate::prelude::*;

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Integer(i) => i.serialize(serializer),
            Value::Float(f) => serializer.serialize_f64(*f),
            Value::String(s) => serializer.serialize_str(s),
            Value::Bytes(b) => serializer.serialize_bytes(b),
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

/// Uses the narrowest serde integer method that holds the value, so formats
/// without 128-bit support still accept every 64-bit value.
impl Serialize for Integer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Ok(v) = u64::try_from(*self) {
            serializer.serialize_u64(v)
        } else if let Ok(v) = i64::try_from(*self) {
            serializer.serialize_i64(v)
        } else if let Ok(v) = u128::try_from(*self) {
            serializer.serialize_u128(v)
        } else {
            serializer.serialize_i128(
                i128::try_from(*self).expect("an Integer is in the u128 or i128 range"),
            )
        }
    }
}
