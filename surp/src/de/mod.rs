//! The serde `Deserializer`: Surp bytes into any `Deserialize` type.
//!
//! The decoder is the security boundary of the crate, so each of its ideas
//! is written once, in its own file:
//!
//! - this file: the [`Deserializer`], its input and the limits of
//!   [`Options`] (depth, lengths, the allocation budget), checked before a
//!   declared length is acted on;
//! - `dispatch`: each `deserialize_*` method reads one tag byte and takes a
//!   fast path for the tags its type usually meets; everything else goes
//!   through `any_tag`, the one general dispatcher;
//! - `access`: arrays, maps and enums; every nested value is visited
//!   between `open` and `close` here, the limit steps around it;
//! - `item`: a tuple's items, with a fast path for unsigned integers;
//! - `dedup`: string and shape references of deduplicated documents;
//! - `tables`: this decoder's string and shape tables, filled by the rules
//!   in `crate::dedup`;
//! - `entry`: decoding one whole document ([`Options::from_slice`] and
//!   [`Options::from_reader`]), and the path and hint of a failed one;
//! - `skip`: skipping an ignored value, iteratively, so ignored data cannot
//!   exhaust the stack;

mod access;
mod dedup;
mod dispatch;
mod document;
mod entry;
mod item;
pub(crate) mod session;
mod skip;
mod stream;
mod tables;

pub use stream::{StreamDeserializer, take_from_slice};

use serde::de::IntoDeserializer;

use crate::error::{Error, ErrorKind, Result};
use crate::options::Options;
#[allow(unused_imports)]
use crate::prelude::*;
#[cfg(feature = "std")]
use crate::read::IoRead;
use crate::read::{Read, SliceRead};
use crate::wire::{self, Kind};
use tables::Dictionary;

/// A Surp deserializer over a slice ([`SliceRead`]) or a reader ([`IoRead`]).
///
/// Most code uses [`from_slice`](crate::from_slice) or
/// [`from_reader`](crate::from_reader). To decode documents that follow one
/// another in one input, use [`Deserializer::into_iter`]; build a
/// `Deserializer` yourself to call [`Deserializer::end`], or to decode
/// values one by one as below.
///
/// Each value decoded at the top level is a document of its own: its
/// deduplication tables, the strings a reader keeps for them and its
/// expansion budget start afresh, so a reference never reaches an earlier
/// document's table. (Decoding values one by one, a deduplicated document
/// whose root is an `Option` or an enum needs [`into_iter`](Self::into_iter),
/// which reads each document's marker before its root.)
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
    /// What references of the current document expanded to so far.
    expanded: usize,
    /// The expansion allowed at an offset already read: a lower bound of
    /// what is allowed now, as the allowance only grows with the offset, so
    /// a charge within it needs no recomputation (see `charge`).
    allowed: usize,
    dict: Option<Box<Dictionary>>,
    /// Where the current document starts (its marker, if any), and where
    /// its root value starts; `usize::MAX` before the first document. A tag
    /// read at depth 0 anywhere else starts the next document.
    doc_start: usize,
    doc_root: usize,
    /// String and byte-string lengths up to this need no check beyond the
    /// bounds check that takes them: the lesser of `max_len` and `max_alloc`.
    unchecked_len_max: u64,
    /// String literals shorter than this are taken directly, with no check
    /// beyond the bounds check: `unchecked_len_max + 1` in a plain
    /// document, 0 in a deduplicated one (whose literals go through the
    /// string table). One comparison then does the work of two on every
    /// key; `document.rs` keeps it in step with `dict`.
    plain_str_bound: u64,
    /// The offset of the latest `Some` read without a `some` tag, and how
    /// many such `Some`s are nested there (see `deserialize_option`).
    implicit_some: (usize, usize),
    /// Items that open collections may still promise to visitors as size
    /// hints. It starts at the input's length (zero for a reader), so the
    /// hints of all nested collections together never exceed the input, and
    /// neither does what visitors preallocate from them.
    hint_budget: usize,
    /// A reader's open arrays and maps, to report a truncated document as a
    /// slice does (see `document.rs`); always empty for a slice.
    claims: Vec<document::Claim>,
}

impl<'de> Deserializer<SliceRead<'de>> {
    /// Decodes from a slice, borrowing strings and bytes from it.
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer::from_slice_with_options(input, Options::new())
    }

    /// Decodes from a slice with the given limits.
    pub fn from_slice_with_options(input: &'de [u8], opts: Options) -> Self {
        let mut de = Deserializer::new(SliceRead::new(input), opts);
        de.start_slice_document();
        de
    }
}

#[cfg(feature = "std")]
impl<R: std::io::Read> Deserializer<IoRead<R>> {
    /// Decodes from a reader. Wrap unbuffered readers in a `BufReader`.
    pub fn from_reader(reader: R) -> Self {
        Deserializer::from_reader_with_options(reader, Options::new())
    }

    /// Decodes from a reader with the given limits.
    pub fn from_reader_with_options(reader: R, opts: Options) -> Self {
        Deserializer::new(IoRead::new(reader), opts)
    }

