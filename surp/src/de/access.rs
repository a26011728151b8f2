//! Containers: arrays, maps and enums, each visited inside
//! [`Deserializer::open`] and [`Deserializer::close`], the limit steps
//! around every container.

use core::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, Visitor};

use super::Deserializer;
use super::item::Item;
use crate::dedup::ShapeCandidate;
use crate::error::{Error, ErrorKind, Result};
use crate::read::{Kept, Read, Reference};
use crate::wire::Kind;

use field_keys::FieldKeys;

mod field_keys;

impl<'de, R: Read<'de>> Deserializer<R> {
    #[inline(always)]
    pub(super) fn visit_array<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        self.visit_items::<false, V>(start, len, visitor)
    }

    /// [`visit_array`](Self::visit_array) for an array read as a tuple
    /// (`[T; N]`, `(A, B)`): its items go through [`Item`], whose unsigned
    /// integers take a fast path. Only tuples do: through `Item`, the items
    /// of a `Vec` of structs took more instructions and time.
    #[inline(always)]
    pub(super) fn visit_tuple<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        self.visit_items::<true, V>(start, len, visitor)
    }

    /// The array of `len` items at `start`, its items read directly or,
    /// with `ITEMS`, through [`Item`].
    #[inline]
    fn visit_items<const ITEMS: bool, V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let len = self.check_len(Kind::Array, len, start)?;
        let hint = self.open(start, len)?;
        let mut access = SeqAccess::<R, ITEMS> {
            de: self,
            left: len,
            hint,
        };
        let result = visitor.visit_seq(Entries(&mut access));
        let left = access.left;
        self.close(start, hint, result, left)
    }

    #[inline]
    pub(super) fn visit_map<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let len = self.check_len(Kind::Map, len, start)?;
        if self.dict.is_some() {
            return self.visit_explicit_map_dedup(start, len, visitor);
        }
        self.visit_entries(start, len, AnyKeys, visitor)
            .map(|(value, _)| value)
    }

    /// A struct written as a map: in a plain document its keys are first
    /// matched against the struct's field names (see [`FieldKeys`]).
    #[inline]
    pub(super) fn visit_struct<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let len = self.check_len(Kind::Map, len, start)?;
        if self.dict.is_some() {
            return self.visit_explicit_map_dedup(start, len, visitor);
        }
        // No size hint: a struct's visitor fills fields, not a collection,
        // and a derived one never asks. Reserving none lets the budget's
        // arithmetic fold away. Only this path (a plain document's struct
        // of at most 15 entries) does so; a longer one and a deduplicated
        // document's structs still reserve, which is harmless.
        let keys = FieldKeys::new(fields);
        self.visit_entries_hinted(start, len, 0, keys, visitor)
            .map(|(value, _)| value)
    }

    /// Visits a map of `len` entries whose keys `keys` reads, between
    /// `open` and `close`; gives `keys` back with what it learned.
    #[inline]
    pub(super) fn visit_entries<V: Visitor<'de>, K: Keys>(
        &mut self,
        start: usize,
        len: usize,
        keys: K,
        visitor: V,
    ) -> Result<(V::Value, K)> {
        self.visit_entries_hinted(start, len, len, keys, visitor)
    }

    /// [`visit_entries`](Self::visit_entries), reserving a size hint for
    /// at most `hint_items` of the entries.
    #[inline]
    fn visit_entries_hinted<V: Visitor<'de>, K: Keys>(
        &mut self,
        start: usize,
        len: usize,
        hint_items: usize,
        keys: K,
        visitor: V,
    ) -> Result<(V::Value, K)> {
        let hint = self.open(start, hint_items)?;
        let mut access = MapAccess {
            de: self,
            left: len,
            hint,
            keys,
        };
        let result = visitor.visit_map(Entries(&mut access));
        let (left, keys) = (access.left, access.keys);
        let value = self.close(start, hint, result, left)?;
        Ok((value, keys))
    }

    /// An enum variant with content, written as a map of `len` entries
    /// (which must be one): the variant name, then the content. In a
    /// deduplicated document the map may become a shape like any other.
    pub(super) fn visit_enum_map<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        if len != 1 {
            return Err(Error::new(ErrorKind::EnumMapLength(len), start));
        }
        self.check_len(Kind::Map, len, start)?;
        let header_size = self.read.offset() - start;
        let mark = self.dict.as_ref().map_or(0, |d| d.pending_mark());
        let hint = self.open(start, 0)?;
        let mut access = EnumAccess {
            de: self,
            shape: ShapeCandidate::new(len, header_size),
            variant_key: None,
        };
        let result = visitor.visit_enum(&mut access);
        let shape = access.shape;
        let value = self.close(start, hint, result, 0)?;
        if let Some(dict) = &mut self.dict {
            dict.end_explicit_map(mark, &shape);
        }
        Ok(value)
    }
}

