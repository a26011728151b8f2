//! A dynamic Surp value: any document, decoded without a Rust type.
//!
//! [`Value`] mirrors the wire's data model: maps keep their order and accept
//! any key type (integer keys are common), byte strings are their own kind,
//! and integers span the full `i128`/`u128` range of the wire.
//!
//! [`to_value`] turns any `Serialize` type into a `Value` and [`from_value`]
//! a `Value` into any `Deserialize` type, as serde_json's functions of those
//! names do, with the wire's mapping of the serde data model.

mod convert;
mod de;
mod display;
mod from;
mod index;
mod integer;
mod ser;

#[allow(unused_imports)]
use crate::prelude::*;
pub use convert::{from_value, to_value};
pub use index::Index;
pub use integer::Integer;

/// Any Surp value.
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// use surp::Value;
///
/// let bytes = surp::to_vec(&serde_json::json!({"id": 7, "tags": ["a", "b"]}))?;
/// let v: Value = surp::from_slice(&bytes)?;
/// assert_eq!(v["id"], Value::from(7));
/// assert_eq!(v["tags"][1].as_str(), Some("b"));
/// assert_eq!(v.to_string(), r#"{"id": 7, "tags": ["a", "b"]}"#);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// Null: also what `None` and `()` decode to.
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Integer(Integer),
    /// A float; binary16 and binary32 values are widened exactly.
    Float(f64),
    /// A UTF-8 string.
    String(String),
    /// A byte string.
    Bytes(Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// A map, in document order, with keys of any kind.
    Map(Vec<(Value, Value)>),
}

/// Dropping a value frees nested arrays and maps depth first, recursing
/// through at most [`DROP_RECURSION`] levels and handing anything deeper to
/// an explicit stack, so a value nested a million levels deep (which can be
/// built in memory, though no default limit lets it be decoded) drops
/// without overflowing the thread's stack, and a shallow one drops in place,
/// as a derived drop would, with nothing allocated and nothing moved.
impl Drop for Value {
    fn drop(&mut self) {
        match self {
            Value::Array(items) if !items.is_empty() => empty(self, 0),
            Value::Map(entries) if !entries.is_empty() => empty(self, 0),
            _ => {}
        }
    }
}

/// Levels of arrays and maps that [`Value`]'s drop frees by recursion.
const DROP_RECURSION: usize = 64;

/// Frees the arrays and maps inside `value`, found `depth` levels below the
/// value being dropped, leaving it without children. Each child is emptied
/// first, so the drop of `value`'s own items and entries stops at once.
fn empty(value: &mut Value, depth: usize) {
    if depth >= DROP_RECURSION {
        return empty_iteratively(value);
    }
    match value {
        Value::Array(items) => {
            for item in items.iter_mut() {
                empty(item, depth + 1);
            }
            drop(core::mem::take(items));
        }
        Value::Map(entries) => {
            for (key, item) in entries.iter_mut() {
                empty(key, depth + 1);
                empty(item, depth + 1);
            }
            drop(core::mem::take(entries));
        }
        _ => {}
    }
}

/// [`empty`] with an explicit stack, for values nested too deep to recurse.
#[cold]
fn empty_iteratively(value: &mut Value) {
    let mut stack: Vec<Value> = Vec::new();
    let take_children = |value: &mut Value, stack: &mut Vec<Value>| match value {
        Value::Array(items) => stack.append(items),
        Value::Map(entries) => {
            for (key, item) in entries.drain(..) {
                stack.push(key);
                stack.push(item);
            }
        }
        _ => {}
    };
    take_children(value, &mut stack);
    while let Some(mut value) = stack.pop() {
        take_children(&mut value, &mut stack);
        // `value` is now without children: its own drop stops at once.
    }
}

impl Value {
    /// Is this `Null`?
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_integer(&self) -> Option<Integer> {
        match self {
            Value::Integer(i) => Some(*i),
            _ => None,
        }
    }

    /// The integer as an `i64`, if this is one that fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_integer().and_then(|i| i64::try_from(i).ok())
    }

    /// The integer as a `u64`, if this is one that fits.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_integer().and_then(|i| u64::try_from(i).ok())
    }

    /// The float, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes, if this is a byte string.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The elements, mutably, if this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The entries, if this is a map.
    pub fn as_map(&self) -> Option<&Vec<(Value, Value)>> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The entries, mutably, if this is a map.
    pub fn as_map_mut(&mut self) -> Option<&mut Vec<(Value, Value)>> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// Looks up an array element by position or a map entry by string key
    /// (the first entry whose key equals it); `None` when absent.
    ///
    /// ```
    /// use surp::Value;
    /// let v = Value::Map(vec![("a".into(), 1.into())]);
    /// assert_eq!(v.get("a"), Some(&Value::from(1)));
    /// assert_eq!(v.get("b"), None);
    /// assert_eq!(v.get(0), None);
    /// ```
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// Like [`Value::get`], mutably.
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }
}
