//! The token walker: one pass over a Surp document, one [`Token`] per header,
//! shared by `inspect` and `stats` so both see the document the same way.
//!
//! Each header is read by `surp::__private::wire::decode_header`, the reference decoder
//! of the tag table. On top of it the walker checks what the `surp` decoder
//! checks, in the same order and with the same errors and offsets: lengths
//! against the remaining input, UTF-8, the depth limit, the 128-bit integer
//! range, references against the deduplication [`Tables`], trailing bytes.
//! It keeps an explicit
//! stack instead of recursing, and never allocates from a length the input
//! claims.
//!
//! [`Walker::streaming`] reads like a decoder that cannot see the end of its
//! input: a count larger than the rest of the input is not an error in itself, so a truncated document is walked up to
//! the point where it runs out. `inspect` uses it to show every complete
//! token; `stats` uses [`Walker::new`], which fails exactly where
//! `surp::from_slice` does.

use surp::__private::error_at;
use surp::__private::wire::{self, Header, Kind};
use surp::{Error, ErrorKind, Integer};

use crate::tables::{Candidate, Tables};

/// The nesting limit of the `surp` decoder's default options.
const MAX_DEPTH: usize = surp::DEFAULT_MAX_DEPTH;

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
/// let mut walker = Walker::new(&bytes);
/// while let Some(token) = walker.next_token() { let token = token?; ... }
/// ```
#[derive(Debug)]
pub struct Walker<'a> {
    input: &'a [u8],
    pos: usize,
    frames: Vec<Frame>,
    tables: Option<Tables<'a>>,
    state: State,
    /// Check declared lengths against the rest of the input up front.
    strict_lengths: bool,
}

