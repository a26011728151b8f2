//! A pull parser over a whole document: one [`Token`] per header, with its
//! offset, depth and place, and what deduplication references stand for.
//!
//! This is the walk that tools share (`surp inspect` and `surp stats` are
//! built on it), as [`wire::decode_header`] is the one reader of a single
//! header. On top of the headers, [`Tokens`] checks what the decoder checks,
//! with the same errors and offsets: lengths against the remaining input,
//! UTF-8, the depth limit of the default [`Options`](crate::Options), the
//! 128-bit integer range, references against the deduplication [`Tables`]
//! (filled by the rules of the spec, section 7), trailing bytes. It keeps an
//! explicit stack instead of recursing, and never allocates from a length
//! the input claims.
//!
//! ```
//! use surp::tokens::{Item, Tokens};
//!
//! # fn main() -> Result<(), surp::Error> {
//! let doc = surp::to_vec(&("id", 7u8))?;
//! let mut items = Vec::new();
//! for token in Tokens::new(&doc) {
//!     let token = token?;
//!     items.push((token.offset, token.item));
//! }
//! assert_eq!(items[0], (0, Item::Array(2)));
//! assert_eq!(items[1], (1, Item::Str { text: "id", slot: None }));
//! assert_eq!(items[2], (4, Item::Integer(7u8.into())));
//! # Ok(()) }
//! ```
//!
//! [`Tokens::streaming`] reads like a decoder that cannot see the end of its
//! input: a count larger than the rest of the input is not an error in
//! itself, so a truncated document is walked up to the point where it runs
//! out. [`Tokens::new`] fails exactly where [`crate::from_slice`] does.

mod tables;

pub use tables::Tables;

#[allow(unused_imports)]
use crate::prelude::*;

use crate::error::{Error, ErrorKind, Result};
use crate::value::Integer;
use crate::wire::{self, Header, Kind};
use tables::Candidate;

/// The nesting limit of the decoder's default options.
const MAX_DEPTH: usize = crate::DEFAULT_MAX_DEPTH;

fn error_at(kind: ErrorKind, offset: usize) -> Error {
    Error::new(kind, offset)
}

/// Where a token stands in the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The document's value itself (or the marker before it).
    Root,
    /// An element of an array.
    Element,
    /// A key of an explicit map.
    Key,
    /// A value of an explicit map.
    Value,
    /// The value for key number `key` of a map written as a reference to
    /// shape `shape`.
    ShapeValue {
        /// The shape.
        shape: u32,
        /// The position of the key in the shape.
        key: u32,
    },
    /// What a `some` marker holds.
    Content,
}

/// What one token is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Item<'a> {
    /// The deduplicated-document marker at byte 0.
    DedupMarker,
    /// Null.
    Null,
    /// A boolean.
    Bool(bool),
    /// The `some` marker; its content follows.
    Some,
    /// An integer, of any form.
    Integer(Integer),
    /// A binary16 float, widened.
    F16(f32),
    /// A binary32 float.
    F32(f32),
    /// A binary64 float.
    F64(f64),
    /// A string literal, and the string table slot it took, if any.
    Str {
        /// The text.
        text: &'a str,
        /// The slot it took in a deduplicated document.
        slot: Option<u32>,
    },
    /// A byte string.
    Bytes(&'a [u8]),
    /// An array header; the elements follow.
    Array(u64),
    /// An explicit map header; the entries follow.
    Map(u64),
    /// A string reference and the string it stands for.
    StrRef {
        /// The slot.
        index: u32,
        /// The string in that slot.
        text: &'a str,
    },
    /// A map written as a shape reference; its values follow.
    ShapeRef {
        /// The shape.
        index: u32,
        /// How many values follow (the number of keys of the shape).
        count: u32,
    },
}

/// One header and, for strings and byte strings, their payload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token<'a> {
    /// Offset of the token's first byte.
    pub offset: usize,
    /// Every byte of the token: the header, plus the payload of a string or
    /// byte string (not the items of a container).
    pub bytes: &'a [u8],
    /// How many containers and `some` markers enclose it.
    pub depth: usize,
    /// Where it stands.
    pub place: Place,
    /// Whether it is a map key or part of one (a key may be any value).
    pub in_key: bool,
    /// What it is.
    pub item: Item<'a>,
}

#[derive(Debug)]
enum Container {
    Array,
    /// An explicit map; in a deduplicated document, a possible shape.
    Map(Option<Candidate>),
    ShapeMap {
        shape: u32,
        count: u32,
    },
    Some,
}

