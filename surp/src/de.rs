//! The serde `Deserializer`: Surp bytes into any `Deserialize` type.
//!
//! Each `deserialize_*` method reads one tag byte and takes a fast path for
//! the tags its type usually meets; everything else goes through
//! [`Deserializer::any_tag`], the one general dispatcher. Lengths are checked
//! against the remaining input and the configured [`Options`] before they
//! are acted on. Skipping an unknown value is iterative, so ignored data
//! cannot exhaust the stack.

use std::str;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use crate::dedup::Dictionary;
use crate::error::{Error, ErrorKind, Result};
use crate::float;
use crate::options::Options;
use crate::read::{IoRead, Read, Reference, SliceRead, Span};
use crate::wire::{self, Kind};

/// A Surp deserializer over a slice ([`SliceRead`]) or a reader ([`IoRead`]).
///
/// Most code uses [`from_slice`](crate::from_slice) or
/// [`from_reader`](crate::from_reader); build a `Deserializer` to decode
/// several values from one input, or to call [`Deserializer::end`] yourself.
///
/// ```
/// use serde::Deserialize;
///
/// # fn main() -> Result<(), surp::Error> {
/// let mut bytes = surp::to_vec(&1u8)?;
/// bytes.extend(surp::to_vec("two")?);
/// let mut de = surp::Deserializer::from_slice(&bytes);
/// assert_eq!(u8::deserialize(&mut de)?, 1);
/// assert_eq!(<&str>::deserialize(&mut de)?, "two");
/// de.end()?;
/// # Ok(()) }
/// ```
pub struct Deserializer<R> {
    read: R,
    opts: Options,
    depth: usize,
    budget: usize,
    dict: Option<Box<Dictionary>>,
    pending_start: bool,
    /// Whether literal payloads must be charged to the budget: not when the
    /// whole input is in memory and within `max_alloc`, because a plain
    /// document cannot expand beyond its own size.
    charge_literals: bool,
    /// String and byte-string lengths up to this need no check beyond the
    /// bounds check that takes them: `max_len`, or 0 when lengths are charged.
    unchecked_len_max: u64,
    /// The offset of the latest `Some` read without a `some` tag, and how
    /// many such `Some`s are nested there (see `deserialize_option`).
    implicit_some: (usize, usize),
    /// Items that open collections may still promise to visitors as size
    /// hints. It starts at the input's length (zero for a reader), so the
    /// hints of all nested collections together never exceed the input, and
    /// neither does what visitors preallocate from them.
    hint_budget: usize,
}

impl<'de> Deserializer<SliceRead<'de>> {
    /// Decodes from a slice, borrowing strings and bytes from it.
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer::from_slice_with_options(input, Options::new())
    }

    /// Decodes from a slice with the given limits.
    pub fn from_slice_with_options(input: &'de [u8], opts: Options) -> Self {
        let read = SliceRead::new(input);
        let marked = read.starts_with_marker();
        let mut de = Deserializer::new(read, opts);
        if marked {
            de.begin_dedup();
        }
        de
    }
}

impl<R: std::io::Read> Deserializer<IoRead<R>> {
    /// Decodes from a reader. Wrap unbuffered readers in a `BufReader`.
    pub fn from_reader(reader: R) -> Self {
        Deserializer::from_reader_with_options(reader, Options::new())
    }

    /// Decodes from a reader with the given limits.
    pub fn from_reader_with_options(reader: R, opts: Options) -> Self {
        let mut de = Deserializer::new(IoRead::new(reader), opts);
        de.pending_start = true;
        de
    }

