//! Decoding deduplicated documents: string literals that take table slots,
//! string and shape references, and explicit maps that become shapes.
//!
//! The tables themselves, and the rules for what enters them, are in
//! [`crate::dedup`]; this file only feeds them from the input and hands what
//! they hold to serde. None of it runs for a plain document.

use core::marker::PhantomData;
use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};

use serde::de::{self, DeserializeSeed, Visitor};

use super::Deserializer;
use super::access::{AnyKeys, Entries, EnumAccess, KeyText, Keys, key_from_kept, next_item};
use super::tables::FieldsSeen;
use crate::dedup::ShapeCandidate;
use crate::error::{Error, ErrorKind, Result};
use crate::read::{Kept, Read, Reference, Span};
use crate::utf8::utf8;
use crate::wire::{self, Kind};

impl<'de, R: Read<'de>> Deserializer<R> {
    /// Reads a string payload, and in a deduplicated document gives it a
    /// table slot when it takes one; returns where it is and, if it was
    /// kept (validated once, here), where. A `key` is kept even when it
    /// takes no slot: a shape made from an explicit map needs its keys.
    pub(super) fn str_payload(
        &mut self,
        start: usize,
        len: u64,
        key: bool,
    ) -> Result<(Span, Option<Kept>)> {
        let len = self.literal_len(Kind::Str, len, start)?;
        let span = match self.read.fill(len) {
            Ok(span) => span,
            Err(e) => return Err(self.short_payload(Kind::Str, len, start, e)),
        };
        if self.depth == 0 && self.dict.is_some() {
            // A root string: the tables may be an earlier document's.
            self.new_root(start);
        }
        let Some(dict) = &self.dict else {
            return Ok((span, None));
        };
        let slot = dict.takes_slot(len);
        if !slot && !key {
            return Ok((span, None));
        }
        let kept = self.read.remember_str(span)?;
        if slot && let Some(dict) = &mut self.dict {
            dict.push_string(kept);
        }
        Ok((span, Some(kept)))
    }