/// The hint a collection gives its visitor: what it reserved from the
/// budget, never more than the items left; none if it reserved nothing.
#[inline]
fn size_hint(reserved: usize, left: usize) -> Option<usize> {
    (reserved > 0).then(|| reserved.min(left))
}

/// The next of `left` more items of a sequence (an array, or a struct's
/// values by position), read with `seed`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn next_item<'de, R: Read<'de>, T: DeserializeSeed<'de>>(
    de: &mut Deserializer<R>,
    left: &mut usize,
    seed: T,
) -> Result<Option<T::Value>> {
    next_item_as(de, left, seed, |de| de)
}

/// [`next_item`], read through the deserializer that `as_item` makes of
/// the decoder (a tuple's [`Item`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn next_item_as<'a, 'de, R, T, D>(
    de: &'a mut Deserializer<R>,
    left: &mut usize,
    seed: T,
    as_item: impl FnOnce(&'a mut Deserializer<R>) -> D,
) -> Result<Option<T::Value>>
where
    R: Read<'de>,
    T: DeserializeSeed<'de>,
    D: de::Deserializer<'de, Error = Error>,
{
    if *left == 0 {
        return Ok(None);
    }
    *left -= 1;
    let start = de.offset();
    // An error raised after the item was read (an untagged enum that
    // matched no variant) is placed at the item's start.
    seed.deserialize(as_item(de))
        .map(Some)
        .map_err(|e| e.at(start))
}

/// The items of an array; with `ITEMS`, read through [`Item`].
struct SeqAccess<'a, R, const ITEMS: bool> {
    de: &'a mut Deserializer<R>,
    left: usize,
    /// The size hint reserved from the deserializer's budget.
    hint: usize,
}

impl<'de, R: Read<'de>, const ITEMS: bool> de::SeqAccess<'de> for SeqAccess<'_, R, ITEMS> {
    type Error = Error;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if ITEMS {
            next_item_as(self.de, &mut self.left, seed, Item)
        } else {
            next_item(self.de, &mut self.left, seed)
        }
    }

    fn size_hint(&self) -> Option<usize> {
        size_hint(self.hint, self.left)
    }
}

/// How a map's keys are read: as any value ([`AnyKeys`]), recorded for a
/// possible shape (a deduplicated document's explicit map), or taken from
/// a shape (a shape reference). The values are read the same way by all.
pub(super) trait Keys {
    /// Reads the next key with `seed`.
    fn read_key<'de, R: Read<'de>, S: DeserializeSeed<'de>>(
        &mut self,
        de: &mut Deserializer<R>,
        seed: S,
    ) -> Result<S::Value>;
}

/// Keys of a plain document's map: any value.
pub(super) struct AnyKeys;

impl Keys for AnyKeys {
    #[inline]
    fn read_key<'de, R: Read<'de>, S: DeserializeSeed<'de>>(
        &mut self,
        de: &mut Deserializer<R>,
        seed: S,
    ) -> Result<S::Value> {
        seed.deserialize(de)
    }
}

/// A key whose text the decoder already has, given to the key's seed: a
/// field name that [`FieldKeys`] matched, or a key kept by a deduplicated
/// document's tables (a shape's key, or a key of an explicit map). It
/// answers every request as the decoder does for a string in the input
/// (not as serde's `BorrowedStrDeserializer`, which differs for `Option`,
/// newtype structs and `is_human_readable`), so a key type sees no
/// difference between a plain and a deduplicated document.
///
/// `T` is the text: a field name is always borrowed ([`Name`]), a kept key
/// is borrowed or, from a reader, copied (a [`Reference`]). The field name
/// has a type of its own so that the plain path's key, handed by value to
/// serde's field visitor, carries no variant to test.
pub(super) struct KeyStr<T> {
    text: T,
    /// How many more `Some`s may wrap the name: like the decoder's `Some`s
    /// that read no byte (`deserialize_option`), at most `max_depth` nest
    /// at one offset, so a type such as `struct K(Option<Box<K>>)` cannot
    /// recurse until the stack runs out.
    somes_left: usize,
    max_depth: usize,
}