    /// Gives back the reader.
    pub fn into_inner(self) -> R {
        self.read.into_inner()
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    fn new(read: R, opts: Options) -> Self {
        let budget = opts.max_alloc;
        let charge_literals = !read.is_within(budget);
        let opts_max_len = opts.max_len as u64;
        let hint_budget = read.remaining().unwrap_or(0);
        Deserializer {
            read,
            opts,
            depth: 0,
            budget,
            dict: None,
            pending_start: false,
            charge_literals,
            unchecked_len_max: if charge_literals { 0 } else { opts_max_len },
            implicit_some: (0, 0),
            hint_budget,
        }
    }

    /// Checks that the input has no bytes left after the values decoded so far.
    pub fn end(&mut self) -> Result<()> {
        match self.read.peek()? {
            None => Ok(()),
            Some(_) => Err(Error::new(ErrorKind::TrailingBytes, self.read.offset())),
        }
    }

    /// The offset of the next byte to be read.
    pub fn offset(&self) -> usize {
        self.read.offset()
    }

    #[cold]
    fn begin_dedup(&mut self) {
        // The marker is the first byte; it was only peeked.
        let _ = self.read.next_u8();
        self.dict = Some(Box::new(Dictionary::new(
            self.opts.max_dedup_strings,
            self.opts.max_dedup_shapes,
        )));
    }

    #[cold]
    fn start_document(&mut self) -> Result<()> {
        self.pending_start = false;
        if self.read.peek()? == Some(wire::DEDUP_MARKER) {
            self.begin_dedup();
        }
        Ok(())
    }

    #[inline]
    fn next_tag(&mut self) -> Result<u8> {
        if R::LAZY_START && self.pending_start {
            self.start_document()?;
        }
        self.read.next_u8()
    }

    #[inline]
    fn peek_tag(&mut self) -> Result<u8> {
        if R::LAZY_START && self.pending_start {
            self.start_document()?;
        }
        match self.read.peek()? {
            Some(tag) => Ok(tag),
            None => Err(Error::new(ErrorKind::UnexpectedEof, self.read.offset())),
        }
    }

    /// Takes a size hint for a collection of `len` items from the budget.
    #[inline]
    fn reserve_hint(&mut self, len: usize) -> usize {
        let hint = len.min(self.hint_budget);
        self.hint_budget -= hint;
        hint
    }

    #[inline]
    fn release_hint(&mut self, hint: usize) {
        self.hint_budget += hint;
    }

    #[inline]
    fn enter(&mut self, start: usize) -> Result<()> {
        if self.depth >= self.opts.max_depth {
            return Err(Error::new(
                ErrorKind::DepthLimitExceeded(self.opts.max_depth),
                start,
            ));
        }
        self.depth += 1;
        Ok(())
    }

    #[inline]
    fn leave(&mut self) {
        self.depth -= 1;
    }

    #[inline]
    fn charge(&mut self, amount: usize, start: usize) -> Result<()> {
        match self.budget.checked_sub(amount) {
            Some(left) => {
                self.budget = left;
                Ok(())
            }
            None => Err(Error::new(
                ErrorKind::AllocationLimitExceeded(self.opts.max_alloc),
                start,
            )),
        }
    }

    /// Validates a declared length against the limits and the input, and
    /// charges it to the allocation budget.
    #[inline]
    fn check_len(&mut self, kind: Kind, len: u64, start: usize) -> Result<usize> {
        // Every item takes at least one byte; a map entry at least two.
        let per_item = if kind == Kind::Map { 2 } else { 1 };
        if len > self.opts.max_len as u64 {
            return Err(Error::new(
                ErrorKind::LengthLimitExceeded {
                    kind,
                    len,
                    limit: self.opts.max_len,
                },
                start,
            ));
        }
        if let Some(rem) = self.read.remaining()
            && len > (rem / per_item) as u64
        {
            return Err(Error::new(
                ErrorKind::LengthExceedsInput { kind, len },
                start,
            ));
        }
        let Ok(n) = usize::try_from(len) else {
            return Err(Error::new(
                ErrorKind::LengthExceedsInput { kind, len },
                start,
            ));
        };
        if self.charge_literals {
            self.charge(n.saturating_mul(per_item), start)?;
        }
        Ok(n)
    }

    /// Reads the length that follows a length-class tag.
    #[inline]
    fn read_len(&mut self, tag: u8) -> Result<u64> {
        self.read.read_le(wire::length_class_width(tag))
    }

    /// The length a `kind` tag declares: in the tag for the inline forms,
    /// else in the bytes that follow.
    #[inline]
    fn header_len(&mut self, kind: Kind, tag: u8) -> Result<u64> {
        if tag < wire::STR8 {
            Ok(kind.inline_len(tag))
        } else {
            self.read_len(tag)
        }
    }

    /// The general dispatcher: decodes the value whose tag was just read.
    fn any_tag<V: Visitor<'de>>(&mut self, start: usize, tag: u8, visitor: V) -> Result<V::Value> {
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
            wire::FIXBIN..=wire::FIXBIN_LAST => {
                return self.visit_bytes_literal(start, Kind::Bytes.inline_len(tag), visitor);
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
                self.enter(start)?;
                let r = visitor.visit_some(&mut *self);
                self.leave();
                r
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
            wire::DEDUP_MARKER => return Err(Error::new(ErrorKind::MisplacedDedupMarker, start)),
            wire::STR_REF1..=wire::STR_REF3 => {
                let span = self.str_ref(start, tag)?;
                return self.visit_kept_str(start, span, visitor);
            }
            wire::SHAPE_REF1..=wire::SHAPE_REF2 => return self.visit_shape(start, tag, visitor),
            wire::FIXNINT_MIN..=wire::FIXNINT_LAST => visitor.visit_i64(wire::fixnint_value(tag)),
        };
        result.map_err(|e: Error| e.at(start))
    }

