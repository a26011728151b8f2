//! Sessions and dictionaries (`docs/spec.md` section 9): the bytes of the
//! session documents and the rules that both sides apply to them.
//!
//! A session document starts with [`PREFIX`] and a kind byte. The value of
//! a message or a dictionary document is read as the value of a
//! deduplicated document, against tables that do not start empty; the
//! decoder's side of that is `de/session.rs`, the encoder's is in
//! `surp-dedup`.

use alloc::format;

use crate::error::{Error, ErrorKind, Result, SessionError};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::wire;

/// The first byte of every session document: the tag that plain and
/// deduplicated documents reserve.
pub const PREFIX: u8 = wire::RESERVED;

/// The kind byte of a session header.
pub const HEADER: u8 = 0x00;
/// The kind byte of a session message.
pub const MESSAGE: u8 = 0x01;
/// The kind byte of a session message that first returns the tables to
/// their initial state.
pub const RESET: u8 = 0x02;
/// The kind byte of a dictionary document.
pub const DICTIONARY: u8 = 0x03;

/// The session format version a header carries.
pub const VERSION: u8 = 1;

/// Bytes of a header without a dictionary: prefix, kind, version, three
/// budgets and the flag.
const HEADER_LEN: usize = 3 + 12 + 1;

/// The offset of a header's dictionary flag, where an error about its
/// dictionary is placed.
pub const FLAG_AT: usize = HEADER_LEN - 1;

/// What a session's tables may hold beyond their initial state before they
/// tumble (`docs/spec.md` section 9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// String slots.
    pub strings: u32,
    /// Shapes.
    pub shapes: u32,
    /// Bytes, each string slot counted by [`string_charge`] and each shape
    /// by [`shape_charge`].
    pub bytes: u32,
}

impl Budget {
    /// The largest budget a header can ask for: the table limits of
    /// section 7 and the largest byte count its 4 bytes hold.
    pub const MAX: Budget = Budget {
        strings: wire::MAX_STRING_SLOTS as u32,
        shapes: wire::MAX_SHAPES as u32,
        bytes: u32::MAX,
    };

    /// Refuses a budget that asks for more than `limit` in any part, with
    /// the error at that part's first byte in the header.
    pub fn check(&self, limit: &Budget) -> Result<()> {
        let parts = [
            ("string slots", self.strings, limit.strings, 3),
            ("shapes", self.shapes, limit.shapes, 7),
            ("bytes", self.bytes, limit.bytes, 11),
        ];
        for (what, asked, most, offset) in parts {
            if asked > most {
                let excess = SessionError::BudgetTooLarge {
                    what,
                    asked: u64::from(asked),
                    limit: u64::from(most),
                };
                return Err(session_error(excess, offset));
            }
        }
        Ok(())
    }

    /// Whether tables that added this many string slots, shapes and bytes
    /// (as charged) since their initial state are past the budget, and
    /// tumble (section 9.1).
    pub fn exceeded_by(&self, strings: usize, shapes: usize, bytes: usize) -> bool {
        strings > self.strings as usize
            || shapes > self.shapes as usize
            || bytes > self.bytes as usize
    }
}

/// What each string slot and each shape counts against a session's budget
/// besides its text.
pub const ENTRY_CHARGE: usize = 32;

/// What each key of a shape counts against a session's budget besides its
/// text.
pub const KEY_CHARGE: usize = 8;

/// What a string slot of `len` bytes counts against a session's budget.
#[inline]
pub const fn string_charge(len: usize) -> usize {
    len.saturating_add(ENTRY_CHARGE)
}

/// What a shape whose keys have these lengths (in bytes) counts against a
/// session's budget.
pub fn shape_charge(key_lens: impl IntoIterator<Item = usize>) -> usize {
    key_lens.into_iter().fold(ENTRY_CHARGE, |sum, len| {
        sum.saturating_add(len).saturating_add(KEY_CHARGE)
    })
}

/// A session header (`docs/spec.md` section 9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// The tables' budget.
    pub budget: Budget,
    /// The id of the dictionary that gives the tables their initial state.
    pub dictionary: Option<u64>,
}

