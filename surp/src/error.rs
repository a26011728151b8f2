//! Errors: a kind, the byte offset where decoding stopped, and a sentence.

#[allow(unused_imports)]
use alloc::format;
use core::fmt::{self, Display};

use crate::kind::Kind;
#[allow(unused_imports)]
use crate::prelude::*;

/// A `Result` whose error is a Surp [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// An encoding or decoding error.
///
/// Decoding errors carry the byte offset at which the problem was found.
/// `Display` gives a sentence such as
/// `invalid UTF-8 in a string at byte 17`.
///
/// The error is one pointer wide, so `Result<T, Error>` stays small on the
/// hot path.
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    kind: ErrorKind,
    offset: Option<usize>,
    /// Where in the value the error was found (`orders[3].email`), when a
    /// slice decode could tell.
    path: Option<String>,
    /// A hint about what may have caused the error, such as that the input
    /// looks like JSON.
    hint: Option<&'static str>,
}

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value.
    UnexpectedEof,
    /// A tag byte that this version of Surp reserves.
    ReservedTag(u8),
    /// A string that is not valid UTF-8.
    InvalidUtf8,
    /// A wide integer whose length byte is outside 9 to 16.
    InvalidWideInteger(u8),
    /// A negative integer below `i128::MIN`.
    IntegerOutOfRange,
    /// Nesting deeper than the configured limit.
    DepthLimitExceeded(usize),
    /// A declared length larger than the remaining input could hold.
    LengthExceedsInput {
        /// What the length is of.
        kind: Kind,
        /// The declared length.
        len: u64,
    },
    /// A declared length above the configured `max_len`.
    LengthLimitExceeded {
        /// What the length is of.
        kind: Kind,
        /// The declared length.
        len: u64,
        /// The configured limit.
        limit: usize,
    },
    /// A frame (`surp::frame`) longer than the reader's limit, or a
    /// document too long for a frame's 4-byte length.
    FrameTooLong {
        /// The frame's length.
        len: u64,
        /// The limit: the reader's `max_len`, or `u32::MAX` when writing.
        limit: usize,
    },
    /// The document would expand beyond the configured `max_alloc`.
    AllocationLimitExceeded(usize),
    /// Bytes left over after a complete value.
    TrailingBytes,
    /// A collection had more items than the type being decoded accepts.
    TrailingItems(u64),
    /// The deduplication marker anywhere but at the start of a document.
    MisplacedDedupMarker,
    /// A reference to a string table slot that does not exist (yet), or
    /// lies beyond the table size this decoder allows.
    UnknownStringRef {
        /// The referenced slot.
        index: u32,
        /// Slots defined so far.
        defined: usize,
        /// The most slots this decoder keeps (`Options::max_dedup_strings`).
        limit: usize,
    },
    /// A reference to a shape that does not exist (yet), or lies beyond the
    /// number of shapes this decoder allows.
    UnknownShapeRef {
        /// The referenced shape.
        index: u32,
        /// Shapes defined so far.
        defined: usize,
        /// The most shapes this decoder keeps (`Options::max_dedup_shapes`).
        limit: usize,
    },
    /// A deduplication reference in a document that has no marker.
    RefWithoutMarker,
    /// An I/O error from the reader or writer.
    #[cfg(feature = "std")]
    Io(std::io::Error),
    /// The output buffer has no room left.
    OutputFull,
    /// An enum was expected, but the value is a map of other than one
    /// entry (an enum variant with content is a map of one entry).
    EnumMapLength(u64),
    /// An enum was expected, but the value is neither a string (a unit
    /// variant) nor a map (a variant with content); the tag byte is given.
    NotAnEnum(u8),
    /// A serializer was told a collection's length up front, then given a
    /// different number of items.
    LengthMismatch {
        /// What the length is of.
        kind: Kind,
        /// The length declared up front.
        declared: usize,
        /// The number of items serialized.
        written: usize,
    },
    /// A message from serde: a type mismatch, a missing field, a custom error.
    Message(String),
    /// A session or dictionary document that breaks the rules of
    /// `docs/spec.md` section 9, or does not fit the session's state.
    Session(SessionError),
}