    #[cold]
    fn read_wide(&mut self, start: usize) -> Result<u128> {
        let width = self.read.next_u8()?;
        if !wire::WIDE_WIDTHS.contains(&width) {
            return Err(Error::new(ErrorKind::InvalidWideInteger(width), start));
        }
        let mut buf = [0u8; 16];
        self.read.read_into(&mut buf[..usize::from(width)])?;
        Ok(u128::from_le_bytes(buf))
    }

    /// Validates the declared length of a string or byte string.
    ///
    /// Whether the input holds that many bytes is checked when they are
    /// taken, in one bounds check.
    #[inline(always)]
    fn literal_len(&mut self, kind: Kind, len: u64, start: usize) -> Result<usize> {
        if len <= self.unchecked_len_max {
            return Ok(len as usize);
        }
        self.literal_len_checked(kind, len, start)
    }

    #[cold]
    fn literal_len_checked(&mut self, kind: Kind, len: u64, start: usize) -> Result<usize> {
        if len > self.opts.max_len as u64 {
            let limit = self.opts.max_len;
            return Err(Error::new(
                ErrorKind::LengthLimitExceeded { kind, len, limit },
                start,
            ));
        }
        let Ok(n) = usize::try_from(len) else {
            return Err(Error::new(
                ErrorKind::LengthExceedsInput { kind, len },
                start,
            ));
        };
        if self.charge_literals {
            self.charge(n, start)?;
        }
        Ok(n)
    }

    /// Why a payload could not be taken: a slice knows the declared length
    /// was too long; a reader only knows its input ended.
    #[cold]
    fn short_payload(&self, kind: Kind, len: usize, start: usize, e: Error) -> Error {
        match self.read.remaining() {
            Some(_) => Error::new(
                ErrorKind::LengthExceedsInput {
                    kind,
                    len: len as u64,
                },
                start,
            ),
            None => e,
        }
    }

