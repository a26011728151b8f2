//! The names a type's `Deserialize` asks for: its structs' field lists and
//! its enums' variant names, found by deserializing it from a tracer that
//! makes up values (the way `Dictionary::from_type` builds a dictionary).
//!
//! serde describes a type only by what its `Deserialize` asks of a
//! deserializer, so the tracer answers every request with a small made-up
//! value and notes the names it is given. One pass follows one variant of
//! each enum; passes repeat, each taking the next variant of every enum
//! not yet seen through, until every variant has been followed or the pass
//! limit is reached. Options are followed into their content, sequences and
//! maps into one element, all to a bounded depth, so a recursive type ends.

use std::collections::HashMap;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, Visitor};

/// What the trace found: struct field lists and every variant name and
/// field name, in the order first met.
#[derive(Default)]
pub(crate) struct Names {
    /// Field lists of structs and struct variants.
    pub(crate) shapes: Vec<Vec<&'static str>>,
    /// One-key maps: the variant names of enum variants with content.
    pub(crate) variant_shapes: Vec<&'static str>,
    /// Unit variant names, written as strings.
    pub(crate) strings: Vec<&'static str>,
}

/// Deepest nesting the tracer follows.
const MAX_DEPTH: usize = 24;
/// Most passes over the type.
const MAX_PASSES: usize = 256;

/// Traces `T`'s names.
pub(crate) fn trace<'de, T: de::Deserialize<'de>>() -> Names {
    let mut state = State::default();
    for _ in 0..MAX_PASSES {
        state.progressed = false;
        let _ = T::deserialize(Tracer {
            state: &mut state,
            depth: 0,
        });
        if !state.progressed {
            break;
        }
    }
    state.names
}

#[derive(Default)]
struct State {
    names: Names,
    /// Per enum (by its variant list), the next variant to follow.
    next_variant: HashMap<usize, usize>,
    /// Whether this pass took a variant not followed before.
    progressed: bool,
}

impl State {
    fn shape(&mut self, fields: &'static [&'static str]) {
        if !fields.is_empty() && !self.names.shapes.iter().any(|s| s == fields) {
            self.names.shapes.push(fields.to_vec());
        }
    }

    fn variant_shape(&mut self, name: &'static str) {
        if !self.names.variant_shapes.contains(&name) {
            self.names.variant_shapes.push(name);
        }
    }

    fn string(&mut self, s: &'static str) {
        if !self.names.strings.contains(&s) {
            self.names.strings.push(s);
        }
    }

    /// The variant of an enum to follow in this pass.
    fn variant(&mut self, variants: &'static [&'static str]) -> usize {
        let key = variants.as_ptr() as usize;
        let next = self.next_variant.entry(key).or_insert(0);
        let chosen = (*next).min(variants.len().saturating_sub(1));
        if *next < variants.len() {
            *next += 1;
            self.progressed = true;
        }
        chosen
    }
}

struct Tracer<'s> {
    state: &'s mut State,
    depth: usize,
}

impl<'s> Tracer<'s> {
    /// The tracer of a struct's, tuple's or variant's content, which it
    /// cannot do without: past the deepest nesting the pass ends, so that a
    /// type that contains itself (`struct N(Box<N>)`) ends too.
    fn child(self) -> Result<Tracer<'s>, Stop> {
        if self.depth >= MAX_DEPTH {
            return Err(Stop);
        }
        Ok(Tracer {
            state: self.state,
            depth: self.depth + 1,
        })
    }

    /// The tracer of an option's or a sequence's content, which they can do
    /// without: `None` past the deepest nesting.
    fn deeper(&mut self) -> Option<Tracer<'_>> {
        (self.depth < MAX_DEPTH).then(|| Tracer {
            state: self.state,
            depth: self.depth + 1,
        })
    }
}

/// The tracer's error: a type that wants other values than made-up ones
/// simply ends the pass.
#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("trace stopped")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

macro_rules! made_up {
    ($($method:ident => $visit:ident($($value:expr)?);)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
            visitor.$visit($($value)?)
        }
    )*};
}

impl<'de> Deserializer<'de> for Tracer<'_> {
    type Error = Stop;

    made_up! {
        deserialize_bool => visit_bool(false);
        deserialize_i8 => visit_i8(0);
        deserialize_i16 => visit_i16(0);
        deserialize_i32 => visit_i32(0);
        deserialize_i64 => visit_i64(0);
        deserialize_i128 => visit_i128(0);
        deserialize_u8 => visit_u8(0);
        deserialize_u16 => visit_u16(0);
        deserialize_u32 => visit_u32(0);
        deserialize_u64 => visit_u64(0);
        deserialize_u128 => visit_u128(0);
        deserialize_f32 => visit_f32(0.0);
        deserialize_f64 => visit_f64(0.0);
        deserialize_char => visit_char('a');
        deserialize_str => visit_str("");
        deserialize_string => visit_str("");
        deserialize_bytes => visit_bytes(&[]);
        deserialize_byte_buf => visit_bytes(&[]);
        deserialize_unit => visit_unit();
        deserialize_identifier => visit_str("");
        deserialize_ignored_any => visit_unit();
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_unit()
    }

    fn deserialize_option<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        match self.deeper() {
            Some(inner) => visitor.visit_some(inner),
            None => visitor.visit_none(),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        let left = usize::from(self.depth < MAX_DEPTH);
        visitor.visit_seq(Items {
            tracer: self.deeper(),
            left,
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_seq(Items {
            tracer: Some(self.child()?),
            left: len,
        })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        // A map's keys are data, not names: it is followed into no entry.
        visitor.visit_map(NoEntries)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        self.state.shape(fields);
        visitor.visit_seq(Items {
            tracer: Some(self.child()?),
            left: fields.len(),
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        if variants.is_empty() {
            return Err(Stop);
        }
        let chosen = self.state.variant(variants);
        visitor.visit_enum(Variant {
            tracer: self.child()?,
            name: variants[chosen],
        })
    }
}

/// The elements of a sequence, tuple or struct: made-up values, traced.
struct Items<'s> {
    tracer: Option<Tracer<'s>>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_> {
    type Error = Stop;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Stop> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let Some(tracer) = &mut self.tracer else {
            return Ok(None);
        };
        let inner = Tracer {
            state: &mut *tracer.state,
            depth: tracer.depth,
        };
        seed.deserialize(inner).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// A map with no entries.
struct NoEntries;

impl<'de> de::MapAccess<'de> for NoEntries {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        _seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, _seed: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }
}

/// The variant an enum is given in this pass.
struct Variant<'s> {
    tracer: Tracer<'s>,
    name: &'static str,
}

impl<'de, 's> de::EnumAccess<'de> for Variant<'s> {
    type Error = Stop;
    type Variant = Variant<'s>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Stop> {
        let key: de::value::StrDeserializer<'_, Stop> = self.name.into_deserializer();
        let value = seed.deserialize(key)?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_> {
    type Error = Stop;

    fn unit_variant(self) -> Result<(), Stop> {
        self.tracer.state.string(self.name);
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Stop> {
        self.tracer.state.variant_shape(self.name);
        seed.deserialize(self.tracer)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Stop> {
        self.tracer.state.variant_shape(self.name);
        self.tracer.deserialize_tuple(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        self.tracer.state.variant_shape(self.name);
        self.tracer.deserialize_struct("", fields, visitor)
    }
}
