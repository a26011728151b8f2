//! Documents: where one ends and the next begins, and the state each one
//! starts afresh (the deduplication tables, the kept strings, the expansion
//! budget), so that nothing of one document reaches the next.
//!
//! A value at depth 0 is the root of a document; one at an offset other
//! than the current root's is the root of the next document. The decoding
//! functions and the stream iterator start each document before its root
//! (reading its marker); when a caller decodes several values from one
//! `Deserializer` itself, the state is reset lazily, where it would first
//! be used: a container opened at depth 0 (one `depth == 0` check per
//! container, the only cost on the hot path), and, in cold code, a string
//! literal or a reference meeting a table, and a marker at depth 0.

use super::Deserializer;
use super::tables::Dictionary;
use crate::error::{Error, ErrorKind, Result};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::read::{Read, SessionRead, SliceRead};
use crate::wire::{self, Kind};

/// An array or map a reader has opened: what a slice would have checked at
/// its header against the input left.
pub(super) struct Claim {
    start: usize,
    header_end: usize,
    kind: Kind,
    len: u64,
    per_item: usize,
    /// The depth its header was read at.
    depth: usize,
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// Records an array or map a reader opens at `start`.
    #[cold]
    pub(super) fn open_claim(&mut self, kind: Kind, len: u64, start: usize, per_item: usize) {
        let claim = Claim {
            start,
            header_end: self.read.offset(),
            kind,
            len,
            per_item,
            depth: self.depth,
        };
        self.claims.push(claim);
    }

    /// Forgets the claims of the containers closed at the current depth.
    #[inline]
    pub(super) fn close_claims(&mut self) {
        while self.claims.last().is_some_and(|c| c.depth >= self.depth) {
            self.claims.pop();
        }
    }

    /// Places an error from inside the container at `start`. From a reader,
    /// an input that ended inside a container whose header claimed more
    /// items than the input held is reported as a slice reports it: at that
    /// header. Errors leave the containers innermost first, so the
    /// outermost such header, the one a slice checks first, has the last
    /// word.
    #[cold]
    pub(super) fn place_error(&mut self, e: Error, start: usize) -> Error {
        let e = e.at(start);
        if self.read.remaining().is_some() || e.classify() != crate::Category::Eof {
            return e;
        }
        let end = self.read.offset();
        let Some(claim) = self.claims.iter().rev().find(|c| c.start == start) else {
            return e;
        };
        let left = end.saturating_sub(claim.header_end);
        if claim.len > (left / claim.per_item) as u64 {
            let (kind, len) = (claim.kind, claim.len);
            return Error::new(ErrorKind::LengthExceedsInput { kind, len }, start);
        }
        e
    }

    /// A tag is about to be read at depth 0: unless it is the root of the
    /// current document, read again (an implicit `Some`, a newtype), it is
    /// the root of the next one.
    #[cold]
    pub(crate) fn at_root(&mut self) -> Result<()> {
        if self.read.offset() != self.doc_root {
            self.start_document()?;
        }
        Ok(())
    }

    /// Starts a document at the current offset: forgets the tables, the
    /// kept strings and the expansion of the previous one, and reads the
    /// deduplication marker if the document has one.
    pub(crate) fn start_document(&mut self) -> Result<()> {
        self.reset_document(self.read.offset());
        if self.read.peek()? == Some(wire::DEDUP_MARKER) {
            self.read.next_u8()?;
            self.begin_tables();
        }
        self.doc_root = self.read.offset();
        Ok(())
    }

    /// Whether a document's marker has been read but nothing of its root.
    pub(super) fn marker_read_at_end(&self) -> bool {
        self.read.offset() == self.doc_root && self.doc_start != self.doc_root
    }

    /// Forgets everything the previous document owned; the next one starts
    /// (and, until a marker says otherwise, has its root) at `start`.
    fn reset_document(&mut self, start: usize) {
        self.dict = None;
        self.plain_str_bound = self.unchecked_len_max.saturating_add(1);
        self.expanded = 0;
        self.allowed = 0;
        self.implicit_some = (0, 0);
        self.read.forget();
        self.claims.clear();
        self.doc_start = start;
        self.doc_root = start;
    }

    fn begin_tables(&mut self) {
        self.plain_str_bound = 0;
        self.dict = Some(Dictionary::for_document(
            self.opts.max_dedup_strings,
            self.opts.max_dedup_shapes,
        ));
    }