    #[inline(always)]
    fn visit_str_literal<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        if self.dict.is_some() {
            return self.visit_str_literal_dedup(start, len, visitor);
        }
        let len = self.literal_len(Kind::Str, len, start)?;
        let at = self.read.offset();
        let result = match self.read.take(len) {
            Ok(Reference::Borrowed(b)) => visitor.visit_borrowed_str(utf8(b, at)?),
            Ok(Reference::Copied(b)) => visitor.visit_str(utf8(b, at)?),
            Err(e) => return Err(self.short_payload(Kind::Str, len, start, e)),
        };
        result.map_err(|e: Error| e.at(start))
    }

    /// Reads a string payload of a deduplicated document, giving it a table
    /// slot when it takes one; returns where it is and where it was kept.
    fn str_payload(&mut self, start: usize, len: u64) -> Result<(Span, Span)> {
        let len = self.literal_len(Kind::Str, len, start)?;
        let span = match self.read.fill(len) {
            Ok(span) => span,
            Err(e) => return Err(self.short_payload(Kind::Str, len, start, e)),
        };
        // Kept even when it takes no slot: a shape made from an explicit map
        // needs its keys.
        let kept = self.read.remember(span);
        if let Some(dict) = &mut self.dict
            && dict.takes_slot(len)
        {
            dict.push_string(kept);
        }
        Ok((span, kept))
    }

    #[cold]
    fn visit_str_literal_dedup<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let (span, _) = self.str_payload(start, len)?;
        let result = match self.read.payload(span) {
            Reference::Borrowed(b) => visitor.visit_borrowed_str(utf8(b, span.start)?),
            Reference::Copied(b) => visitor.visit_str(utf8(b, span.start)?),
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

    /// Resolves a string reference whose tag was just read.
    #[cold]
    fn str_ref(&mut self, start: usize, tag: u8) -> Result<Span> {
        let index = self.read.read_le(wire::str_ref_width(tag))? as u32;
        let Some(dict) = &self.dict else {
            return Err(Error::new(ErrorKind::RefWithoutMarker, start));
        };
        let Some(span) = dict.string(index) else {
            let (defined, limit) = (dict.strings_defined(), dict.string_limit());
            return Err(Error::new(
                ErrorKind::UnknownStringRef {
                    index,
                    defined,
                    limit,
                },
                start,
            ));
        };
        self.charge(span.len, start)?;
        Ok(span)
    }

    fn visit_kept_str<V: Visitor<'de>>(
        &mut self,
        start: usize,
        kept: Span,
        visitor: V,
    ) -> Result<V::Value> {
        let result = match self.read.recall(kept) {
            Reference::Borrowed(b) => visitor.visit_borrowed_str(utf8(b, start)?),
            Reference::Copied(b) => visitor.visit_str(utf8(b, start)?),
        };
        result.map_err(|e: Error| e.at(start))
    }

    #[inline]
    fn visit_array<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let len = self.check_len(Kind::Array, len, start)?;
        self.enter(start)?;
        let hint = self.reserve_hint(len);
        let mut access = SeqAccess {
            hint,
            de: self,
            left: len,
        };
        let result = visitor.visit_seq(&mut access);
        let left = access.left;
        self.release_hint(hint);
        self.leave();
        finish(result, left, start)
    }

    #[inline]
    fn visit_map<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u64,
        visitor: V,
    ) -> Result<V::Value> {
        let len = self.check_len(Kind::Map, len, start)?;
        self.enter(start)?;
        if self.dict.is_some() {
            return self.visit_explicit_map_dedup(start, len, visitor);
        }
        let hint = self.reserve_hint(len);
        let mut access = MapAccess {
            hint,
            de: self,
            left: len,
        };
        let result = visitor.visit_map(&mut access);
        let left = access.left;
        self.release_hint(hint);
        self.leave();
        finish(result, left, start)
    }

    /// An explicit map in a deduplicated document: its string keys are
    /// recorded, and at its end it may become a shape.
    #[cold]
    fn visit_explicit_map_dedup<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        let header_size = self.read.offset() - start;
        let mark = self.dict.as_ref().map_or(0, |d| d.pending_mark());
        let hint = self.reserve_hint(len);
        let mut access = DedupMapAccess {
            hint,
            de: self,
            left: len,
            shape: ShapeCandidate {
                eligible: len <= wire::MAX_SHAPE_KEYS,
                size: header_size,
            },
        };
        let result = visitor.visit_map(&mut access);
        let (left, shape) = (access.left, access.shape);
        self.release_hint(hint);
        self.leave();
        let value = finish(result, left, start)?;
        if let Some(dict) = &mut self.dict {
            dict.end_explicit_map(mark, shape.eligible, shape.size);
        }
        Ok(value)
    }

    /// Reads a map key of a deduplicated explicit map, recording it.
    fn dedup_key<K: DeserializeSeed<'de>>(
        &mut self,
        shape: &mut ShapeCandidate,
        seed: K,
    ) -> Result<K::Value> {
        let start = self.read.offset();
        let tag = self.peek_tag()?;
        let (kept, text_at) = match tag {
            wire::FIXSTR..=wire::FIXSTR_LAST | wire::STR8..=wire::STR_LAST => {
                self.read.next_u8()?;
                let len = self.header_len(Kind::Str, tag)?;
                let (span, kept) = self.str_payload(start, len)?;
                (kept, span.start)
            }
            wire::STR_REF1..=wire::STR_REF3 => {
                self.read.next_u8()?;
                (self.str_ref(start, tag)?, start)
            }
            _ => {
                shape.eligible = false;
                return seed.deserialize(&mut *self);
            }
        };
        shape.size += self.read.offset() - start;
        if shape.eligible
            && let Some(dict) = &mut self.dict
        {
            dict.push_pending_key(kept);
        }
        key_from_kept(&self.read, start, text_at, kept, seed)
    }

    /// A map written as a shape reference: keys from the shape, values inline.
    fn visit_shape<V: Visitor<'de>>(
        &mut self,
        start: usize,
        tag: u8,
        visitor: V,
    ) -> Result<V::Value> {
        let (first, count) = self.shape_ref(start, tag)?;
        self.enter(start)?;
        let hint = self.reserve_hint(count as usize);
        let mut access = ShapeMapAccess {
            hint,
            de: self,
            next: first,
            end: first + count,
            start,
        };
        let result = visitor.visit_map(&mut access);
        let left = (access.end - access.next) as usize;
        self.release_hint(hint);
        self.leave();
        finish(result, left, start)
    }

    #[cold]
    fn shape_ref(&mut self, start: usize, tag: u8) -> Result<(u32, u32)> {
        let index = self.read.read_le(wire::shape_ref_width(tag))? as u32;
        let Some(dict) = &self.dict else {
            return Err(Error::new(ErrorKind::RefWithoutMarker, start));
        };
        let Some((first, count)) = dict.shape(index) else {
            let (defined, limit) = (dict.shapes_defined(), dict.shape_limit());
            return Err(Error::new(
                ErrorKind::UnknownShapeRef {
                    index,
                    defined,
                    limit,
                },
                start,
            ));
        };
        let key_bytes: usize = (first..first + count)
            .map(|at| dict.shape_key(at).len)
            .sum();
        if count as usize > self.opts.max_len {
            let kind = Kind::Map;
            return Err(Error::new(
                ErrorKind::LengthLimitExceeded {
                    kind,
                    len: count.into(),
                    limit: self.opts.max_len,
                },
                start,
            ));
        }
        self.charge(key_bytes + 2 * count as usize, start)?;
        Ok((first, count))
    }

    /// Skips one value without building anything.
    ///
    /// Plain documents are skipped with a counter instead of recursion: no
    /// stack is used, so there is no depth to limit. Deduplicated documents
    /// must be walked in order, because skipped strings and maps still define
    /// table entries.
    fn skip_value(&mut self) -> Result<()> {
        if self.dict.is_some() {
            return de::Deserializer::deserialize_any(&mut *self, de::IgnoredAny).map(drop);
        }
        let mut pending: u64 = 1;
        while pending > 0 {
            pending -= 1;
            let start = self.read.offset();
            let tag = self.next_tag()?;
            if self.dict.is_some() {
                // A reader found the marker only now, at the first byte.
                return self.any_tag(start, tag, de::IgnoredAny).map(drop);
            }
            let (kind, len) = match tag {
                wire::FIXUINT..=wire::FIXUINT_MAX
                | wire::FIXNINT_MIN..=wire::FIXNINT_LAST
                | wire::NULL
                | wire::FALSE
                | wire::TRUE => continue,
                wire::SOME => {
                    pending += 1;
                    continue;
                }
                wire::FIXSTR..=wire::FIXSTR_LAST => (Kind::Str, Kind::Str.inline_len(tag)),
                wire::FIXARRAY..=wire::FIXARRAY_LAST => (Kind::Array, Kind::Array.inline_len(tag)),
                wire::FIXMAP..=wire::FIXMAP_LAST => (Kind::Map, Kind::Map.inline_len(tag)),
                wire::FIXBIN..=wire::FIXBIN_LAST => (Kind::Bytes, Kind::Bytes.inline_len(tag)),
                wire::STR8..=wire::STR_LAST => (Kind::Str, self.read_len(tag)?),
                wire::BIN8..=wire::BIN_LAST => (Kind::Bytes, self.read_len(tag)?),
                wire::ARRAY8..=wire::ARRAY_LAST => (Kind::Array, self.read_len(tag)?),
                wire::MAP8..=wire::MAP_LAST => (Kind::Map, self.read_len(tag)?),
                wire::UINT1..=wire::UINT_LAST => {
                    self.read.skip(wire::int_width(tag))?;
                    continue;
                }
                wire::NINT1..=wire::NINT_LAST => {
                    self.read.skip(wire::int_width(tag))?;
                    continue;
                }
                wire::F16 | wire::F32 | wire::F64 => {
                    self.read.skip(wire::float_width(tag))?;
                    continue;
                }
                wire::WIDE_UINT | wire::WIDE_NINT => {
                    self.read_wide(start)?;
                    continue;
                }
                wire::RESERVED => return Err(Error::new(ErrorKind::ReservedTag(tag), start)),
                wire::DEDUP_MARKER => {
                    return Err(Error::new(ErrorKind::MisplacedDedupMarker, start));
                }
                wire::STR_REF1..=wire::SHAPE_REF2 => {
                    return Err(Error::new(ErrorKind::RefWithoutMarker, start));
                }
            };
            if len > self.opts.max_len as u64 {
                let limit = self.opts.max_len;
                return Err(Error::new(
                    ErrorKind::LengthLimitExceeded { kind, len, limit },
                    start,
                ));
            }
            match kind {
                Kind::Str | Kind::Bytes => {
                    let Ok(len) = usize::try_from(len) else {
                        return Err(Error::new(
                            ErrorKind::LengthExceedsInput { kind, len },
                            start,
                        ));
                    };
                    self.read.skip(len)?;
                }
                Kind::Array | Kind::Map => {
                    let items = if kind == Kind::Map {
                        len.saturating_mul(2)
                    } else {
                        len
                    };
                    pending = pending.saturating_add(items);
                    // Each pending item needs at least one more byte.
                    if let Some(rem) = self.read.remaining()
                        && pending > rem as u64
                    {
                        return Err(Error::new(
                            ErrorKind::LengthExceedsInput { kind, len },
                            start,
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The hint a collection gives its visitor: what it reserved from the
/// budget, never more than the items left; none if it reserved nothing.
#[inline]
fn size_hint(reserved: usize, left: usize) -> Option<usize> {
    (reserved > 0).then(|| reserved.min(left))
}

/// Checks that a collection's visitor took every item, then places errors.
#[inline]
fn finish<T>(result: Result<T>, left: usize, start: usize) -> Result<T> {
    let value = result.map_err(|e: Error| e.at(start))?;
    if left != 0 {
        return Err(Error::new(ErrorKind::TrailingItems(left as u64), start));
    }
    Ok(value)
}

/// Whether every byte is below 0x80. Keys and short values are a few bytes
/// long, where `<[u8]>::is_ascii` loops byte by byte; two overlapping word
/// loads check up to 16 bytes at once.
#[inline]
fn is_ascii(bytes: &[u8]) -> bool {
    let n = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    match n {
        0 => true,
        1..=3 => (bytes[0] | bytes[n / 2] | bytes[n - 1]) < 0x80,
        4..=7 => (half(0) | half(n - 4)) & 0x8080_8080 == 0,
        8..=16 => (word(0) | word(n - 8)) & 0x8080_8080_8080_8080 == 0,
        _ => bytes.is_ascii(),
    }
}

/// Validates a string payload; `offset` is where it starts, for the error.
#[inline]
fn utf8(bytes: &[u8], offset: usize) -> Result<&str> {
    if is_ascii(bytes) {
        // SAFETY: every byte is below 0x80, and a sequence of ASCII bytes is
        // valid UTF-8. This skips `str::from_utf8`'s per-call setup, which
        // dominates on the short strings (keys, names) that most documents are
        // made of; tests in this module cover ASCII, non-ASCII and invalid
        // payloads of every length up to 64.
        #[allow(unsafe_code)]
        return Ok(unsafe { str::from_utf8_unchecked(bytes) });
    }
    str::from_utf8(bytes).map_err(|e| Error::new(ErrorKind::InvalidUtf8, offset + e.valid_up_to()))
}

/// Hands a string kept by the tables to a key seed.
///
/// `start` places serde's errors (the key's token); `text_at` is where the
/// text starts in the input, to place a UTF-8 error at its bad byte (for a
/// string that came from a table, the referring token).
fn key_from_kept<'de, R: Read<'de>, K: DeserializeSeed<'de>>(
    read: &R,
    start: usize,
    text_at: usize,
    kept: Span,
    seed: K,
) -> Result<K::Value> {
    let result = match read.recall(kept) {
        Reference::Borrowed(b) => seed.deserialize(BorrowedStrDeserializer::new(utf8(b, text_at)?)),
        Reference::Copied(b) => seed.deserialize(StrDeserializer::<Error>::new(utf8(b, text_at)?)),
    };
    result.map_err(|e: Error| e.at(start))
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

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.read.offset();
        let tag = self.next_tag()?;
        self.any_tag(start, tag, visitor)
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
        // binary16 and binary32 reach the visitor as `f32`, exactly.
        let start = self.read.offset();
        let tag = self.next_tag()?;
        let v = match tag {
            wire::F32 => f32::from_le_bytes(self.read.read_array()?),
            wire::F16 => float::f16_to_f32(u16::from_le_bytes(self.read.read_array()?)),
            _ => return self.any_tag(start, tag, visitor),
        };
        visitor.visit_f32(v).map_err(|e: Error| e.at(start))
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
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
                self.enter(start)?;
                let result = visitor.visit_some(&mut *self);
                self.leave();
                result.map_err(|e: Error| e.at(start))
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
        match tag {
            wire::FIXARRAY..=wire::FIXARRAY_LAST => {
                self.visit_array(start, Kind::Array.inline_len(tag), visitor)
            }
            // A byte string read as a sequence, so `Vec<u8>` accepts native bytes.
            wire::FIXBIN..=wire::FIXBIN_LAST | wire::BIN8..=wire::BIN_LAST => {
                let len = self.header_len(Kind::Bytes, tag)?;
                let len = self.check_len(Kind::Bytes, len, start)?;
                let span = self.read.fill(len)?;
                let bytes = self.read.payload(span);
                visitor
                    .visit_seq(de::value::SeqDeserializer::new(bytes.iter().copied()))
                    .map_err(|e: Error| e.at(start))
            }
            _ => self.any_tag(start, tag, visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
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
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
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
            // A unit variant is its name.
            wire::FIXSTR..=wire::FIXSTR_LAST
            | wire::STR8..=wire::STR_LAST
            | wire::STR_REF1..=wire::STR_REF3 => {
                // `at` places a UTF-8 error: the payload of a literal.
                let (name, at) = match tag {
                    wire::STR_REF1..=wire::STR_REF3 => {
                        let kept = self.str_ref(start, tag)?;
                        (self.read.recall(kept), start)
                    }
                    _ => {
                        let len = self.header_len(Kind::Str, tag)?;
                        let (span, _) = self.str_payload(start, len)?;
                        (self.read.payload(span), span.start)
                    }
                };
                let result = match name {
                    Reference::Borrowed(b) => {
                        visitor.visit_enum(BorrowedStrDeserializer::new(utf8(b, at)?))
                    }
                    Reference::Copied(b) => {
                        visitor.visit_enum(StrDeserializer::<Error>::new(utf8(b, at)?))
                    }
                };
                result.map_err(|e: Error| e.at(start))
            }
            // Other variants are a map of one entry: name to content.
            wire::FIXMAP..=wire::FIXMAP_LAST | wire::MAP8..=wire::MAP_LAST => {
                let len = self.header_len(Kind::Map, tag)?;
                if len != 1 {
                    return Err(Error::new(
                        ErrorKind::Message(format!(
                            "expected an enum variant, found a map of {len} entries"
                        )),
                        start,
                    ));
                }
                self.check_len(Kind::Map, len, start)?;
                self.enter(start)?;
                let header_size = self.read.offset() - start;
                let mark = self.dict.as_ref().map_or(0, |d| d.pending_mark());
                let shape = ShapeCandidate {
                    eligible: true,
                    size: header_size,
                };
                let mut access = EnumAccess {
                    de: self,
                    shape,
                    variant_key: None,
                };
                let result = visitor.visit_enum(&mut access);
                let shape = access.shape;
                self.leave();
                let value = result.map_err(|e: Error| e.at(start))?;
                if let Some(dict) = &mut self.dict {
                    dict.end_explicit_map(mark, shape.eligible, shape.size);
                }
                Ok(value)
            }
            wire::SHAPE_REF1..=wire::SHAPE_REF2 => {
                let (first, count) = self.shape_ref(start, tag)?;
                if count != 1 {
                    return Err(Error::new(
                        ErrorKind::Message(format!(
                            "expected an enum variant, found a map of {count} entries"
                        )),
                        start,
                    ));
                }
                self.enter(start)?;
                let key = self.dict.as_ref().map(|d| d.shape_key(first));
                let shape = ShapeCandidate {
                    eligible: false,
                    size: 0,
                };
                let mut access = EnumAccess {
                    de: self,
                    shape,
                    variant_key: key,
                };
                let result = visitor.visit_enum(&mut access);
                self.leave();
                result.map_err(|e: Error| e.at(start))
            }
            _ => {
                let found =
                    ErrorKind::Message(format!("expected an enum variant, found tag {tag:#04x}"));
                Err(Error::new(found, start))
            }
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

struct SeqAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    left: usize,
    /// The size hint reserved from the deserializer's budget.
    hint: usize,
}

impl<'de, R: Read<'de>> de::SeqAccess<'de> for SeqAccess<'_, R> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        size_hint(self.hint, self.left)
    }
}

struct MapAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    left: usize,
    hint: usize,
}

impl<'de, R: Read<'de>> de::MapAccess<'de> for MapAccess<'_, R> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        size_hint(self.hint, self.left)
    }
}

/// What is known so far about whether an explicit map becomes a shape.
#[derive(Clone, Copy)]
struct ShapeCandidate {
    /// Every key so far was a string, and the map is small enough.
    eligible: bool,
    /// Bytes of the map's header and keys so far.
    size: usize,
}

struct DedupMapAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    left: usize,
    hint: usize,
    shape: ShapeCandidate,
}

impl<'de, R: Read<'de>> de::MapAccess<'de> for DedupMapAccess<'_, R> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.de.dedup_key(&mut self.shape, seed).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        size_hint(self.hint, self.left)
    }
}