/// What is wrong with a session or dictionary document (`docs/spec.md`
/// section 9).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SessionError {
    /// A plain or deduplicated document where a session document was
    /// expected.
    NotASessionDocument,
    /// A session prefix followed by a kind byte that no version defines.
    UnknownKind(u8),
    /// A session header of a version this decoder does not read.
    UnsupportedVersion(u8),
    /// A header's dictionary flag is neither 0 nor 1.
    InvalidFlag(u8),
    /// A message or dictionary document before the session's header, or a
    /// document that is not a header where one was expected.
    MissingHeader,
    /// A session header where a message was expected: a session has one.
    UnexpectedHeader,
    /// A message's number is not an unsigned integer (the tag is given).
    InvalidSequence(u8),
    /// A message out of order: lost, reordered, replayed or from another
    /// session.
    Sequence {
        /// The number the decoder expected.
        expected: u64,
        /// The number the message carries.
        found: u64,
    },
    /// A message after one that failed to decode: the tables are in no
    /// known state until a reset message.
    Broken,
    /// A header asks for a larger budget than the decoder accepts.
    BudgetTooLarge {
        /// Which part: string slots, shapes or bytes.
        what: &'static str,
        /// What the header asks for.
        asked: u64,
        /// The most the decoder accepts.
        limit: u64,
    },
    /// A document written with another dictionary, with one the decoder
    /// does not have, or without the one the decoder was given.
    WrongDictionary {
        /// The id of the decoder's dictionary, if it has one.
        expected: Option<u64>,
        /// The id the document carries, if any.
        found: Option<u64>,
    },
    /// A dictionary that breaks a rule of section 9.2.
    InvalidDictionary(String),
    /// The encoder's message numbers are exhausted (2^64 messages).
    SequenceExhausted,
}

impl Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SessionError::*;
        match self {
            NotASessionDocument => {
                f.write_str("not a session document (a session document starts with 0xf1)")
            }
            UnknownKind(kind) => write!(f, "unknown session document kind {kind:#04x}"),
            UnsupportedVersion(v) => write!(f, "session version {v} is not supported (only 1)"),
            InvalidFlag(flag) => write!(f, "session header flag {flag:#04x} is neither 0 nor 1"),
            MissingHeader => f.write_str("a session starts with its header"),
            UnexpectedHeader => f.write_str("a second session header in one session"),
            InvalidSequence(tag) => write!(
                f,
                "session message number is not an unsigned integer (tag {tag:#04x})"
            ),
            Sequence { expected, found } => write!(
                f,
                "session message {found} where message {expected} was expected \
                 (a message was lost, reordered or replayed, or is from another session)"
            ),
            Broken => f.write_str(
                "session message after one that failed to decode: \
                 the session continues only from a reset message",
            ),
            BudgetTooLarge { what, asked, limit } => write!(
                f,
                "session asks for {asked} {what}, more than the limit of {limit}"
            ),
            WrongDictionary { expected, found } => {
                let id = |id: &Option<u64>| match id {
                    Some(id) => format!("dictionary {id:016x}"),
                    None => "no dictionary".to_owned(),
                };
                write!(
                    f,
                    "document written with {}, but the decoder has {}",
                    id(found),
                    id(expected)
                )
            }
            InvalidDictionary(why) => write!(f, "invalid dictionary: {why}"),
            SequenceExhausted => f.write_str("session message numbers exhausted"),
        }
    }
}

/// The broad class of an error, from [`Error::classify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Reading or writing failed: an I/O error, or a full output buffer.
    Io,
    /// The input is not a valid Surp document: a reserved tag, invalid
    /// UTF-8, a reference to a table entry that does not exist, bytes after
    /// the value, or a limit of [`Options`](crate::Options) exceeded.
    Syntax,
    /// The input is valid Surp, but not a value of the type being decoded
    /// (or the value being encoded does not fit the data model).
    Data,
    /// The input ended before the value did: a truncated document, or the
    /// end of a stream. More input might complete it.
    Eof,
}