impl<'a> Walker<'a> {
    /// A walker at the start of `input` that fails where `surp::from_slice`
    /// fails, with the same error.
    pub fn new(input: &'a [u8]) -> Walker<'a> {
        Walker {
            input,
            pos: 0,
            frames: Vec::new(),
            tables: None,
            state: State::Start,
            strict_lengths: true,
        }
    }

    /// A walker that checks declared lengths only as the input runs out.
    pub fn streaming(input: &'a [u8]) -> Walker<'a> {
        Walker {
            strict_lengths: false,
            ..Walker::new(input)
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
    pub fn next_token(&mut self) -> Option<Result<Token<'a>, Error>> {
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

    fn value_token(&mut self) -> Result<Token<'a>, Error> {
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
                    let text = std::str::from_utf8(payload).map_err(|e| {
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
                    let limit = surp::DEFAULT_MAX_DEDUP_STRINGS;
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
                    let limit = surp::DEFAULT_MAX_DEDUP_SHAPES;
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
    fn tables_for_ref(&self, start: usize) -> Result<&Tables<'a>, Error> {
        self.tables
            .as_ref()
            .ok_or_else(|| error_at(ErrorKind::RefWithoutMarker, start))
    }

    /// Checks the depth limit before a container or `some` marker opens.
    fn enter(&self, start: usize) -> Result<(), Error> {
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

#[cfg(test)]
mod tests {
    /// What the decoder itself says about `bytes`: its result before
    /// `from_slice` adds the path to the failing value, which the walker,
    /// reading tokens, has no notion of.
    fn decoder(bytes: &[u8]) -> Result<surp::Value, surp::Error> {
        use serde::Deserialize;
        let mut de = surp::Deserializer::from_slice(bytes);
        let value = surp::Value::deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }

    use super::*;
    use crate::testing::{hostile_inputs, seed_documents};

    fn walk(bytes: &[u8]) -> Result<Vec<Token<'_>>, Error> {
        let mut walker = Walker::new(bytes);
        let mut tokens = Vec::new();
        while let Some(token) = walker.next_token() {
            tokens.push(token?);
        }
        Ok(tokens)
    }

    #[test]
    fn tokens_cover_every_byte_in_order() {
        let bytes =
            surp::to_vec(&serde_json::json!({"id": 7, "tags": ["a", "b"], "x": 1.5})).unwrap();
        let tokens = walk(&bytes).unwrap();
        let mut next = 0;
        for t in &tokens {
            assert_eq!(t.offset, next);
            next += t.bytes.len();
        }
        assert_eq!(next, bytes.len());
        let places: Vec<_> = tokens.iter().map(|t| (t.place, t.depth)).collect();
        assert_eq!(
            places,
            [
                (Place::Root, 0),
                (Place::Key, 1),
                (Place::Value, 1),
                (Place::Key, 1),
                (Place::Value, 1),
                (Place::Element, 2),
                (Place::Element, 2),
                (Place::Key, 1),
                (Place::Value, 1),
            ]
        );
    }

    #[test]
    fn everything_inside_a_key_is_marked_as_key() {
        // {[1]: 2}
        let tokens = walk(&[0xb1, 0xa1, 0x01, 0x02]).unwrap();
        let in_key: Vec<_> = tokens.iter().map(|t| t.in_key).collect();
        assert_eq!(in_key, [false, true, true, false]);
    }

    #[test]
    fn references_resolve_to_what_they_stand_for() {
        let records = crate::json::parse(
            br#"[{"name": "surp", "kind": "format"}, {"name": "dedup", "kind": "format"}]"#,
        )
        .unwrap();
        let bytes = surp_dedup::to_vec(&records).unwrap();
        let tokens = walk(&bytes).unwrap();
        let shape = tokens
            .iter()
            .find_map(|t| match t.item {
                Item::ShapeRef { index, count } => Some((index, count)),
                _ => None,
            })
            .expect("the second record is a shape reference");
        assert_eq!(shape, (0, 2));
        assert!(tokens.iter().any(|t| t.item
            == Item::StrRef {
                index: 3,
                text: "format"
            }));
    }

    #[test]
    fn a_truncated_document_fails_where_the_decoder_does() {
        let bytes = surp::to_vec(&serde_json::json!({"name": "surp"})).unwrap();
        for cut in 0..bytes.len() {
            let ours = walk(&bytes[..cut]).unwrap_err();
            let theirs = decoder(&bytes[..cut]).unwrap_err();
            assert_eq!(ours.to_string(), theirs.to_string(), "cut at {cut}");
        }
    }

    #[test]
    fn a_streaming_walk_goes_on_until_the_input_runs_out() {
        // A map of 6 entries cut after its first key.
        let bytes = [0xb6, 0x82, b'i', b'd', 0x07, 0x84, b'n'];
        let mut walker = Walker::streaming(&bytes);
        let mut items = Vec::new();
        let err = loop {
            match walker.next_token() {
                Some(Ok(token)) => items.push(token.item),
                Some(Err(e)) => break e,
                None => panic!("a truncated document must fail"),
            }
        };
        assert_eq!(
            items,
            [
                Item::Map(6),
                Item::Str {
                    text: "id",
                    slot: None
                },
                Item::Integer(7.into())
            ]
        );
        assert_eq!(err.to_string(), "unexpected end of input at byte 7");
        assert_eq!(walker.offset(), 5);
        // The strict walk fails at the map, as `surp::from_slice` does.
        let strict = walk(&bytes).unwrap_err();
        assert_eq!(
            strict.to_string(),
            "map declares 6 entries but the input is too short to hold them at byte 0"
        );
    }

    #[test]
    fn a_streaming_walk_survives_the_largest_counts() {
        for bytes in [
            &[0xd7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01][..],
            &[0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            &[0xcb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        ] {
            let mut walker = Walker::streaming(bytes);
            let mut last = None;
            while let Some(token) = walker.next_token() {
                last = Some(token.map(|t| t.place));
            }
            assert_eq!(
                last.unwrap().unwrap_err().to_string(),
                "unexpected end of input at byte 10"
            );
        }
    }

    /// Builds the value the tokens from `at` on stand for.
    fn rebuild(tokens: &[Token<'_>], at: &mut usize, tables: Option<&Tables<'_>>) -> surp::Value {
        use surp::Value;
        let token = tokens[*at];
        *at += 1;
        match token.item {
            Item::DedupMarker | Item::Some => rebuild(tokens, at, tables),
            Item::Null => Value::Null,
            Item::Bool(b) => Value::Bool(b),
            Item::Integer(i) => Value::Integer(i),
            Item::F16(v) | Item::F32(v) => Value::Float(v.into()),
            Item::F64(v) => Value::Float(v),
            Item::Str { text, .. } | Item::StrRef { text, .. } => Value::String(text.into()),
            Item::Bytes(b) => Value::Bytes(b.to_vec()),
            Item::Array(n) => Value::Array((0..n).map(|_| rebuild(tokens, at, tables)).collect()),
            Item::Map(n) => Value::Map(
                (0..n)
                    .map(|_| (rebuild(tokens, at, tables), rebuild(tokens, at, tables)))
                    .collect(),
            ),
            Item::ShapeRef { index, .. } => {
                let keys = tables.and_then(|t| t.shape(index)).unwrap();
                Value::Map(
                    keys.iter()
                        .map(|&k| (Value::from(k), rebuild(tokens, at, tables)))
                        .collect(),
                )
            }
        }
    }

    fn assert_agrees(bytes: &[u8]) {
        let mut walker = Walker::new(bytes);
        let mut tokens = Vec::new();
        let ours = loop {
            match walker.next_token() {
                Some(Ok(token)) => tokens.push(token),
                Some(Err(e)) => break Err(e),
                None => break Ok(()),
            }
        };
        let theirs = decoder(bytes);
        match (&ours, &theirs) {
            (Ok(()), Ok(value)) => {
                let covered: usize = tokens.iter().map(|t| t.bytes.len()).sum();
                assert_eq!(covered, bytes.len(), "{bytes:02x?}");
                // Debug, so that NaN compares equal to itself.
                let rebuilt = rebuild(&tokens, &mut 0, walker.tables());
                assert_eq!(format!("{rebuilt:?}"), format!("{value:?}"), "{bytes:02x?}");
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{bytes:02x?}"),
            _ => panic!(
                "walker {:?} but decoder {:?} on {bytes:02x?}",
                ours.map(|_| ()),
                theirs.map(|_| ())
            ),
        }
    }

    #[test]
    fn invalid_utf8_is_placed_at_the_bad_byte_of_the_payload() {
        // A key literal "nam\x84" in a deduplicated document: byte 7 is bad.
        let bytes = [0xf2, 0xb1, 0x84, b'n', b'a', b'm', 0x84, 0x01];
        let mut walker = Walker::new(&bytes);
        let err = loop {
            match walker.next_token() {
                Some(Ok(_)) => {}
                Some(Err(e)) => break e,
                None => panic!("invalid UTF-8 must fail"),
            }
        };
        assert_eq!(err.to_string(), "invalid UTF-8 in a string at byte 6");
        let theirs = decoder(&bytes).unwrap_err();
        assert_eq!(err.to_string(), theirs.to_string());
    }

    #[test]
    fn agrees_with_the_decoder_on_random_valid_and_mutated_documents() {
        for doc in seed_documents() {
            assert_agrees(&doc);
        }
        for input in hostile_inputs(0x5eed_cafe_f00d_1234, 20_000, 3_000) {
            assert_agrees(&input);
        }
    }

    #[test]
    fn agrees_with_the_decoder_on_the_invalid_test_vectors() {
        for (hex, error) in [
            ("", "unexpected end of input at byte 0"),
            ("f1", "reserved tag byte 0xf1 at byte 0"),
            (
                "f2f70001",
                "reference to shape 256, but none is defined yet at byte 1",
            ),
            (
                "f2a2f30083616263",
                "reference to string slot 0, but none is defined yet at byte 2",
            ),
            (
                "a1f2",
                "deduplication marker is only allowed at the start of a document at byte 1",
            ),
            ("83eda080", "invalid UTF-8 in a string at byte 1"),
            (
                "ef080000000000000000",
                "wide integer with invalid length 8 (expected 9 to 16 bytes) at byte 0",
            ),
        ] {
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(walk(&bytes).unwrap_err().to_string(), error);
            assert_agrees(&bytes);
        }
        let deep = [vec![0xa1; 129], vec![0]].concat();
        assert_agrees(&deep);
        let some = [vec![0xeb; 129], vec![0xe8]].concat();
        assert_agrees(&some);
    }

    #[test]
    fn the_walker_stops_after_an_error() {
        let mut walker = Walker::new(&[0xa2, 0x01]);
        assert!(walker.next_token().unwrap().is_err());
        assert_eq!(walker.offset(), 0);
        assert!(walker.next_token().is_none());
    }
}