    #[cold]
    pub(super) fn visit_str_literal_dedup<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let (span, kept) = self.str_payload(start, len, false)?;
        if let Some(kept) = kept {
            return self.visit_kept_str(start, kept, visitor);
        }
        let result = match self.read.payload(span) {
            Reference::Borrowed(b) => visitor.visit_borrowed_str(utf8(b, span.start)?),
            Reference::Copied(b) => visitor.visit_str(utf8(b, span.start)?),
        };
        result.map_err(|e: Error| e.at(start))
    }

    /// Resolves a string reference whose tag was just read. Inline: in a
    /// deduplicated document of records, most strings are references.
    /// Not forced in unoptimised builds, whose frames it would make too
    /// large for the depth limit on a small stack.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn str_ref(&mut self, start: usize, tag: u8) -> Result<Kept> {
        if self.depth == 0 {
            self.new_root(start);
        }
        let index = self.read.read_le(wire::str_ref_width(tag))? as u32;
        let span = self.dict.as_ref().and_then(|dict| dict.string(index));
        let Some(span) = span else {
            return Err(self.bad_ref(start, Table::Strings, index));
        };
        self.charge(span.len, start)?;
        Ok(span)
    }

    pub(super) fn visit_kept_str<V: Visitor<'de>>(
        &mut self,
        start: usize,
        kept: Kept,
        visitor: V,
    ) -> Result<V::Value> {
        // Kept strings were validated when kept: a reference costs O(1).
        let result = self
            .read
            .recall_str(kept, crate::read::RECALL)
            .visit(visitor);
        result.map_err(|e: Error| e.at(start))
    }

    /// A string written as a reference, whose tag was just read.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn visit_str_ref<V: Visitor<'de>>(
        &mut self,
        start: usize,
        tag: u8,
        visitor: V,
    ) -> Result<V::Value> {
        let kept = self.str_ref(start, tag)?;
        self.visit_kept_str(start, kept, visitor)
    }

    /// A unit enum variant written as a string reference.
    pub(super) fn visit_enum_str_ref<V: Visitor<'de>>(
        &mut self,
        start: usize,
        tag: u8,
        visitor: V,
    ) -> Result<V::Value> {
        let kept = self.str_ref(start, tag)?;
        let result = self
            .read
            .recall_str(kept, crate::read::RECALL)
            .visit_enum(visitor);
        result.map_err(|e: Error| e.at(start))
    }

    /// A unit enum variant written as a string literal of `len` bytes in a
    /// deduplicated document, where it may take a table slot.
    pub(super) fn visit_enum_str_literal_dedup<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let (span, _) = self.str_payload(start, len, false)?;
        // `span.start` places a UTF-8 error: the payload of the literal.
        let result = match self.read.payload(span) {
            Reference::Borrowed(b) => {
                visitor.visit_enum(BorrowedStrDeserializer::new(utf8(b, span.start)?))
            }
            Reference::Copied(b) => {
                visitor.visit_enum(StrDeserializer::<Error>::new(utf8(b, span.start)?))
            }
        };
        result.map_err(|e: Error| e.at(start))
    }

    /// An explicit map in a deduplicated document: its string keys are
    /// recorded, and at its end it may become a shape.
    #[cold]
    pub(super) fn visit_explicit_map_dedup<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        if self.depth == 0 {
            // A root map: the tables may be an earlier document's.
            self.new_root(start);
            if self.dict.is_none() {
                return self
                    .visit_entries(start, len, AnyKeys, visitor)
                    .map(|(value, _)| value);
            }
        }
        let header_size = self.read.offset() - start;
        let mark = self.dict.as_ref().map_or(0, |d| d.pending_mark());
        let keys = ShapeCandidate::new(len as u64, header_size);
        let (value, shape) = self.visit_entries(start, len, keys, visitor)?;
        if let Some(dict) = &mut self.dict {
            dict.end_explicit_map(mark, &shape);
        }
        Ok(value)
    }

    /// Reads a map key of a deduplicated explicit map, recording it.
    pub(super) fn dedup_key<K: DeserializeSeed<'de>>(
        &mut self,
        shape: &mut ShapeCandidate,
        seed: K,
    ) -> Result<K::Value> {
        let start = self.read.offset();
        let tag = self.peek_tag()?;
        let kept = match tag {
            wire::FIXSTR..=wire::FIXSTR_LAST | wire::STR8..=wire::STR_LAST => {
                self.read.next_u8()?;
                let len = self.header_len(Kind::Str, tag)?;
                match self.str_payload(start, len, true)? {
                    (_, Some(kept)) => kept,
                    (_, None) => unreachable!("a key of a deduplicated document is kept"),
                }
            }
            wire::STR_REF1..=wire::STR_REF3 => {
                self.read.next_u8()?;
                self.str_ref(start, tag)?
            }
            _ => {
                shape.other_key();
                return seed.deserialize(&mut *self);
            }
        };
        if shape.string_key(self.read.offset() - start)
            && let Some(dict) = &mut self.dict
        {
            dict.push_pending_key(kept);
        }
        key_from_kept(self, start, kept, seed)
    }

    /// A map written as a shape reference: keys from the shape, values inline.
    pub(super) fn visit_shape<V: Visitor<'de>>(
        &mut self,
        start: usize,
        tag: u8,
        visitor: V,
    ) -> Result<V::Value> {
        let (_, first, count) = self.shape_ref(start, tag)?;
        let keys = ShapeKeys { next: first, start };
        self.visit_entries(start, count as usize, keys, visitor)
            .map(|(value, _)| value)
    }

    /// A struct written as a shape reference, for `deserialize_struct`.
    ///
    /// When the shape's keys are the struct's `fields`, in order, and
    /// [`Options::positional_structs`](crate::Options::positional_structs)
    /// is on, its values go to the visitor as a sequence, which a derived
    /// visitor reads field by field with no key to match; otherwise as a
    /// map, like any shape. Whether the keys are the fields is found once
    /// per shape and field list, then cached ([`FieldsSeen`]).
    ///
    /// Out of line: inlined into `deserialize_struct`, it slows the structs
    /// of plain documents, which never come here, more than it speeds up
    /// deduplicated ones.
    #[inline(never)]
    pub(super) fn visit_struct_shape<V: Visitor<'de>>(
        &mut self,
        start: usize,
        tag: u8,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (index, first, count) = self.shape_ref(start, tag)?;
        if self.opts.positional_structs && self.shape_is_fields(index, fields) {
            return self.visit_positional(start, count as usize, visitor);
        }
        let keys = ShapeKeys { next: first, start };
        self.visit_entries(start, count as usize, keys, visitor)
            .map(|(value, _)| value)
    }

    /// A struct whose values are handed to its visitor as a sequence of
    /// `len`, in the order of its fields (see `visit_struct_shape`). Like
    /// [`visit_struct`](Self::visit_struct), it reserves no size hint.
    #[inline]
    fn visit_positional<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        let hint = self.open(start, 0)?;
        let mut access = FieldValues {
            de: self,
            left: len,
        };
        let result = visitor.visit_seq(Entries(&mut access));
        let left = access.left;
        if result.is_err() || left != 0 {
            return self.positional_failed(start, hint, result, left, len);
        }
        // Failures take a cold path: closing the struct and then adding the
        // hint here would enlarge the path every struct takes.
        self.close(start, hint, result, 0)
    }

    /// [`visit_positional`](Self::visit_positional) for a visitor that
    /// failed or left values: closes the struct and adds the hint.
    #[cold]
    #[inline(never)]
    fn positional_failed<T>(
        &mut self,
        start: usize,
        hint: usize,
        result: Result<T>,
        left: usize,
        len: usize,
    ) -> Result<T> {
        let mut result = self.close(start, hint, result, left);
        if let Err(e) = &mut result {
            positional_hint(e, left == len);
        }
        result
    }

    /// Are the keys of shape `index` (which exists) `fields`, in order?
    #[inline]
    fn shape_is_fields(&mut self, index: u32, fields: &'static [&'static str]) -> bool {
        let Some(dict) = &mut self.dict else {
            return false;
        };
        let seen = dict.fields_seen(index);
        if seen.is(fields) {
            return seen.equal;
        }
        self.compare_shape_with_fields(index, fields)
    }

    /// Compares the keys of shape `index` with a field list not seen
    /// with it last, and caches the answer.
    #[cold]
    #[inline(never)]
    fn compare_shape_with_fields(&mut self, index: u32, fields: &'static [&'static str]) -> bool {
        let Some(dict) = &mut self.dict else {
            return false;
        };
        let keys = dict.shape_keys(index);
        let equal = keys.len() == fields.len()
            && keys.iter().zip(fields).all(|(&key, field)| {
                let key: &str = match self.read.recall_str(key, crate::read::RECALL) {
                    Reference::Borrowed(s) => s,
                    Reference::Copied(s) => s,
                };
                key == *field
            });
        *dict.fields_seen(index) = FieldsSeen { fields, equal };
        equal
    }

    /// An enum variant with content, written as a shape reference: the
    /// shape's one key is the variant name, the one value its content.
    pub(super) fn visit_enum_shape<V: Visitor<'de>>(
        &mut self,
        start: usize,
        tag: u8,
        visitor: V,
    ) -> Result<V::Value> {
        let (_, first, count) = self.shape_ref(start, tag)?;
        if count != 1 {
            return Err(Error::new(ErrorKind::EnumMapLength(count.into()), start));
        }
        let variant_key = self.dict.as_ref().map(|d| d.shape_key(first));
        let hint = self.open(start, 0)?;
        let mut access = EnumAccess {
            de: self,
            shape: ShapeCandidate::never(),
            variant_key,
        };
        let result = visitor.visit_enum(&mut access);
        self.close(start, hint, result, 0)
    }

    /// Resolves a shape reference whose tag was just read: the shape's
    /// index, and the range of its keys in the shape table. Inline: in a
    /// document of records it is read for nearly every struct.
    /// Not forced in unoptimised builds, whose frames it would make too
    /// large for the depth limit on a small stack.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn shape_ref(&mut self, start: usize, tag: u8) -> Result<(u32, u32, u32)> {
        if self.depth == 0 {
            self.new_root(start);
        }
        let index = match wire::shape_ref_width(tag) {
            0 => wire::fixshape_index(tag),
            width => self.read.read_le(width)? as u32,
        };
        let shape = self.dict.as_ref().and_then(|dict| dict.shape(index));
        let Some(shape) = shape else {
            return Err(self.bad_ref(start, Table::Shapes, index));
        };
        // A shape was an explicit map of this document, whose length passed
        // `max_len`; checked again, as it costs one comparison.
        if shape.count as usize > self.opts.max_len {
            return Err(self.shape_over_max_len(start, shape.count));
        }
        self.charge(shape.expansion, start)?;
        Ok((index, shape.first, shape.count))
    }

    /// The error for a reference to entry `index` of a table, which the
    /// document has not defined (or, in a plain document, cannot).
    #[cold]
    fn bad_ref(&self, start: usize, table: Table, index: u32) -> Error {
        let Some(dict) = &self.dict else {
            return Error::new(ErrorKind::RefWithoutMarker, start);
        };
        let kind = match table {
            Table::Strings => ErrorKind::UnknownStringRef {
                index,
                defined: dict.strings_defined(),
                limit: dict.max_dedup_strings(),
            },
            Table::Shapes => ErrorKind::UnknownShapeRef {
                index,
                defined: dict.shapes_defined(),
                limit: dict.max_dedup_shapes(),
            },
        };
        Error::new(kind, start)
    }

    #[cold]
    fn shape_over_max_len(&self, start: usize, count: u32) -> Error {
        Error::new(
            ErrorKind::LengthLimitExceeded {
                kind: Kind::Map,
                len: count.into(),
                limit: self.opts.max_len,
            },
            start,
        )
    }
}