    /// A value whose tag is at `start` was met at depth 0: unless it is the
    /// current root (read again by an implicit `Some` or a newtype), it is
    /// the root of a new, plain document.
    #[cold]
    pub(super) fn new_root(&mut self, start: usize) {
        if start != self.doc_root {
            self.reset_document(start);
        }
    }

    /// The marker was read at `start`: at depth 0 and not at the current
    /// root it starts a new deduplicated document, whose root follows;
    /// anywhere else it is misplaced.
    #[cold]
    pub(super) fn visit_marker<V: serde::de::Visitor<'de>>(
        &mut self,
        start: usize,
        visitor: V,
    ) -> Result<V::Value> {
        if self.depth != 0 || start == self.doc_root {
            return Err(Error::new(ErrorKind::MisplacedDedupMarker, start));
        }
        self.reset_document(start);
        self.begin_tables();
        self.doc_root = start + 1;
        let tag = self.read.next_u8()?;
        self.any_tag(start + 1, tag, visitor)
    }

    /// Charges `amount` bytes of expansion (what a reference stands for) at
    /// the reference at `start`. The current document may expand to
    /// `expansion_ratio` times the bytes of it read so far plus
    /// `expansion_base`, and never beyond `max_alloc`; a slice and a reader
    /// charge at the same offsets, so they stop at the same reference.
    #[inline]
    pub(super) fn charge(&mut self, amount: usize, start: usize) -> Result<()> {
        let expanded = self.expanded.saturating_add(amount);
        if expanded <= self.allowed {
            self.expanded = expanded;
            return Ok(());
        }
        self.charge_beyond_allowed(expanded, start)
    }

    /// A charge past the allowance last computed: computes it again at the
    /// current offset. Deciding only here gives the same answers as
    /// computing it at every charge, since it never shrinks as input is read.
    #[inline(never)]
    fn charge_beyond_allowed(&mut self, expanded: usize, start: usize) -> Result<()> {
        let read = self.read.offset() - self.doc_start;
        self.allowed = read
            .saturating_mul(self.opts.expansion_ratio)
            .saturating_add(self.opts.expansion_base)
            .min(self.opts.max_alloc);
        if expanded > self.allowed {
            return Err(Error::new(
                ErrorKind::AllocationLimitExceeded(self.allowed),
                start,
            ));
        }
        self.expanded = expanded;
        Ok(())
    }

    /// The error for a string or byte string of `len > max_alloc` bytes,
    /// which no decoder holds: the allocation limit if the input has more
    /// than `max_alloc` bytes left, else the input is too short for it. A
    /// reader reads at most `max_alloc + 1` bytes to tell, and drops them.
    #[cold]
    pub(super) fn literal_over_max_alloc(&mut self, kind: Kind, len: usize, start: usize) -> Error {
        match self.read.skip_probe(len, self.opts.max_alloc) {
            Ok(true) => Error::new(
                ErrorKind::AllocationLimitExceeded(self.opts.max_alloc),
                start,
            ),
            Ok(false) => Error::new(
                ErrorKind::LengthExceedsInput {
                    kind,
                    len: len as u64,
                },
                start,
            ),
            Err(e) => e,
        }
    }

    /// The length of a byte string that is held whole (read as a sequence):
    /// in the input, and within `max_alloc`.
    pub(super) fn held_bytes_len(&mut self, len: u64, start: usize) -> Result<usize> {
        let n = self.check_len(Kind::Bytes, len, start)?;
        if n > self.opts.max_alloc {
            return Err(self.literal_over_max_alloc(Kind::Bytes, n, start));
        }
        Ok(n)
    }
}

impl<'de> Deserializer<SliceRead<'de>> {
    /// Starts the first document of a slice; a slice can always peek.
    pub(super) fn start_slice_document(&mut self) {
        let started = self.start_document();
        debug_assert!(started.is_ok(), "a slice never fails to peek");
    }
}

/// Only a session's input starts with tables it did not fill: a slice
/// decoder's tables must hold only handles from its own reader, which
/// `SliceRead::recall_str` takes back without checking them.
impl<'de, 'o> Deserializer<SessionRead<'de, 'o>> {
    /// Starts a document at `start` whose root is at `root` and whose
    /// tables are `dict` rather than empty ones (`docs/spec.md` section 9):
    /// a session message or a dictionary document, whose prefix the caller
    /// has read.
    pub(super) fn begin_with_tables(&mut self, start: usize, root: usize, dict: Box<Dictionary>) {
        self.reset_document(start);
        self.plain_str_bound = 0;
        self.dict = Some(dict);
        self.doc_root = root;
    }
}
