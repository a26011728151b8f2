//! Dispatch: the serde `Deserializer` methods. Each reads one tag byte and
//! takes a fast path for the tags its type usually meets; every other tag
//! goes to [`Deserializer::any_tag`], the one general dispatcher.

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, Visitor};

use super::Deserializer;
use crate::error::{Error, ErrorKind, Result};
use crate::float;
use crate::read::{Read, Reference};
use crate::utf8::utf8;
use crate::wire::{self, Kind};

impl<'de, R: Read<'de>> Deserializer<R> {
    /// The general dispatcher: decodes the value whose tag was just read.
    pub(super) fn any_tag<V: Visitor<'de>>(
        &mut self,
        start: usize,
        tag: u8,
        visitor: V,
    ) -> Result<V::Value> {
        let result = match tag {
            wire::FIXUINT..=wire::FIXUINT_MAX => visitor.visit_u64(tag.into()),
            wire::FIXSTR..=wire::FIXSTR_LAST => {
                return self.visit_str_literal(start, Kind::Str.inline_len(tag), visitor);
            }
            wire::FIXARRAY..=wire::FIXARRAY_LAST => {
                return self.visit_array(start, Kind::Array.inline_len(tag), visitor);
            }
            wire::FIXMAP..=wire::FIXMAP_LAST => {
                return self.visit_map(start, Kind::Map.inline_len(tag), visitor);
            }
            wire::STR8..=wire::STR_LAST => {
                let len = self.read_len(tag)?;
                return self.visit_str_literal(start, len, visitor);
            }
            wire::BIN8..=wire::BIN_LAST => {
                let len = self.read_len(tag)?;
                return self.visit_bytes_literal(start, len, visitor);
            }
            wire::ARRAY8..=wire::ARRAY_LAST => {
                let len = self.read_len(tag)?;
                return self.visit_array(start, len, visitor);
            }
            wire::MAP8..=wire::MAP_LAST => {
                let len = self.read_len(tag)?;
                return self.visit_map(start, len, visitor);
            }
            wire::UINT1..=wire::UINT_LAST => {
                let v = self.read.read_le(wire::int_width(tag))?;
                visitor.visit_u64(v)
            }
            wire::NINT1..=wire::NINT_LAST => {
                let n = self.read.read_le(wire::int_width(tag))?;
                match i64::try_from(n) {
                    Ok(n) => visitor.visit_i64(!n),
                    Err(_) => visitor.visit_i128(!i128::from(n)),
                }
            }
            wire::NULL => visitor.visit_unit(),
            wire::FALSE => visitor.visit_bool(false),
            wire::TRUE => visitor.visit_bool(true),
            wire::SOME => {
                let hint = self.open(start, 0)?;
                let result = visitor.visit_some(&mut *self);
                return self.close(start, hint, result, 0);
            }
            wire::F16 => visitor.visit_f32(float::f16_to_f32(u16::from_le_bytes(
                self.read.read_array()?,
            ))),
            wire::F32 => visitor.visit_f32(f32::from_le_bytes(self.read.read_array()?)),
            wire::F64 => visitor.visit_f64(f64::from_le_bytes(self.read.read_array()?)),
            wire::WIDE_UINT => {
                let v = self.read_wide(start)?;
                visitor.visit_u128(v)
            }
            wire::WIDE_NINT => {
                let n = self.read_wide(start)?;
                match i128::try_from(n) {
                    Ok(n) => visitor.visit_i128(!n),
                    Err(_) => return Err(Error::new(ErrorKind::IntegerOutOfRange, start)),
                }
            }
            wire::RESERVED => return Err(Error::new(ErrorKind::ReservedTag(tag), start)),
            wire::DEDUP_MARKER => return self.visit_marker(start, visitor),
            wire::STR_REF1..=wire::STR_REF3 => return self.visit_str_ref(start, tag, visitor),
            // One arm for both forms: one copy of the shape path per visitor.
            wire::FIXSHAPE..=wire::FIXSHAPE_LAST | wire::SHAPE_REF1..=wire::SHAPE_REF2 => {
                return self.visit_shape(start, tag, visitor);
            }
            wire::FIXNINT_MIN..=wire::FIXNINT_LAST => visitor.visit_i64(wire::fixnint_value(tag)),
        };
        result.map_err(|e: Error| e.at(start))
    }

    #[inline(always)]
    fn visit_str_literal<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let Some(len) = self.plain_str_len(len, start)? else {
            return self.visit_str_literal_dedup(start, len, visitor);
        };
        let at = self.read.offset();
        let result = match self.read.take(len) {
            Ok(Reference::Borrowed(b)) => visitor.visit_borrowed_str(utf8(b, at)?),
            Ok(Reference::Copied(b)) => visitor.visit_str(utf8(b, at)?),
            Err(e) => return Err(self.short_payload(Kind::Str, len, start, e)),
        };
        result.map_err(|e: Error| e.at(start))
    }

    #[inline]
    fn visit_bytes_literal<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let len = self.literal_len(Kind::Bytes, len, start)?;
        let result = match self.read.take(len) {
            Ok(Reference::Borrowed(b)) => visitor.visit_borrowed_bytes(b),
            Ok(Reference::Copied(b)) => visitor.visit_bytes(b),
            Err(e) => return Err(self.short_payload(Kind::Bytes, len, start, e)),
        };
        result.map_err(|e: Error| e.at(start))
    }

    /// [`deserialize_f32`](de::Deserializer::deserialize_f32) past its
    /// fast path: binary16, a reader's input, the end of the input, or
    /// another tag.
    #[inline(never)]
    fn f32_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        // binary16 and binary32 reach the visitor as `f32`, exactly.
        let start = self.read.offset();
        let tag = self.next_tag()?;
        // `F32` is tested first: a `match` let the compiler test `F16` first,
        // one more comparison on every binary32 value.
        let v = if tag == wire::F32 {
            f32::from_le_bytes(self.read.read_array()?)
        } else if tag == wire::F16 {
            float::f16_to_f32(u16::from_le_bytes(self.read.read_array()?))
        } else {
            return self.any_tag(start, tag, visitor);
        };
        visitor.visit_f32(v).map_err(|e: Error| e.at(start))
    }

    /// [`deserialize_f64`](de::Deserializer::deserialize_f64) past its
    /// fast path: a narrower form, a reader's input, the end of the input,
    /// or another tag.
    #[inline(never)]
    fn f64_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        // Narrow forms are widened here, on the bits: a visitor widening an
        // `f32` with `as` may quiet a signalling NaN (it does on x86-64).
        let v = match tag {
            wire::F64 => f64::from_le_bytes(self.read.read_array()?),
            wire::F32 => float::f32_to_f64(f32::from_le_bytes(self.read.read_array()?)),
            wire::F16 => float::f32_to_f64(float::f16_to_f32(u16::from_le_bytes(
                self.read.read_array()?,
            ))),
            _ => return self.any_tag(start, tag, visitor),
        };
        visitor.visit_f64(v).map_err(|e: Error| e.at(start))
    }

    /// The sequence whose tag was just read: an inline-length array
    /// (through [`visit_tuple`](Self::visit_tuple) with `TUPLE`, whose
    /// unsigned items take a fast path), a byte string read as a sequence,
    /// or any other value.
    #[inline(always)]
    fn seq_tag<const TUPLE: bool, V: Visitor<'de>>(
        &mut self,
        start: usize,
        tag: u8,
        visitor: V,
    ) -> Result<V::Value> {
        match tag {
            wire::FIXARRAY..=wire::FIXARRAY_LAST => {
                let len = Kind::Array.inline_len(tag);
                if TUPLE {
                    self.visit_tuple(start, len, visitor)
                } else {
                    self.visit_array(start, len, visitor)
                }
            }
            // A byte string read as a sequence, so `Vec<u8>` accepts native bytes.
            wire::BIN8..=wire::BIN_LAST => {
                let len = self.read_len(tag)?;
                let len = self.held_bytes_len(len, start)?;
                let span = match self.read.fill(len) {
                    Ok(span) => span,
                    Err(e) => return Err(self.short_payload(Kind::Bytes, len, start, e)),
                };
                let bytes = self.read.payload(span);
                visitor
                    .visit_seq(de::value::SeqDeserializer::new(bytes.iter().copied()))
                    .map_err(|e: Error| e.at(start))
            }
            _ => self.any_tag(start, tag, visitor),
        }
    }
}

