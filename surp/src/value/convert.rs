//! [`to_value`] and [`from_value`]: any `Serialize` type into a [`Value`]
//! and a [`Value`] into any `Deserialize` type, without going through bytes.
//!
//! Both follow the wire's mapping of the serde data model (`docs/spec.md`),
//! so `to_value(&x)` is the `Value` that decoding `to_vec(&x)` gives, and
//! `from_value` accepts what `from_slice` accepts from the same document:
//! structs are maps keyed by field name, enums are externally tagged (a unit
//! variant is its name, any other variant a one-entry map from its name to
//! its content), `None` and `()` are null, and `Some(x)` is `x`. A `Value`
//! has no `Some` marker, so `Some(None)` becomes null and comes back as
//! `None`, as it does from `from_slice::<Value>`.

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, VariantAccess, Visitor,
};
use serde::ser::{self, Serialize};

use super::{Integer, Value};
use crate::error::{Error, Result};
use crate::float;
#[allow(unused_imports)]
use crate::prelude::*;

/// Converts `value` into a [`Value`], as `serde_json::to_value` does.
///
/// The result is what decoding the bytes of [`to_vec`](crate::to_vec) as a
/// `Value` gives. It fails only when `value`'s `Serialize` implementation
/// reports an error.
///
/// ```
/// use serde::Serialize;
/// use surp::Value;
///
/// #[derive(Serialize)]
/// struct Reading {
///     sensor: &'static str,
///     celsius: f32,
///     tags: Vec<&'static str>,
/// }
///
/// # fn main() -> Result<(), surp::Error> {
/// let v = surp::to_value(&Reading { sensor: "greenhouse-3", celsius: 21.5, tags: vec!["ok"] })?;
/// assert_eq!(v["sensor"].as_str(), Some("greenhouse-3"));
/// assert_eq!(v["celsius"], Value::from(21.5));
/// assert_eq!(v["tags"][0].as_str(), Some("ok"));
/// # Ok(()) }
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value> {
    value.serialize(ValueSerializer)
}

/// Converts a [`Value`] into a `T`, as `serde_json::from_value` does.
///
/// `T` gets what [`from_slice`](crate::from_slice) would give it from the
/// value's encoding; the error, when the value does not fit `T`, has no byte
/// offset.
///
/// ```
/// use serde::Deserialize;
/// use surp::Value;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// enum Shape {
///     Circle { radius: f64 },
///     Point,
/// }
///
/// # fn main() -> Result<(), surp::Error> {
/// let circle = Value::Map(vec![(
///     "Circle".into(),
///     Value::Map(vec![("radius".into(), 2.5.into())]),
/// )]);
/// assert_eq!(surp::from_value::<Shape>(circle)?, Shape::Circle { radius: 2.5 });
/// assert_eq!(surp::from_value::<Vec<Shape>>(Value::Array(vec!["Point".into()]))?, [Shape::Point]);
///
/// let err = surp::from_value::<u8>(Value::from(300)).unwrap_err();
/// assert_eq!(err.to_string(), "invalid value: integer `300`, expected u8");
/// # Ok(()) }
/// ```
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T> {
    T::deserialize(value)
}