#[derive(Debug)]
struct Frame {
    container: Container,
    /// Items still to come; a map entry is two. Wide enough for twice any
    /// count a streaming walk lets through.
    left: u128,
    in_key: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Start,
    Values,
    /// The root value is complete; only the end of the input may follow.
    RootDone,
    Finished,
}

/// Walks a document token by token.
///
/// ```text
/// let mut tokens = Tokens::new(&bytes);
/// while let Some(token) = tokens.next_token() { let token = token?; ... }
/// ```
#[derive(Debug)]
pub struct Tokens<'a> {
    input: &'a [u8],
    pos: usize,
    frames: Vec<Frame>,
    tables: Option<Tables<'a>>,
    state: State,
    /// Check declared lengths against the rest of the input up front.
    strict_lengths: bool,
}

impl<'a> Tokens<'a> {
    /// A tokens at the start of `input` that fails where `surp::from_slice`
    /// fails, with the same error.
    pub fn new(input: &'a [u8]) -> Tokens<'a> {
        Tokens {
            input,
            pos: 0,
            frames: Vec::new(),
            tables: None,
            state: State::Start,
            strict_lengths: true,
        }
    }

    /// A tokens that checks declared lengths only as the input runs out.
    pub fn streaming(input: &'a [u8]) -> Tokens<'a> {
        Tokens {
            strict_lengths: false,
            ..Tokens::new(input)
        }
    }

    /// The offset of the next token; after an error, of the token that
    /// failed.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// How many containers and `some` markers enclose the next token (after
    /// an error, the token that failed).
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// The deduplication tables, in a deduplicated document.
    pub fn tables(&self) -> Option<&Tables<'a>> {
        self.tables.as_ref()
    }

    /// The next token, `None` after the last one or after an error.
    fn next_token(&mut self) -> Option<Result<Token<'a>>> {
        let result = match self.state {
            State::Finished => return None,
            State::Start => {
                self.state = State::Values;
                if self.input.first() == Some(&wire::DEDUP_MARKER) {
                    self.tables = Some(Tables::default());
                    self.pos = 1;
                    return Some(Ok(Token {
                        offset: 0,
                        bytes: &self.input[..1],
                        depth: 0,
                        place: Place::Root,
                        in_key: false,
                        item: Item::DedupMarker,
                    }));
                }
                self.value_token()
            }
            State::Values => self.value_token(),
            State::RootDone if self.pos < self.input.len() => {
                Err(error_at(ErrorKind::TrailingBytes, self.pos))
            }
            State::RootDone => {
                self.state = State::Finished;
                return None;
            }
        };
        if result.is_err() {
            self.state = State::Finished;
        }
        Some(result)
    }

    /// Where the next value stands, and whether it is (part of) a key.
    fn place(&self) -> (Place, bool) {
        let Some(frame) = self.frames.last() else {
            return (Place::Root, false);
        };
        let place = match frame.container {
            Container::Array => Place::Element,
            Container::Map(_) if frame.left % 2 == 0 => Place::Key,
            Container::Map(_) => Place::Value,
            Container::ShapeMap { shape, count } => Place::ShapeValue {
                shape,
                key: count - frame.left as u32,
            },
            Container::Some => Place::Content,
        };
        (place, frame.in_key || place == Place::Key)
    }

