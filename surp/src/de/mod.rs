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
//! - `dedup`: string and shape references of deduplicated documents, on
//!   top of the tables in [`crate::dedup`];
//! - `skip`: skipping an ignored value, iteratively, so ignored data cannot
//!   exhaust the stack;
//! - `utf8`: validating string payloads.

mod access;
mod dedup;
mod dispatch;
mod skip;
mod utf8;

use serde::de::IntoDeserializer;

use crate::dedup::Dictionary;
use crate::error::{Error, ErrorKind, Result};
use crate::options::Options;
use crate::read::{IoRead, Read, SliceRead};
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

    /// Opens a nested value (an array, a map, an enum, a `some` marker):
    /// the first half of the steps around every one, written once because
    /// they are what keeps hostile input in bounds. Entering counts against
    /// the depth limit, and a size hint for `len` items is reserved from the
    /// hint budget, so the hints of all open containers together never
    /// exceed the input. Returns the hint; every `open` is paired with a
    /// [`close`](Self::close) that gets it back.
    #[inline]
    fn open(&mut self, start: usize, len: usize) -> Result<usize> {
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
        let value = result.map_err(|e: Error| e.at(start))?;
        if left != 0 {
            return Err(Error::new(ErrorKind::TrailingItems(left as u64), start));
        }
        Ok(value)
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

    /// Validates the declared count of an array or map against the limits
    /// and the input, and charges it to the allocation budget.
    #[inline]
    fn check_len(&mut self, kind: Kind, len: u64, start: usize) -> Result<usize> {
        // Every item takes at least one byte; a map entry at least two.
        let per_item = if kind == Kind::Map { 2 } else { 1 };
        self.declared_len(kind, len, start, per_item, true)
    }

    /// The checks on every declared length, in order: the `max_len` limit;
    /// with `in_input`, that a slice has at least `per_item` bytes left per
    /// item; that it fits in memory; and, when literals are charged, the
    /// allocation budget for `per_item` bytes an item.
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

    /// The checks of a string or byte string length that is not small
    /// enough to skip them; the input is checked when the bytes are taken.
    #[cold]
    fn literal_len_checked(&mut self, kind: Kind, len: u64, start: usize) -> Result<usize> {
        self.declared_len(kind, len, start, 1, false)
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
}

impl<'de, R: Read<'de>> IntoDeserializer<'de, Error> for &'de mut Deserializer<R> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}