/// An error from a struct read by position: if its visitor refused a
/// sequence (a hand-written visitor with no `visit_seq`; it took no value,
/// `took_none`) or read fewer values than the struct has fields, says why
/// it got one and how to turn that off. The `TrailingItems` check is also
/// what keeps a struct holding both a field's name and its alias (serde
/// lists both among the fields, so its keys can equal them) from decoding
/// into a wrong value: its visitor reads one value per field, fewer than
/// the keys, and the rest is an error, as "duplicate field" is for a map.
#[cold]
fn positional_hint(e: &mut Error, took_none: bool) {
    let refused = match e.kind() {
        ErrorKind::Message(msg) => took_none && msg.starts_with("invalid type: sequence"),
        ErrorKind::TrailingItems(_) => true,
        _ => false,
    };
    if refused {
        e.set_hint(
            "a deduplicated document hands a struct whose keys are its fields, \
             in order, to `visit_seq`, one value per field; for a visitor that \
             cannot take them so, decode with \
             `surp::Options::new().positional_structs(false)`",
        );
    }
}

/// The values of a struct visited positionally, in the order of its fields.
///
/// A type of its own rather than the arrays' `SeqAccess`, so that a
/// struct visitor's `visit_seq` for it has one caller (`visit_positional`),
/// and is inlined there as its `visit_map` is into the map paths; shared
/// with arrays, it stayed out of line and returned each struct through
/// memory.
struct FieldValues<'a, R> {
    de: &'a mut Deserializer<R>,
    left: usize,
}

