//! The items of a tuple, read through [`Item`]: the decoder itself, plus a
//! fast path for unsigned integers.
//!
//! An unsigned integer whose bytes are all in the buffer takes a few
//! instructions; inlined where a struct reads its fields, the same fast
//! path made the struct's visitor larger and slower than the call it
//! saved, so only the items of an array read as a tuple take it (an
//! `[u32; 3]`, a `(u64, u64)`). Every other request goes to the decoder
//! unchanged, so an item decodes, and fails, exactly as the decoder alone
//! decodes it.

use serde::de::{self, Visitor};

use super::Deserializer;
use crate::error::{Error, Result};
use crate::read::Read;

/// The decoder, for one item of an array.
pub(super) struct Item<'a, R>(pub(super) &'a mut Deserializer<R>);

/// Requests handed to the decoder as they are.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            de::Deserializer::$method(self.0, $($arg,)* visitor)
        }
    )*};
}

/// Unsigned integers: the fast path, else the decoder's general path,
/// out of line.
macro_rules! unsigned {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.0.read.offset();
            if let Some(v) = self.0.read.eat_uint() {
                return visitor.visit_u64(v).map_err(|e: Error| e.at(start));
            }
            self.0.any_value(visitor)
        }
    )*};
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// Any value, through the general dispatcher: out of line, for an
    /// item's fast path that missed.
    #[inline(never)]
    fn any_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(self, visitor)
    }
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for Item<'_, R> {
    type Error = Error;

    unsigned!(deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64);

    forward! {
        deserialize_any()
        deserialize_bool()
        deserialize_i8()
        deserialize_i16()
        deserialize_i32()
        deserialize_i64()
        deserialize_i128()
        deserialize_u128()
        deserialize_f32()
        deserialize_f64()
        deserialize_char()
        deserialize_str()
        deserialize_string()
        deserialize_bytes()
        deserialize_byte_buf()
        deserialize_option()
        deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_seq()
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier()
        deserialize_ignored_any()
    }

    /// As the decoder: Surp is a binary format.
    fn is_human_readable(&self) -> bool {
        false
    }
}