impl Header {
    /// Appends the header document to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&[PREFIX, HEADER, VERSION]);
        for n in [self.budget.strings, self.budget.shapes, self.budget.bytes] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        match self.dictionary {
            None => out.push(0),
            Some(id) => {
                out.push(1);
                out.extend_from_slice(&id.to_le_bytes());
            }
        }
    }

    /// Reads a header document, which must be all of `input`.
    pub fn read(input: &[u8]) -> Result<Header> {
        let kind = kind_of(input)?;
        if kind != HEADER {
            return Err(session_error(SessionError::MissingHeader, 1));
        }
        let fixed = input
            .get(..HEADER_LEN)
            .ok_or_else(|| Error::new(ErrorKind::UnexpectedEof, input.len()))?;
        if fixed[2] != VERSION {
            return Err(session_error(SessionError::UnsupportedVersion(fixed[2]), 2));
        }
        let word = |at: usize| {
            u32::from_le_bytes([fixed[at], fixed[at + 1], fixed[at + 2], fixed[at + 3]])
        };
        let budget = Budget {
            strings: word(3),
            shapes: word(7),
            bytes: word(11),
        };
        let (dictionary, end) = match fixed[FLAG_AT] {
            0 => (None, HEADER_LEN),
            1 => {
                let id = input
                    .get(HEADER_LEN..HEADER_LEN + 8)
                    .ok_or_else(|| Error::new(ErrorKind::UnexpectedEof, input.len()))?;
                (Some(wire::le_u64(id)), HEADER_LEN + 8)
            }
            flag => return Err(session_error(SessionError::InvalidFlag(flag), FLAG_AT)),
        };
        budget.check(&Budget::MAX)?;
        if input.len() > end {
            return Err(Error::new(ErrorKind::TrailingBytes, end));
        }
        Ok(Header { budget, dictionary })
    }
}

/// The kind byte of the session document `input`. A decoder checks it
/// before anything after it, so that a document of a kind it does not take
/// is refused at byte 1 (spec section 9) even when it is cut short.
pub fn kind_of(input: &[u8]) -> Result<u8> {
    match input.first() {
        None => Err(Error::new(ErrorKind::UnexpectedEof, 0)),
        Some(&PREFIX) => match input.get(1) {
            None => Err(Error::new(ErrorKind::UnexpectedEof, 1)),
            Some(&kind) if kind <= DICTIONARY => Ok(kind),
            Some(&kind) => Err(session_error(SessionError::UnknownKind(kind), 1)),
        },
        Some(_) => Err(session_error(SessionError::NotASessionDocument, 0)),
    }
}

/// The dictionary id of `input`, a dictionary document whose kind
/// [`kind_of`] has read, and where its value starts.
pub fn document_dictionary_id(input: &[u8]) -> Result<(u64, usize)> {
    match input.get(2..10) {
        Some(id) => Ok((wire::le_u64(id), 10)),
        None => Err(Error::new(ErrorKind::UnexpectedEof, input.len())),
    }
}

/// The number of `input`, a session message whose kind [`kind_of`] has
/// read (an unsigned integer value of any width), and where its value
/// starts.
pub fn message_number(input: &[u8]) -> Result<(u64, usize)> {
    let at = 2;
    let Some(&tag) = input.get(at) else {
        return Err(Error::new(ErrorKind::UnexpectedEof, input.len()));
    };
    match tag {
        wire::FIXUINT..=wire::FIXUINT_MAX => Ok((u64::from(tag), at + 1)),
        wire::UINT1..=wire::UINT_LAST => {
            let width = wire::int_width(tag);
            match input.get(at + 1..at + 1 + width) {
                Some(bytes) => Ok((wire::le_u64(bytes), at + 1 + width)),
                None => Err(Error::new(ErrorKind::UnexpectedEof, input.len())),
            }
        }
        _ => Err(session_error(SessionError::InvalidSequence(tag), at)),
    }
}

/// Appends the prefix of a session message numbered `seq`.
pub fn write_message_prefix(out: &mut Vec<u8>, seq: u64, reset: bool) {
    out.extend_from_slice(&[PREFIX, if reset { RESET } else { MESSAGE }]);
    // A Vec cannot be full.
    let _ = wire::write_uint(out, seq);
}

/// Appends the prefix of a dictionary document for the dictionary `id`.
pub fn write_dictionary_prefix(out: &mut Vec<u8>, id: u64) {
    out.extend_from_slice(&[PREFIX, DICTIONARY]);
    out.extend_from_slice(&id.to_le_bytes());
}

