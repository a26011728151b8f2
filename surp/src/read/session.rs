//! The input of a session message or dictionary document (`docs/spec.md`
//! section 9): a slice, except that the strings it keeps for references go
//! to a store that outlives the input, since the tables that name them do.

#[allow(unused_imports)]
use crate::prelude::*;

use super::{Kept, Read, Reference, SliceRead, Span, kept_utf8, private};
use crate::error::Result;

/// The text of the strings a session's tables name, one copy each, in the
/// order they were kept.
#[derive(Debug, Default)]
pub(crate) struct OwnedStrings {
    text: String,
}

impl OwnedStrings {
    /// Keeps a copy of `s`.
    pub(crate) fn push(&mut self, s: &str) -> Kept {
        let at = self.text.len();
        self.text.push_str(s);
        Kept { at, len: s.len() }
    }

    /// The string `kept` names.
    #[inline]
    pub(crate) fn get(&self, kept: Kept) -> &str {
        &self.text[kept.at..kept.at + kept.len]
    }

    /// Bytes kept.
    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    /// Drops what was kept after the first `len` bytes.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.text.truncate(len);
    }

    /// Keeps only the strings `handles` name, from `from` on (those before
    /// stay where they are), moving them together and updating the handles.
    pub(crate) fn compact<'k>(&mut self, from: usize, handles: impl Iterator<Item = &'k mut Kept>) {
        let mut text = String::with_capacity(self.text.len());
        text.push_str(&self.text[..from]);
        for kept in handles.filter(|k| k.at >= from) {
            let at = text.len();
            text.push_str(self.get(*kept));
            kept.at = at;
        }
        self.text = text;
    }
}

/// A slice whose kept strings are copied into `owned`.
pub(crate) struct SessionRead<'de, 'o> {
    inner: SliceRead<'de>,
    owned: &'o mut OwnedStrings,
}

impl<'de, 'o> SessionRead<'de, 'o> {
    /// Reads `data` from `pos` on, keeping strings in `owned`.
    pub(crate) fn new(data: &'de [u8], pos: usize, owned: &'o mut OwnedStrings) -> Self {
        SessionRead {
            inner: SliceRead::at(data, pos),
            owned,
        }
    }
}

impl private::Sealed for SessionRead<'_, '_> {}

impl<'de> Read<'de> for SessionRead<'de, '_> {
    #[inline]
    fn offset(&self) -> usize {
        self.inner.offset()
    }
    #[inline]
    fn peek(&mut self) -> Result<Option<u8>> {
        self.inner.peek()
    }
    #[inline]
    fn next_u8(&mut self) -> Result<u8> {
        self.inner.next_u8()
    }
    #[inline(always)]
    fn read_le(&mut self, width: usize) -> Result<u64> {
        self.inner.read_le(width)
    }
    #[inline]
    fn read_into(&mut self, buf: &mut [u8]) -> Result<()> {
        self.inner.read_into(buf)
    }
    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.inner.read_array()
    }
    #[inline]
    fn remaining(&self) -> Option<usize> {
        self.inner.remaining()
    }
    #[inline]
    fn fill(&mut self, len: usize) -> Result<Span> {
        self.inner.fill(len)
    }
    #[inline]
    fn take(&mut self, len: usize) -> Result<Reference<'de, '_, [u8]>> {
        self.inner.take(len)
    }
    #[inline]
    fn payload(&self, span: Span) -> Reference<'de, '_, [u8]> {
        self.inner.payload(span)
    }
    #[inline]
    fn skip(&mut self, len: usize) -> Result<()> {
        self.inner.skip(len)
    }
    #[inline(always)]
    fn eat_name(&mut self, name: &str) -> bool {
        self.inner.eat_name(name)
    }
    #[inline(always)]
    fn eat_word(&mut self, word: u128, len: usize) -> bool {
        self.inner.eat_word(word, len)
    }

    fn remember_str(&mut self, span: Span) -> Result<Kept> {
        let bytes = match self.inner.payload(span) {
            Reference::Borrowed(b) => b,
            Reference::Copied(b) => b,
        };
        let text = kept_utf8(bytes, span.start)?;
        Ok(self.owned.push(text))
    }

    #[inline]
    fn recall_str(&self, kept: Kept, _: private::Recall) -> Reference<'de, '_, str> {
        Reference::Copied(self.owned.get(kept))
    }

    /// The tables' strings outlive a document: the session's tables drop
    /// them (`de/session.rs`).
    fn forget(&mut self) {}

    fn skip_probe(&mut self, len: usize, probe: usize) -> Result<bool> {
        self.inner.skip_probe(len, probe)
    }
}