impl<T> KeyStr<T> {
    #[inline]
    pub(super) fn new(text: T, max_depth: usize) -> Self {
        KeyStr {
            text,
            somes_left: max_depth,
            max_depth,
        }
    }
}

/// A field name, borrowed for as long as the input (it is `'static`).
pub(super) struct Name<'de>(&'de str);

/// A string the decoder already has (the text of a [`KeyStr`], or a string
/// kept by a deduplicated document's tables), handed to a visitor as a
/// string or as an enum's variant name.
pub(super) trait KeyText<'de> {
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value>;
    fn visit_enum<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value>;
}

impl<'de> KeyText<'de> for Name<'de> {
    #[inline]
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.0)
    }
    fn visit_enum<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_enum(BorrowedStrDeserializer::new(self.0))
    }
}

impl<'de> KeyText<'de> for Reference<'de, '_, str> {
    #[inline]
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Reference::Borrowed(s) => visitor.visit_borrowed_str(s),
            Reference::Copied(s) => visitor.visit_str(s),
        }
    }
    fn visit_enum<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Reference::Borrowed(s) => visitor.visit_enum(BorrowedStrDeserializer::new(s)),
            Reference::Copied(s) => visitor.visit_enum(StrDeserializer::<Error>::new(s)),
        }
    }
}

impl<'de, T: KeyText<'de>> de::Deserializer<'de> for KeyStr<T> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.text.visit(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let Some(somes_left) = self.somes_left.checked_sub(1) else {
            return Err(Error::without_offset(ErrorKind::DepthLimitExceeded(
                self.max_depth,
            )));
        };
        visitor.visit_some(KeyStr { somes_left, ..self })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.text.visit_enum(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier
    }
}

/// A struct's key that is not the expected field name: read like any
/// value, out of line so that the matched path stays small where it is
/// inlined.
#[inline(never)]
fn any_key<'de, R: Read<'de>, S: DeserializeSeed<'de>>(
    de: &mut Deserializer<R>,
    seed: S,
) -> Result<S::Value> {
    seed.deserialize(de)
}

/// A map of `left` more entries, whose keys are read by `K`.
struct MapAccess<'a, R, K> {
    de: &'a mut Deserializer<R>,
    left: usize,
    /// The size hint reserved from the deserializer's budget.
    hint: usize,
    keys: K,
}

impl<'de, R: Read<'de>, K: Keys> de::MapAccess<'de> for MapAccess<'_, R, K> {
    type Error = Error;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.keys.read_key(self.de, seed).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let start = self.de.offset();
        // As for elements: an error raised after the value was read is
        // placed at the value's start.
        seed.deserialize(&mut *self.de).map_err(|e| e.at(start))
    }

    fn size_hint(&self) -> Option<usize> {
        size_hint(self.hint, self.left)
    }
}

/// A map's or an array's access as its visitor gets it, by value: it
/// forwards to [`MapAccess`] or [`SeqAccess`], overriding the provided
/// methods a derived visitor calls (`next_key`, `next_value`,
/// `next_element`) so that they are forced inline, as is what they call.
/// serde's defaults and the `&mut A` forwarding that visitors were handed
/// before are calls per key the optimizer kept out of line, and such a
/// call (saving registers, returning the result through memory) costs
/// about as much as matching a field name. `next_entry` (what map types
/// such as `Value` and `HashMap` call) keeps serde's default: forced
/// inline, it makes their decoding slower, not faster. Not forced in
/// unoptimised builds, whose frames it would make too large for the depth
/// limit on a small stack.
pub(super) struct Entries<'b, A>(pub(super) &'b mut A);