/// A dictionary's id: the 64-bit FNV-1a hash of its document's bytes.
pub fn dictionary_id(document: &[u8]) -> u64 {
    document.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Checks the rules of `docs/spec.md` section 9.2 for a dictionary's
/// strings and shapes; the error says which rule a dictionary breaks.
pub fn check_dictionary<'a, S>(
    strings: &[&str],
    shapes: &'a [S],
) -> core::result::Result<(), String>
where
    S: AsRef<[&'a str]>,
{
    if strings.len() > 1 << 20 {
        return Err(format!("{} strings, more than 2^20", strings.len()));
    }
    if shapes.len() > 1 << 16 {
        return Err(format!("{} shapes, more than 2^16", shapes.len()));
    }
    let mut seen = alloc::collections::BTreeSet::new();
    for (i, s) in strings.iter().enumerate() {
        if s.len() < wire::str_ref_size(i) {
            return Err(format!(
                "string {i} ({s:?}) is shorter than a reference to its slot ({} bytes)",
                wire::str_ref_size(i)
            ));
        }
        if !seen.insert(*s) {
            return Err(format!("string {i} ({s:?}) appears twice"));
        }
    }
    let never_slotted = wire::str_ref_size(strings.len());
    let mut shapes_seen = alloc::collections::BTreeSet::new();
    for (i, shape) in shapes.iter().enumerate() {
        let keys = shape.as_ref();
        if keys.is_empty() || keys.len() > crate::dedup::MAX_SHAPE_KEYS {
            return Err(format!(
                "shape {i} has {} keys (a shape has 1 to {})",
                keys.len(),
                crate::dedup::MAX_SHAPE_KEYS
            ));
        }
        if let Some(key) = keys
            .iter()
            .find(|k| k.len() >= never_slotted && !seen.contains(**k))
        {
            return Err(format!(
                "key {key:?} of shape {i} is not one of the dictionary's strings, \
                 and is long enough to take a slot"
            ));
        }
        if !shapes_seen.insert(keys) {
            return Err(format!("shape {i} appears twice"));
        }
    }
    Ok(())
}

/// A session error at byte `offset`.
#[cold]
pub(crate) fn session_error(kind: SessionError, offset: usize) -> Error {
    Error::new(ErrorKind::Session(kind), offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_reads_back_with_and_without_a_dictionary() {
        for dictionary in [None, Some(0x0123_4567_89ab_cdef)] {
            let header = Header {
                budget: Budget {
                    strings: 4096,
                    shapes: 512,
                    bytes: 1 << 18,
                },
                dictionary,
            };
            let mut bytes = Vec::new();
            header.write(&mut bytes);
            assert_eq!(bytes.len(), if dictionary.is_some() { 24 } else { 16 });
            assert_eq!(Header::read(&bytes).unwrap(), header);
            assert_eq!(kind_of(&bytes).unwrap(), HEADER);
            // Every truncation is an error, and so is a byte more.
            for n in 0..bytes.len() {
                assert!(Header::read(&bytes[..n]).is_err(), "{n}");
            }
            bytes.push(0);
            assert_eq!(
                *Header::read(&bytes).unwrap_err().kind(),
                ErrorKind::TrailingBytes
            );
        }
    }

    #[test]
    fn message_numbers_take_every_width_and_nothing_else() {
        for seq in [0, 1, 127, 128, 255, 256, 65_535, 1 << 40, u64::MAX] {
            for reset in [false, true] {
                let mut bytes = Vec::new();
                write_message_prefix(&mut bytes, seq, reset);
                let at = bytes.len();
                bytes.push(wire::NULL);
                assert_eq!(
                    kind_of(&bytes).unwrap(),
                    if reset { RESET } else { MESSAGE }
                );
                assert_eq!(message_number(&bytes).unwrap(), (seq, at));
            }
        }
        // A non-minimal width is accepted.
        assert_eq!(
            message_number(&[PREFIX, MESSAGE, wire::UINT1 + 1, 5, 0, wire::NULL]).unwrap(),
            (5, 5)
        );
        // A number that is not an unsigned integer, an unknown kind, and a
        // document that is not a session document.
        let err = message_number(&[PREFIX, MESSAGE, wire::NULL]).unwrap_err();
        assert_eq!(
            *err.kind(),
            ErrorKind::Session(SessionError::InvalidSequence(wire::NULL))
        );
        assert_eq!(err.offset(), Some(2));
        let err = kind_of(&[PREFIX, 4]).unwrap_err();
        assert_eq!(
            *err.kind(),
            ErrorKind::Session(SessionError::UnknownKind(4))
        );
        assert_eq!(err.offset(), Some(1));
        let err = kind_of(&[wire::NULL]).unwrap_err();
        assert_eq!(
            *err.kind(),
            ErrorKind::Session(SessionError::NotASessionDocument)
        );
    }

    #[test]
    fn a_dictionary_breaking_a_rule_is_refused_with_the_rule() {
        let ok: [&[&str]; 1] = [&["id", "name", "x"]];
        assert_eq!(check_dictionary(&["id", "name"], &ok), Ok(()));
        // "x" is one byte: it can never take a slot, so it need not be a string.
        type Case<'a> = (&'a [&'a str], &'a [&'a [&'a str]], &'a str);
        let cases: [Case; 5] = [
            (&["a"], &[], "shorter than a reference"),
            (&["id", "id"], &[], "appears twice"),
            (&["id"], &[&[]], "has 0 keys"),
            (
                &["id"],
                &[&["id", "name"]],
                "not one of the dictionary's strings",
            ),
            (&["id"], &[&["id"], &["id"]], "shape 1 appears twice"),
        ];
        for (strings, shapes, message) in cases {
            let err = check_dictionary(strings, shapes).unwrap_err();
            assert!(err.contains(message), "{err}");
        }
    }

    #[test]
    fn the_id_is_fnv1a_64() {
        // The published FNV-1a test values for "" and "a".
        assert_eq!(dictionary_id(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(dictionary_id(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