/// Kinds are equal when their variants and fields are; two `Io` errors are
/// equal when their [`io::ErrorKind`](std::io::ErrorKind)s are, since
/// `io::Error` itself has no equality.
// Not derived because of `io::Error`. The match is on `self` alone, with no
// wildcard arm, so that a new variant does not compile until it is handled.
impl PartialEq for ErrorKind {
    fn eq(&self, other: &Self) -> bool {
        use ErrorKind::*;
        match self {
            UnexpectedEof => matches!(other, UnexpectedEof),
            ReservedTag(a) => matches!(other, ReservedTag(b) if a == b),
            InvalidUtf8 => matches!(other, InvalidUtf8),
            InvalidWideInteger(a) => matches!(other, InvalidWideInteger(b) if a == b),
            IntegerOutOfRange => matches!(other, IntegerOutOfRange),
            DepthLimitExceeded(a) => matches!(other, DepthLimitExceeded(b) if a == b),
            LengthExceedsInput { kind, len } => {
                matches!(other, LengthExceedsInput { kind: k, len: l } if (kind, len) == (k, l))
            }
            LengthLimitExceeded { kind, len, limit } => matches!(
                other,
                LengthLimitExceeded { kind: k, len: l, limit: m } if (kind, len, limit) == (k, l, m)
            ),
            FrameTooLong { len, limit } => {
                matches!(other, FrameTooLong { len: l, limit: m } if (len, limit) == (l, m))
            }
            AllocationLimitExceeded(a) => matches!(other, AllocationLimitExceeded(b) if a == b),
            TrailingBytes => matches!(other, TrailingBytes),
            TrailingItems(a) => matches!(other, TrailingItems(b) if a == b),
            MisplacedDedupMarker => matches!(other, MisplacedDedupMarker),
            UnknownStringRef {
                index,
                defined,
                limit,
            } => matches!(
                other,
                UnknownStringRef { index: i, defined: d, limit: l }
                    if (index, defined, limit) == (i, d, l)
            ),
            UnknownShapeRef {
                index,
                defined,
                limit,
            } => matches!(
                other,
                UnknownShapeRef { index: i, defined: d, limit: l }
                    if (index, defined, limit) == (i, d, l)
            ),
            RefWithoutMarker => matches!(other, RefWithoutMarker),
            #[cfg(feature = "std")]
            Io(a) => matches!(other, Io(b) if a.kind() == b.kind()),
            OutputFull => matches!(other, OutputFull),
            EnumMapLength(a) => matches!(other, EnumMapLength(b) if a == b),
            NotAnEnum(a) => matches!(other, NotAnEnum(b) if a == b),
            LengthMismatch {
                kind,
                declared,
                written,
            } => matches!(
                other,
                LengthMismatch { kind: k, declared: d, written: w }
                    if (kind, declared, written) == (k, d, w)
            ),
            Message(a) => matches!(other, Message(b) if a == b),
            Session(a) => matches!(other, Session(b) if a == b),
        }
    }
}