struct ShapeMapAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    hint: usize,
    next: u32,
    end: u32,
    start: usize,
}

impl<'de, R: Read<'de>> de::MapAccess<'de> for ShapeMapAccess<'_, R> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.next == self.end {
            return Ok(None);
        }
        let Some(dict) = &self.de.dict else {
            unreachable!("shape references need a dictionary")
        };
        let kept = dict.shape_key(self.next);
        self.next += 1;
        key_from_kept(&self.de.read, self.start, self.start, kept, seed).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        size_hint(self.hint, (self.end - self.next) as usize)
    }
}

/// An enum written as a one-entry map: the variant name, then its content.
struct EnumAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    shape: ShapeCandidate,
    /// The name, when it came from a shape rather than the input.
    variant_key: Option<Span>,
}

impl<'de, R: Read<'de>> de::EnumAccess<'de> for &mut EnumAccess<'_, R> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let start = self.de.read.offset();
        let value = match self.variant_key {
            Some(kept) => key_from_kept(&self.de.read, start, start, kept, seed)?,
            None if self.de.dict.is_some() => self.de.dedup_key(&mut self.shape, seed)?,
            None => seed.deserialize(&mut *self.de)?,
        };
        Ok((value, self))
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

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_map(&mut *self.de, visitor)
    }
}