impl<'de, R: Read<'de>, K: Keys> de::MapAccess<'de> for Entries<'_, MapAccess<'_, R, K>> {
    type Error = Error;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        self.0.next_key_seed(seed)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.0.next_value_seed(seed)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_key<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        self.0.next_key_seed(PhantomData)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_value<T: de::Deserialize<'de>>(&mut self) -> Result<T> {
        self.0.next_value_seed(PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, R: Read<'de>, const ITEMS: bool> de::SeqAccess<'de>
    for Entries<'_, SeqAccess<'_, R, ITEMS>>
{
    type Error = Error;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.0.next_element_seed(seed)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        self.0.next_element_seed(PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// An enum written as a one-entry map: the variant name, then its content.
pub(super) struct EnumAccess<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) shape: ShapeCandidate,
    /// The name, when it came from a shape rather than the input.
    pub(super) variant_key: Option<Kept>,
}

impl<'de, R: Read<'de>> de::EnumAccess<'de> for &mut EnumAccess<'_, R> {
    type Error = Error;
    type Variant = Self;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let start = self.de.read.offset();
        let value = match self.variant_key {
            Some(kept) => key_from_kept(self.de, start, kept, seed)?,
            None if self.de.dict.is_some() => self.de.dedup_key(&mut self.shape, seed)?,
            None => seed.deserialize(&mut *self.de)?,
        };
        Ok((value, self))
    }

    // What a derived enum calls; serde's default is a call per variant
    // that the optimizer keeps out of line (see `Entries`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn variant<V: de::Deserialize<'de>>(self) -> Result<(V, Self)> {
        self.variant_seed(PhantomData)
    }
}

impl<'de, R: Read<'de>> de::VariantAccess<'de> for &mut EnumAccess<'_, R> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn newtype_variant<T: de::Deserialize<'de>>(self) -> Result<T> {
        self.newtype_variant_seed(PhantomData)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
    }
}

/// Hands a string kept by the tables (valid UTF-8, checked when it was
/// kept) to a key seed, as the decoder would a string literal (see
/// [`KeyStr`]); `start` places serde's errors (the key's token).
#[inline]
pub(super) fn key_from_kept<'de, R: Read<'de>, K: DeserializeSeed<'de>>(
    de: &Deserializer<R>,
    start: usize,
    kept: Kept,
    seed: K,
) -> Result<K::Value> {
    let key = KeyStr::new(
        de.read.recall_str(kept, crate::read::RECALL),
        de.opts.max_depth,
    );
    seed.deserialize(key).map_err(|e: Error| e.at(start))
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use crate::error::{Category, ErrorKind};
    use crate::wire;

    #[derive(Deserialize, Debug)]
    enum Shape {
        Point,
        Circle(#[allow(dead_code)] u8),
    }

    #[test]
    fn an_enum_map_of_other_than_one_entry_is_a_typed_error() {
        let two = crate::to_vec(
            &[("Circle", 1), ("Point", 2)]
                .into_iter()
                .collect::<alloc::collections::BTreeMap<_, _>>(),
        )
        .unwrap();
        let e = crate::from_slice::<Shape>(&two).unwrap_err();
        assert_eq!(*e.kind(), ErrorKind::EnumMapLength(2));
        assert_eq!((e.offset(), e.classify()), (Some(0), Category::Data));
        let e = crate::from_slice::<Shape>(&[wire::FIXMAP]).unwrap_err();
        assert_eq!(*e.kind(), ErrorKind::EnumMapLength(0));
    }

    #[test]
    fn a_unit_variant_name_is_checked_like_any_string() {
        let e = crate::from_slice::<Shape>(b"\x82P\xff").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (&ErrorKind::InvalidUtf8, Some(2)));
        let e = crate::from_slice::<Shape>(b"\x85Poi").unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (
                &ErrorKind::LengthExceedsInput {
                    kind: wire::Kind::Str,
                    len: 5
                },
                Some(0)
            )
        );
        let e = crate::from_slice::<Vec<Shape>>(b"\xa2\x85Point\x84Line").unwrap_err();
        assert_eq!((e.classify(), e.offset()), (Category::Data, Some(7)));
        let mut reader = crate::Deserializer::from_reader(&b"\x85Point"[..]);
        assert!(matches!(
            serde::Deserialize::deserialize(&mut reader),
            Ok(Shape::Point)
        ));
    }

    #[test]
    fn a_value_that_is_neither_string_nor_map_is_not_an_enum() {
        let e = crate::from_slice::<Shape>(&[0, wire::TRUE]).unwrap_err();
        assert_eq!(*e.kind(), ErrorKind::NotAnEnum(0));
        let e = crate::from_slice::<Vec<Shape>>(&[
            wire::FIXARRAY | 2,
            wire::FIXSTR | 5,
            b'P',
            b'o',
            b'i',
            b'n',
            b't',
            wire::TRUE,
        ])
        .unwrap_err();
        assert_eq!(*e.kind(), ErrorKind::NotAnEnum(wire::TRUE));
        assert_eq!(e.offset(), Some(7));
        assert!(matches!(
            crate::from_slice::<Shape>(b"\x85Point"),
            Ok(Shape::Point)
        ));
    }
}