    /// Gives back the reader.
    pub fn into_inner(self) -> R {
        self.read.into_inner()
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    fn new(read: R, opts: Options) -> Self {
        let unchecked_len_max = opts.max_len.min(opts.max_alloc) as u64;
        let hint_budget = read.remaining().unwrap_or(0);
        Deserializer {
            read,
            opts,
            depth: 0,
            expanded: 0,
            allowed: 0,
            dict: None,
            doc_start: usize::MAX,
            doc_root: usize::MAX,
            unchecked_len_max,
            plain_str_bound: unchecked_len_max.saturating_add(1),
            implicit_some: (0, 0),
            hint_budget,
            claims: Vec::new(),
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

    #[inline]
    fn next_tag(&mut self) -> Result<u8> {
        self.read.next_u8()
    }

    #[inline]
    fn peek_tag(&mut self) -> Result<u8> {
        match self.read.peek()? {
            Some(tag) => Ok(tag),
            None => Err(Error::new(ErrorKind::UnexpectedEof, self.read.offset())),
        }
    }

    /// Opens a nested value (an array, a map, an enum, a `some` marker):
    /// the first half of the steps around every one, written once because
    /// they are what keeps hostile input in bounds. Entering counts against
    /// the depth limit, and a size hint for `len` items is reserved from the
    /// hint budget, so the hints of all open containers together never
    /// exceed the input. Returns the hint; every `open` is paired with a
    /// [`close`](Self::close) that gets it back.
    #[inline]
    fn open(&mut self, start: usize, len: usize) -> Result<usize> {
        if self.depth == 0 {
            self.new_root(start);
        }
        if self.depth >= self.opts.max_depth {
            return Err(Error::new(
                ErrorKind::DepthLimitExceeded(self.opts.max_depth),
                start,
            ));
        }
        self.depth += 1;
        let hint = len.min(self.hint_budget);
        self.hint_budget -= hint;
        Ok(hint)
    }

    /// Closes what [`open`](Self::open) opened at `start`, whose visitor
    /// gave `result` and left `left` items untaken: gives the hint back,
    /// restores the depth, rejects a container with items left over, and
    /// places errors that have no position yet at `start`.
    #[inline]
    fn close<T>(&mut self, start: usize, hint: usize, result: Result<T>, left: usize) -> Result<T> {
        self.hint_budget += hint;
        self.depth -= 1;
        let result = result.map_err(|e: Error| self.place_error(e, start));
        if self.read.remaining().is_none() {
            self.close_claims();
        }
        let value = result?;
        if left != 0 {
            return Err(Error::new(ErrorKind::TrailingItems(left as u64), start));
        }
        Ok(value)
    }

    /// Validates the declared count of an array or map against the limits
    /// and the input.
    #[inline]
    fn check_len(&mut self, kind: Kind, len: u64, start: usize) -> Result<usize> {
        // Every item takes at least one byte; a map entry at least two.
        let per_item = if kind == Kind::Map { 2 } else { 1 };
        let n = self.declared_len(kind, len, start, per_item, true)?;
        if self.read.remaining().is_none() {
            self.open_claim(kind, len, start, per_item);
        }
        Ok(n)
    }

    /// The checks on every declared length, in order: the `max_len` limit;
    /// with `in_input`, that a slice has at least `per_item` bytes left per
    /// item; and that it fits in memory.
    #[inline(always)]
    fn declared_len(
        &mut self,
        kind: Kind,
        len: u64,
        start: usize,
        per_item: usize,
        in_input: bool,
    ) -> Result<usize> {
        if len > self.opts.max_len as u64 {
            let limit = self.opts.max_len;
            return Err(Error::new(
                ErrorKind::LengthLimitExceeded { kind, len, limit },
                start,
            ));
        }
        let exceeds_input = || Error::new(ErrorKind::LengthExceedsInput { kind, len }, start);
        if in_input
            && let Some(rem) = self.read.remaining()
            && len > (rem / per_item) as u64
        {
            return Err(exceeds_input());
        }
        let Ok(n) = usize::try_from(len) else {
            return Err(exceeds_input());
        };
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

    /// The length of a string literal to take directly, or `None` in a
    /// deduplicated document, whose literals go through the string table.
    #[inline(always)]
    fn plain_str_len(&mut self, len: u64, start: usize) -> Result<Option<usize>> {
        if len < self.plain_str_bound {
            return Ok(Some(len as usize));
        }
        if self.dict.is_some() {
            return Ok(None);
        }
        self.literal_len_checked(Kind::Str, len, start).map(Some)
    }

    /// The checks of a string or byte string length that is not small
    /// enough to skip them; the input is checked when the bytes are taken.
    #[cold]
    fn literal_len_checked(&mut self, kind: Kind, len: u64, start: usize) -> Result<usize> {
        let n = self.declared_len(kind, len, start, 1, false)?;
        if n > self.opts.max_alloc {
            return Err(self.literal_over_max_alloc(kind, n, start));
        }
        Ok(n)
    }

    /// Why a payload could not be taken: the input ended before it did,
    /// which a slice knows up front and a reader finds at the end; both
    /// report the declared length at the payload's header.
    #[cold]
    fn short_payload(&self, kind: Kind, len: usize, start: usize, e: Error) -> Error {
        if self.read.remaining().is_some() || e.is_eof() {
            return Error::new(
                ErrorKind::LengthExceedsInput {
                    kind,
                    len: len as u64,
                },
                start,
            );
        }
        e
    }
}

impl<'de, R: Read<'de>> IntoDeserializer<'de, Error> for &'de mut Deserializer<R> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}