    fn value_token(&mut self) -> Result<Token<'a>> {
        let start = self.pos;
        let (place, in_key) = self.place();
        let depth = self.frames.len();
        let rest = &self.input[start..];
        let (header, header_size) = wire::decode_header(rest, start)?;
        // Bytes left after the header: what a declared length is checked against.
        let after_header = rest.len() - header_size;
        let mut size = header_size;
        let mut opens = None;
        let item = match header {
            Header::Uint(v) => Item::Integer(v.into()),
            Header::Nint(n) => Item::Integer((-1 - i128::from(n)).into()),
            Header::WideUint(v) => Item::Integer(v.into()),
            Header::WideNint(n) => match i128::try_from(n) {
                Ok(n) => Item::Integer((-1 - n).into()),
                Err(_) => return Err(error_at(ErrorKind::IntegerOutOfRange, start)),
            },
            Header::F16(v) => Item::F16(v),
            Header::F32(v) => Item::F32(v),
            Header::F64(v) => Item::F64(v),
            Header::Null => Item::Null,
            Header::Bool(b) => Item::Bool(b),
            Header::Some => {
                self.enter(start)?;
                opens = Some((Container::Some, 1));
                Item::Some
            }
            Header::Len(kind @ (Kind::Str | Kind::Bytes), len) => {
                let payload = match usize::try_from(len) {
                    Ok(len) if len <= after_header => &rest[header_size..header_size + len],
                    _ if self.strict_lengths => {
                        return Err(error_at(ErrorKind::LengthExceedsInput { kind, len }, start));
                    }
                    _ => return Err(error_at(ErrorKind::UnexpectedEof, self.input.len())),
                };
                size += payload.len();
                if kind == Kind::Bytes {
                    Item::Bytes(payload)
                } else {
                    let text = core::str::from_utf8(payload).map_err(|e| {
                        error_at(
                            ErrorKind::InvalidUtf8,
                            start + header_size + e.valid_up_to(),
                        )
                    })?;
                    let slot = self.tables.as_mut().and_then(|t| t.take_slot(text));
                    Item::Str { text, slot }
                }
            }
            Header::Len(kind, len) => {
                let per_item = if kind == Kind::Map { 2 } else { 1 };
                if self.strict_lengths && len > (after_header / per_item) as u64 {
                    return Err(error_at(ErrorKind::LengthExceedsInput { kind, len }, start));
                }
                self.enter(start)?;
                if kind == Kind::Map {
                    let candidate = self.tables.as_ref().map(|t| t.begin_map(start, len, size));
                    opens = Some((Container::Map(candidate), u128::from(len) * 2));
                    Item::Map(len)
                } else {
                    opens = Some((Container::Array, u128::from(len)));
                    Item::Array(len)
                }
            }
            Header::DedupMarker => return Err(error_at(ErrorKind::MisplacedDedupMarker, start)),
            Header::StrRef(index) => {
                let tables = self.tables_for_ref(start)?;
                let Some(text) = tables.string(index) else {
                    let defined = tables.strings_defined();
                    let limit = crate::DEFAULT_MAX_DEDUP_STRINGS;
                    return Err(error_at(
                        ErrorKind::UnknownStringRef {
                            index,
                            defined,
                            limit,
                        },
                        start,
                    ));
                };
                Item::StrRef { index, text }
            }
            Header::ShapeRef(index) => {
                let tables = self.tables_for_ref(start)?;
                let Some(keys) = tables.shape(index) else {
                    let defined = tables.shapes_defined();
                    let limit = crate::DEFAULT_MAX_DEDUP_SHAPES;
                    return Err(error_at(
                        ErrorKind::UnknownShapeRef {
                            index,
                            defined,
                            limit,
                        },
                        start,
                    ));
                };
                let count = keys.len() as u32;
                self.enter(start)?;
                opens = Some((
                    Container::ShapeMap {
                        shape: index,
                        count,
                    },
                    u128::from(count),
                ));
                Item::ShapeRef { index, count }
            }
        };
        if place == Place::Key {
            self.record_key(&item, size);
        }
        self.pos = start + size;
        match opens {
            Some((container, left)) if left > 0 => self.frames.push(Frame {
                container,
                left,
                in_key,
            }),
            // An empty container is a complete value at once.
            _ => self.complete_value(),
        }
        Ok(Token {
            offset: start,
            bytes: &rest[..size],
            depth,
            place,
            in_key,
            item,
        })
    }

    /// The tables a reference needs: only a deduplicated document has them.
    fn tables_for_ref(&self, start: usize) -> Result<&Tables<'a>> {
        self.tables
            .as_ref()
            .ok_or_else(|| error_at(ErrorKind::RefWithoutMarker, start))
    }

    /// Checks the depth limit before a container or `some` marker opens.
    fn enter(&self, start: usize) -> Result<()> {
        if self.frames.len() >= MAX_DEPTH {
            return Err(error_at(ErrorKind::DepthLimitExceeded(MAX_DEPTH), start));
        }
        Ok(())
    }

    /// Tells the enclosing explicit map about a key just read.
    fn record_key(&mut self, item: &Item<'a>, size: usize) {
        let (Some(tables), Some(frame)) = (self.tables.as_mut(), self.frames.last_mut()) else {
            return;
        };
        let Container::Map(Some(candidate)) = &mut frame.container else {
            return;
        };
        let text = match *item {
            Item::Str { text, .. } | Item::StrRef { text, .. } => Some(text),
            _ => None,
        };
        tables.record_key(candidate, text, size);
    }

    /// A value just ended: count it off its container, closing every
    /// container it completes.
    fn complete_value(&mut self) {
        while let Some(frame) = self.frames.last_mut() {
            frame.left -= 1;
            if frame.left > 0 {
                return;
            }
            if let Some(Frame {
                container: Container::Map(Some(candidate)),
                ..
            }) = self.frames.pop()
                && let Some(tables) = self.tables.as_mut()
            {
                tables.end_map(candidate);
            }
        }
        self.state = State::RootDone;
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Result<Token<'a>>;

    /// The next token; `None` after the last one, or after an error.
    fn next(&mut self) -> Option<Result<Token<'a>>> {
        self.next_token()
    }
}