impl<'de, R: Read<'de>> IntoDeserializer<'de, Error> for &'de mut Deserializer<R> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `utf8` takes an unchecked fast path for ASCII; it must agree with
    /// `str::from_utf8` on every input, including invalid bytes at every
    /// position of payloads of every length the fast path sees in practice.
    #[test]
    fn utf8_fast_path_agrees_with_the_standard_library() {
        let samples: [&[u8]; 6] = [
            b"a",
            "\u{e9}".as_bytes(),
            "\u{20ac}".as_bytes(),
            "\u{1f600}".as_bytes(),
            &[0xff],
            &[0xc3],
        ];
        for len in 0..=64 {
            for sample in samples {
                for at in 0..=len {
                    let mut bytes = vec![b'x'; len];
                    bytes.splice(at.min(len)..at.min(len), sample.iter().copied());
                    let expected = str::from_utf8(&bytes).map_err(|e| e.valid_up_to());
                    let actual = utf8(&bytes, 100).map_err(|e| e.offset().unwrap() - 100);
                    assert_eq!(actual, expected, "{bytes:02x?}");
                }
            }
        }
    }

    #[test]
    fn invalid_utf8_reports_the_offset_of_the_bad_byte() {
        let err = crate::from_slice::<&str>(b"\x83a\xffb").unwrap_err();
        assert_eq!(*err.kind(), ErrorKind::InvalidUtf8);
        assert_eq!(err.offset(), Some(2));
    }
}