macro_rules! deserialize_int {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.read.offset();
            let tag = self.next_tag()?;
            match tag {
                wire::FIXUINT..=wire::FIXUINT_MAX => visitor.visit_u64(tag.into()).map_err(|e: Error| e.at(start)),
                wire::UINT1..=wire::UINT_LAST => {
                    let v = self.read.read_le(wire::int_width(tag))?;
                    visitor.visit_u64(v).map_err(|e: Error| e.at(start))
                }
                wire::FIXNINT_MIN..=wire::FIXNINT_LAST => visitor.visit_i64(wire::fixnint_value(tag)).map_err(|e: Error| e.at(start)),
                wire::NINT1..=wire::NINT_LAST => {
                    let n = self.read.read_le(wire::int_width(tag))?;
                    match i64::try_from(n) {
                        Ok(n) => visitor.visit_i64(!n),
                        Err(_) => visitor.visit_i128(!i128::from(n)),
                    }
                    .map_err(|e: Error| e.at(start))
                }
                _ => self.any_tag(start, tag, visitor),
            }
        }
    )*};
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for &mut Deserializer<R> {
    type Error = Error;

    /// Unsigned integers are taken here; every other tag goes to
    /// [`any_tag`](Deserializer::any_tag). Kept this small so that a dynamic
    /// value's array and map loops inline it, and their most common scalar
    /// reaches the visitor without a call. Adding `null`, booleans or
    /// binary64 to it, or forcing it inline, stopped the inlining or lost
    /// the time (measured in `docs/spec.md`, design notes).
    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        match tag {
            wire::FIXUINT..=wire::FIXUINT_MAX => visitor
                .visit_u64(tag.into())
                .map_err(|e: Error| e.at(start)),
            wire::UINT1..=wire::UINT_LAST => {
                let v = self.read.read_le(wire::int_width(tag))?;
                visitor.visit_u64(v).map_err(|e: Error| e.at(start))
            }
            _ => self.any_tag(start, tag, visitor),
        }
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        match self.next_tag()? {
            wire::FALSE => visitor.visit_bool(false),
            wire::TRUE => visitor.visit_bool(true),
            tag => self.any_tag(start, tag, visitor),
        }
        .map_err(|e: Error| e.at(start))
    }

    deserialize_int!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64);

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    #[inline]
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // A binary32 value whose bytes are all in the buffer: small enough
        // that a sequence of `f32` (an `[f32; 3]`) inlines it.
        if let Some(bits) = self.read.eat_tagged4(wire::F32) {
            let start = self.read.offset() - 5;
            return visitor
                .visit_f32(f32::from_le_bytes(bits))
                .map_err(|e: Error| e.at(start));
        }
        self.f32_value(visitor)
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // As in `deserialize_f32`: a binary64 value whose bytes are all in
        // the buffer.
        if let Some(bits) = self.read.eat_tagged8(wire::F64) {
            let start = self.read.offset() - 9;
            return visitor
                .visit_f64(f64::from_le_bytes(bits))
                .map_err(|e: Error| e.at(start));
        }
        self.f64_value(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        if (wire::FIXSTR..=wire::FIXSTR_LAST).contains(&tag) {
            return self.visit_str_literal(start, Kind::Str.inline_len(tag), visitor);
        }
        // In a deduplicated document most repeated strings are references.
        if (wire::STR_REF1..=wire::STR_REF3).contains(&tag) {
            return self.visit_str_ref(start, tag, visitor);
        }
        self.any_tag(start, tag, visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        match self.peek_tag()? {
            wire::NULL => {
                self.read.next_u8()?;
                visitor.visit_none().map_err(|e: Error| e.at(start))
            }
            wire::SOME => {
                self.read.next_u8()?;
                let hint = self.open(start, 0)?;
                let result = visitor.visit_some(&mut *self);
                self.close(start, hint, result, 0)
            }
            _ => {
                // This `Some` consumes no byte, so a type such as
                // `struct N(Option<Box<N>>)` would recurse on one byte until
                // the stack ran out. `Some`s nested at one offset count
                // against the depth limit; a document's depth is unchanged.
                let (at, nested) = &mut self.implicit_some;
                *nested = if *at == start { *nested + 1 } else { 1 };
                *at = start;
                if *nested > self.opts.max_depth {
                    return Err(Error::new(
                        ErrorKind::DepthLimitExceeded(self.opts.max_depth),
                        start,
                    ));
                }
                visitor.visit_some(self)
            }
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        self.seq_tag::<false, V>(start, tag, visitor)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        self.seq_tag::<true, V>(start, tag, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        if (wire::FIXMAP..=wire::FIXMAP_LAST).contains(&tag) {
            return self.visit_map(start, Kind::Map.inline_len(tag), visitor);
        }
        self.any_tag(start, tag, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        if (wire::FIXMAP..=wire::FIXMAP_LAST).contains(&tag) {
            return self.visit_struct(start, Kind::Map.inline_len(tag), fields, visitor);
        }
        // In a deduplicated document of records, nearly every struct after
        // the first few is a shape reference: of one byte for the first
        // shapes, of two or three for the rest.
        if (wire::FIXSHAPE..=wire::FIXSHAPE_LAST).contains(&tag)
            || (wire::SHAPE_REF1..=wire::SHAPE_REF2).contains(&tag)
        {
            // A name starting with `$` marks a format's private struct (such
            // as toml's datetime), whose hand-written visitor takes a map
            // only. A derived struct's name is a constant: this folds away.
            if name.starts_with('$') {
                return self.visit_shape(start, tag, visitor);
            }
            return self.visit_struct_shape(start, tag, fields, visitor);
        }
        self.any_tag(start, tag, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        match tag {
            // A unit variant is its name; in a plain document a literal
            // needs no table slot, so it is taken directly.
            wire::FIXSTR..=wire::FIXSTR_LAST | wire::STR8..=wire::STR_LAST => {
                let len = self.header_len(Kind::Str, tag)?;
                let Some(len) = self.plain_str_len(len, start)? else {
                    return self.visit_enum_str_literal_dedup(start, len, visitor);
                };
                let at = self.read.offset();
                let result = match self.read.take(len) {
                    Ok(Reference::Borrowed(b)) => {
                        visitor.visit_enum(BorrowedStrDeserializer::new(utf8(b, at)?))
                    }
                    Ok(Reference::Copied(b)) => {
                        visitor.visit_enum(StrDeserializer::<Error>::new(utf8(b, at)?))
                    }
                    Err(e) => return Err(self.short_payload(Kind::Str, len, start, e)),
                };
                result.map_err(|e: Error| e.at(start))
            }
            // A unit variant is its name.
            wire::STR_REF1..=wire::STR_REF3 => self.visit_enum_str_ref(start, tag, visitor),
            // Other variants are a map of one entry: name to content.
            wire::FIXMAP..=wire::FIXMAP_LAST | wire::MAP8..=wire::MAP_LAST => {
                let len = self.header_len(Kind::Map, tag)?;
                self.visit_enum_map(start, len, visitor)
            }
            wire::FIXSHAPE..=wire::FIXSHAPE_LAST | wire::SHAPE_REF1..=wire::SHAPE_REF2 => {
                self.visit_enum_shape(start, tag, visitor)
            }
            _ => Err(Error::new(ErrorKind::NotAnEnum(tag), start)),
        }
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