impl Error {
    /// An error of `kind` found at byte `offset` of the input.
    // Never inlined: building the error is the rare path, and its size must
    // not count against inlining the hot code that can fail.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> Error {
        Error(Box::new(ErrorImpl {
            kind,
            offset: Some(offset),
            path: None,
            hint: None,
        }))
    }

    /// An error with no input position (encoding errors, serde messages).
    #[cold]
    #[inline(never)]
    pub(crate) fn without_offset(kind: ErrorKind) -> Error {
        Error(Box::new(ErrorImpl {
            kind,
            offset: None,
            path: None,
            hint: None,
        }))
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The byte offset in the input where decoding stopped, if known.
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// The same error for a document at byte `start` of a larger input (a
    /// stream's frame): its offset and message then name the whole's byte.
    ///
    /// ```
    /// let mut stream = surp::to_vec(&"first").unwrap();
    /// let second = stream.len();
    /// stream.extend_from_slice(&surp::to_vec(&["a", "b"]).unwrap()[..2]); // cut short
    /// let err = surp::from_slice::<Vec<String>>(&stream[second..]).unwrap_err();
    /// let (inside, err) = (err.offset().unwrap(), err.shifted(second));
    /// assert_eq!(err.offset(), Some(second + inside));
    /// assert!(err.to_string().contains(&format!("at byte {}", second + inside)));
    /// ```
    #[must_use]
    pub fn shifted(mut self, start: usize) -> Error {
        if let Some(offset) = &mut self.0.offset {
            *offset = offset.saturating_add(start);
        }
        self
    }

    /// Where in the decoded value the error was found, in the notation
    /// `field.list[3].name` (a map key that is not a string shows as `?`).
    ///
    /// Set by [`from_slice`](crate::from_slice) and
    /// [`Options::from_slice`](crate::Options::from_slice), which decode the
    /// input a second time, tracking the path, only after an error, so that
    /// successful decoding costs nothing extra. `None` for errors at the
    /// root, for errors nested deeper than 32 containers (the second pass
    /// stops there, so that it needs no more stack than the first), for
    /// encoding errors and for readers (a reader cannot be read twice).
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Order { customer: Customer }
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Customer { email: String }
    ///
    /// let bytes = surp::to_vec(&serde_json::json!(
    ///     [{"customer": {"email": "a@example.com"}}, {"customer": {"email": 1200}}]
    /// )).unwrap();
    /// let err = surp::from_slice::<Vec<Order>>(&bytes).unwrap_err();
    /// assert_eq!(err.path(), Some("[1].customer.email"));
    /// assert!(err.to_string().ends_with("in [1].customer.email"), "{err}");
    /// ```
    pub fn path(&self) -> Option<&str> {
        self.0.path.as_deref()
    }

    #[cfg(feature = "error-path")]
    #[cold]
    pub(crate) fn with_path(mut self, path: String) -> Error {
        self.0.path = Some(path);
        self
    }

    #[cold]
    pub(crate) fn with_hint(mut self, hint: &'static str) -> Error {
        self.set_hint(hint);
        self
    }

    #[cold]
    pub(crate) fn set_hint(&mut self, hint: &'static str) {
        self.0.hint = Some(hint);
    }

    /// Places an error that has no position yet (a serde message) at `offset`.
    #[cold]
    pub(crate) fn at(mut self, offset: usize) -> Error {
        if self.0.offset.is_none() {
            self.0.offset = Some(offset);
        }
        self
    }

    /// Did the input end inside a value ([`ErrorKind::UnexpectedEof`])?
    ///
    /// Not true of I/O errors. A slice whose declared length runs past its
    /// end gives [`ErrorKind::LengthExceedsInput`] instead; `classify()`
    /// puts both in [`Category::Eof`].
    pub fn is_eof(&self) -> bool {
        matches!(self.0.kind, ErrorKind::UnexpectedEof)
    }

    /// The broad class of this error, to tell a cut-off document
    /// ([`Category::Eof`]) from a malformed one ([`Category::Syntax`]), a
    /// type mismatch ([`Category::Data`]) or a failed read or write
    /// ([`Category::Io`]).
    ///
    /// ```
    /// use surp::error::Category;
    ///
    /// let bytes = surp::to_vec(&["a", "b"]).unwrap();
    /// let cut = surp::from_slice::<Vec<String>>(&bytes[..2]).unwrap_err();
    /// assert_eq!(cut.classify(), Category::Eof);
    /// let wrong = surp::from_slice::<u8>(&bytes).unwrap_err();
    /// assert_eq!(wrong.classify(), Category::Data);
    /// ```
    pub fn classify(&self) -> Category {
        use ErrorKind::*;
        match self.0.kind {
            #[cfg(feature = "std")]
            Io(_) => Category::Io,
            OutputFull => Category::Io,
            UnexpectedEof | LengthExceedsInput { .. } => Category::Eof,
            ReservedTag(_)
            | InvalidUtf8
            | InvalidWideInteger(_)
            | DepthLimitExceeded(_)
            | LengthLimitExceeded { .. }
            | FrameTooLong { .. }
            | AllocationLimitExceeded(_)
            | TrailingBytes
            | MisplacedDedupMarker
            | UnknownStringRef { .. }
            | UnknownShapeRef { .. }
            | RefWithoutMarker
            | Session(_) => Category::Syntax,
            IntegerOutOfRange
            | TrailingItems(_)
            | EnumMapLength(_)
            | NotAnEnum(_)
            | LengthMismatch { .. }
            | Message(_) => Category::Data,
        }
    }
}

impl Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind::*;
        match self {
            UnexpectedEof => f.write_str("unexpected end of input"),
            ReservedTag(tag) => write!(f, "reserved tag byte {tag:#04x}"),
            InvalidUtf8 => f.write_str("invalid UTF-8 in a string"),
            InvalidWideInteger(n) => write!(
                f,
                "wide integer with invalid length {n} (expected 9 to 16 bytes)"
            ),
            IntegerOutOfRange => f.write_str("negative integer below the 128-bit range"),
            DepthLimitExceeded(limit) => write!(f, "nesting deeper than the limit of {limit}"),
            LengthExceedsInput { kind, len } => {
                let unit = match kind {
                    Kind::Str | Kind::Bytes => "bytes",
                    Kind::Array => "items",
                    Kind::Map => "entries",
                };
                write!(
                    f,
                    "{} declares {len} {unit} but the input is too short to hold them",
                    kind.noun()
                )
            }
            LengthLimitExceeded { kind, len, limit } => {
                write!(
                    f,
                    "{} of length {len} exceeds the configured limit of {limit}",
                    kind.noun()
                )
            }
            FrameTooLong { len, limit } => {
                write!(f, "frame of length {len} exceeds the limit of {limit}")
            }
            AllocationLimitExceeded(limit) => {
                write!(
                    f,
                    "document expands beyond the allocation limit of {limit} bytes"
                )
            }
            TrailingBytes => f.write_str("trailing bytes after the value"),
            TrailingItems(n) => write!(f, "{n} more items than the type accepts"),
            MisplacedDedupMarker => {
                f.write_str("deduplication marker is only allowed at the start of a document")
            }
            UnknownStringRef {
                index,
                defined,
                limit,
            } => unknown_ref(
                f,
                ("string slot", "slot", "Options::max_dedup_strings"),
                *index,
                *defined,
                *limit,
            ),
            UnknownShapeRef {
                index,
                defined,
                limit,
            } => unknown_ref(
                f,
                ("shape", "shape", "Options::max_dedup_shapes"),
                *index,
                *defined,
                *limit,
            ),
            RefWithoutMarker => f.write_str(
                "deduplication reference in a document without the deduplication marker",
            ),
            #[cfg(feature = "std")]
            Io(e) => write!(f, "I/O error: {e}"),
            OutputFull => f.write_str("the output buffer is full"),
            EnumMapLength(n) => {
                write!(f, "expected an enum variant, found a map of {n} entries")
            }
            NotAnEnum(tag) => write!(f, "expected an enum variant, found tag {tag:#04x}"),
            LengthMismatch {
                kind,
                declared,
                written,
            } => write!(
                f,
                "a {} declared {declared} items but {written} were serialized",
                kind.noun()
            ),
            Message(msg) => f.write_str(msg),
            Session(e) => Display::fmt(e, f),
        }
    }
}