/// The serializer behind [`to_value`].
struct ValueSerializer;

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = ArrayBuilder;
    type SerializeTuple = ArrayBuilder;
    type SerializeTupleStruct = ArrayBuilder;
    type SerializeTupleVariant = Variant<ArrayBuilder>;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = Variant<MapBuilder>;

    fn serialize_bool(self, v: bool) -> Result<Value> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_u8(self, v: u8) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<Value> {
        Ok(v.into())
    }
    /// Widened on the bits, as the decoder widens binary32.
    fn serialize_f32(self, v: f32) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<Value> {
        Ok(Value::Float(v))
    }
    fn serialize_char(self, v: char) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_str(self, v: &str) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        Ok(v.into())
    }
    fn serialize_none(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value> {
        Ok(variant.into())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value> {
        Ok(Value::Map(vec![(variant.into(), value.serialize(self)?)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<ArrayBuilder> {
        Ok(ArrayBuilder(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<ArrayBuilder> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<ArrayBuilder> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Variant<ArrayBuilder>> {
        Ok(Variant {
            name: variant,
            content: self.serialize_seq(Some(len))?,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder> {
        Ok(MapBuilder {
            entries: Vec::with_capacity(len.unwrap_or(0)),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Variant<MapBuilder>> {
        Ok(Variant {
            name: variant,
            content: self.serialize_map(Some(len))?,
        })
    }

    /// As for the wire: types with two forms (addresses, times) take their
    /// compact one, so `to_value` agrees with decoding `to_vec`'s bytes.
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The items of an array being built.
struct ArrayBuilder(Vec<Value>);

impl ser::SerializeSeq for ArrayBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.0.push(value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value> {
        Ok(Value::Array(self.0))
    }
}

impl ser::SerializeTuple for ArrayBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Value> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for ArrayBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Value> {
        ser::SerializeSeq::end(self)
    }
}

/// The entries of a map or struct being built, and a key waiting for its
/// value.
struct MapBuilder {
    entries: Vec<(Value, Value)>,
    key: Option<Value>,
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key.serialize(ValueSerializer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let Some(key) = self.key.take() else {
            return Err(ser::Error::custom(
                "serialize_value called before serialize_key",
            ));
        };
        self.entries.push((key, value.serialize(ValueSerializer)?));
        Ok(())
    }
    fn end(self) -> Result<Value> {
        Ok(Value::Map(self.entries))
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.entries
            .push((key.into(), value.serialize(ValueSerializer)?));
        Ok(())
    }
    fn end(self) -> Result<Value> {
        ser::SerializeMap::end(self)
    }
}

/// A tuple or struct variant: a one-entry map from the variant's name to
/// its content.
struct Variant<C> {
    name: &'static str,
    content: C,
}

impl<C> Variant<C> {
    fn wrap(name: &'static str, content: Value) -> Value {
        Value::Map(vec![(name.into(), content)])
    }
}

impl ser::SerializeTupleVariant for Variant<ArrayBuilder> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(&mut self.content, value)
    }
    fn end(self) -> Result<Value> {
        Ok(Self::wrap(self.name, ser::SerializeSeq::end(self.content)?))
    }
}

impl ser::SerializeStructVariant for Variant<MapBuilder> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(&mut self.content, key, value)
    }
    fn end(self) -> Result<Value> {
        Ok(Self::wrap(self.name, ser::SerializeMap::end(self.content)?))
    }
}

/// A `Value` is a deserializer of itself, for [`from_value`] and for the
/// items of arrays and maps.
impl<'de> IntoDeserializer<'de, Error> for Value {
    type Deserializer = Value;

    fn into_deserializer(self) -> Value {
        self
    }
}

/// Gives an integer to `visitor` through the narrowest serde method that
/// holds it, so visitors without 128-bit support take every 64-bit value.
fn visit_integer<'de, V: Visitor<'de>>(i: Integer, visitor: V) -> Result<V::Value> {
    if let Ok(v) = u64::try_from(i) {
        visitor.visit_u64(v)
    } else if let Ok(v) = i64::try_from(i) {
        visitor.visit_i64(v)
    } else if let Ok(v) = u128::try_from(i) {
        visitor.visit_u128(v)
    } else {
        match i128::try_from(i) {
            Ok(v) => visitor.visit_i128(v),
            Err(_) => Err(de::Error::custom(
                "an integer outside both the u128 and the i128 range",
            )),
        }
    }
}

/// Deserializing from an owned `Value`: strings and bytes are handed over
/// (`visit_string`, `visit_byte_buf`), so the target owns its data.
impl<'de> de::Deserializer<'de> for Value {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value> {
        // `Value` has a `Drop` (it frees deep trees without recursion), so
        // its contents are taken out rather than moved out.
        match &mut self {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Integer(i) => visit_integer(*i, visitor),
            Value::Float(f) => visitor.visit_f64(*f),
            Value::String(s) => visitor.visit_string(core::mem::take(s)),
            Value::Bytes(b) => visitor.visit_byte_buf(core::mem::take(b)),
            Value::Array(items) => {
                let items = core::mem::take(items);
                let mut seq = SeqDeserializer::new(items.into_iter());
                let v = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(v)
            }
            Value::Map(entries) => {
                let entries = core::mem::take(entries);
                let mut map = MapDeserializer::new(entries.into_iter());
                let v = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(v)
            }
        }
    }

    /// A float that binary32 holds exactly reaches the visitor as `f32`, as
    /// from the wire: widening it back with `as` could change a NaN's bits.
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Value::Float(f) => match float::f64_to_f32_exact(f) {
                Some(narrow) => visitor.visit_f32(narrow),
                None => visitor.visit_f64(f),
            },
            other => other.deserialize_any(visitor),
        }
    }

    /// Null is `None`; anything else is `Some` of itself.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    /// A unit variant is its name; any other variant a one-entry map from
    /// its name to its content.
    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self {
            Value::String(ref mut name) => {
                visitor.visit_enum(core::mem::take(name).into_deserializer())
            }
            Value::Map(ref mut entries) => {
                match <[(Value, Value); 1]>::try_from(core::mem::take(entries)) {
                    Ok([(name, content)]) => visitor.visit_enum(Enum { name, content }),
                    Err(_) => Err(de::Error::invalid_type(
                        de::Unexpected::Other("a map without exactly one entry"),
                        &visitor,
                    )),
                }
            }
            other => Err(de::Error::invalid_type(unexpected(&other), &visitor)),
        }
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// How an error names a value that does not fit.
fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Integer(i) => match (u64::try_from(*i), i64::try_from(*i)) {
            (Ok(u), _) => de::Unexpected::Unsigned(u),
            (_, Ok(s)) => de::Unexpected::Signed(s),
            _ => de::Unexpected::Other("a 128-bit integer"),
        },
        Value::Float(f) => de::Unexpected::Float(*f),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Bytes(b) => de::Unexpected::Bytes(b),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Map(_) => de::Unexpected::Map,
    }
}

/// A variant written as a one-entry map.
struct Enum {
    name: Value,
    content: Value,
}

impl<'de> EnumAccess<'de> for Enum {
    type Error = Error;
    type Variant = Value;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Value)> {
        Ok((seed.deserialize(self.name)?, self.content))
    }
}

/// The content of a variant written as a one-entry map.
impl<'de> VariantAccess<'de> for Value {
    type Error = Error;

    /// `{"Name": null}`: a unit variant in the map form.
    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}