impl<'de, R: Read<'de>> de::SeqAccess<'de> for Entries<'_, FieldValues<'_, R>> {
    type Error = Error;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let access = &mut *self.0;
        next_item(access.de, &mut access.left, seed)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        self.next_element_seed(PhantomData)
    }

    /// None: a struct reserves no size hint.
    fn size_hint(&self) -> Option<usize> {
        None
    }
}

/// The table a reference points into.
#[derive(Clone, Copy)]
enum Table {
    Strings,
    Shapes,
}

/// Keys of an explicit map in a deduplicated document: each one read from
/// the input and recorded, so that the map may become a shape.
impl Keys for ShapeCandidate {
    #[inline]
    fn read_key<'de, R: Read<'de>, S: DeserializeSeed<'de>>(
        &mut self,
        de: &mut Deserializer<R>,
        seed: S,
    ) -> Result<S::Value> {
        de.dedup_key(self, seed)
    }
}

/// Keys of a map written as a shape reference: taken from the shape table,
/// in order, from key `next` on; `start` is the reference's offset.
struct ShapeKeys {
    next: u32,
    start: usize,
}

impl Keys for ShapeKeys {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_key<'de, R: Read<'de>, S: DeserializeSeed<'de>>(
        &mut self,
        de: &mut Deserializer<R>,
        seed: S,
    ) -> Result<S::Value> {
        let Some(dict) = &de.dict else {
            unreachable!("shape references need a dictionary")
        };
        let kept = dict.shape_key(self.next);
        self.next += 1;
        key_from_kept(de, self.start, kept, seed)
    }
}