/// The message of a reference to a table entry that does not exist: past
/// what the document has defined so far, or past this decoder's limit.
fn unknown_ref(
    f: &mut fmt::Formatter<'_>,
    (what, unit, option): (&str, &str, &str),
    index: u32,
    defined: usize,
    limit: usize,
) -> fmt::Result {
    if index as usize >= limit {
        let s = if limit == 1 { "" } else { "s" };
        return write!(
            f,
            "reference to {what} {index}, beyond this decoder's limit of {limit} {unit}{s} ({option})"
        );
    }
    match defined {
        0 => write!(f, "reference to {what} {index}, but none is defined yet"),
        1 => write!(f, "reference to {what} {index}, but only 1 is defined"),
        n => write!(f, "reference to {what} {index}, but only {n} are defined"),
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.offset {
            Some(offset) => write!(f, "{} at byte {offset}", self.0.kind)?,
            None => Display::fmt(&self.0.kind, f)?,
        }
        if let Some(path) = &self.0.path {
            write!(f, ", in {}", Elided(path))?;
        }
        if let Some(hint) = self.0.hint {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

/// A path as a message shows it: a very long one (a value nested a hundred
/// levels deep) keeps its start and end, with the middle elided;
/// [`Error::path`] has all of it.
struct Elided<'a>(&'a str);

impl Display for Elided<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const HEAD: usize = 40;
        const TAIL: usize = 40;
        let chars = self.0.chars().count();
        if chars <= HEAD + TAIL + 10 {
            return f.write_str(self.0);
        }
        let head: String = self.0.chars().take(HEAD).collect();
        let tail: String = self.0.chars().skip(chars - TAIL).collect();
        write!(f, "{head}...{tail} ({} characters)", chars)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.0.kind)
            .field("offset", &self.0.offset)
            .field("path", &self.0.path)
            .finish()
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.0.kind {
            #[cfg(feature = "std")]
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl serde::ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error::without_offset(ErrorKind::Message(msg.to_string()))
    }
}

impl serde::de::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error::without_offset(ErrorKind::Message(msg.to_string()))
    }
}

/// An I/O error whose kind follows [`Error::classify`]: an I/O error from
/// the reader or writer is returned as it was, a full output buffer is
/// [`WriteZero`](std::io::ErrorKind::WriteZero), [`Category::Eof`] is
/// [`UnexpectedEof`](std::io::ErrorKind::UnexpectedEof), and
/// [`Category::Syntax`] and [`Category::Data`] are
/// [`InvalidData`](std::io::ErrorKind::InvalidData). The Surp error, with
/// its offset and path, is the new I/O error's inner error.
///
/// ```
/// let bytes = surp::to_vec(&["a", "b"]).unwrap();
/// let cut = surp::from_slice::<Vec<String>>(&bytes[..2]).unwrap_err();
/// assert_eq!(std::io::Error::from(cut).kind(), std::io::ErrorKind::UnexpectedEof);
/// ```
#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    fn from(e: Error) -> std::io::Error {
        use std::io::ErrorKind as Io;
        if let ErrorKind::Io(io) = e.0.kind {
            return io;
        }
        let kind = match e.classify() {
            // A write that could not complete (a full output buffer), as
            // `Write for &mut [u8]` reports it.
            Category::Io => Io::WriteZero,
            Category::Eof => Io::UnexpectedEof,
            Category::Syntax | Category::Data => Io::InvalidData,
        };
        std::io::Error::new(kind, e)
    }
}

#[cfg(test)]
mod tests;
