//! The deduplicating encoder's state and its map and array frames.
//!
//! Strings go through the string table. Maps are where the work is: a map
//! starts either as a **shape reference**, when the shape last seen at the
//! same position in the document has the right number of keys, or
//! **explicitly**. Keys of a shaped map are checked against the shape as they
//! arrive; on the first mismatch the map is rewritten in place into explicit
//! form. An explicit map whose keys turn out to equal an earlier shape is
//! compacted into a shape reference when it ends. So the common case (records
//! of the same shape in an array) writes a reference up front and never moves
//! a byte, and the output is always what `docs/spec.md` section 7 prescribes.
//!
//! Both rewrites leave the string table alone: the keys of a shape that
//! existed before the map began were written when that shape was registered,
//! so each is either in the table (written as a reference now) or can never
//! take a slot (eligibility only gets stricter as the table grows).

use surp::__private::Depth;
use surp::__private::dedup;
use surp::__private::session;
use surp::__private::wire::{self, Kind};
use surp::{Error, ErrorKind, Result};

use crate::predictions::Predictions;
use crate::shapes::{ShapeTable, combine};
use crate::strings::{Lookup, StringTable, hash_bytes};

mod maps;
mod pending;

/// How many bytes of values a compaction may move at once per byte of keys
/// (and header) it removes; above that, the keys are recorded in
/// [`Pending`] and removed later.
const MOVE_PER_REMOVED: usize = 16;

/// Byte ranges of the output to remove, not yet removed.
///
/// Closing the gap of a collection of unknown length, or compacting an
/// explicit map into a shape reference, removes bytes in the middle of the
/// output. Moving what follows at once moves every byte once per enclosing
/// collection that does so: time grew with size times depth. The ranges are
/// recorded instead and removed in one pass: at the end of the document, or
/// before the encoder reads back or copies the bytes of a map (see
/// `make_explicit`), or when the ranges of a collection that just ended are
/// at least half of its bytes (so that the output never holds more than
/// about twice what it will keep). Each pass costs at most twice the bytes
/// it removes or is paid for by a copy that was made anyway, so encoding
/// stays linear in the size of the output, whatever the depth. One path is
/// not: when a map predicted to repeat a shape turns out not to,
/// `make_explicit` copies what it wrote so far, and maps nested in such a
/// map that mispredict too are copied again at every level.
#[derive(Default)]
struct Pending {
    /// `(position, length)`, in no particular order; entries pushed after a
    /// collection opened all lie in its bytes.
    ranges: Vec<(usize, usize)>,
    /// The sum of the lengths.
    bytes: usize,
}

/// The state of [`Pending`] when a collection opened.
#[derive(Clone, Copy, Default)]
pub(crate) struct Mark {
    ranges: usize,
    bytes: usize,
}

/// A stand-in for the field position of array elements in a context hash.
const ARRAY_SLOT: u64 = u64::MAX;

/// The position of a value in the document, as a hash: the root, then for
/// each enclosing map the field index, for each enclosing array a marker.
/// Records at the same position tend to have the same shape.
#[inline]
pub(crate) fn child_context(parent: u64, slot: u64) -> u64 {
    (parent ^ slot.wrapping_mul(0xff51_afd7_ed55_8ccd))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(31)
}

/// The context of an enum variant's map: the enum's context, told apart
/// per variant (by serde's variant index). The slot is unlike a field
/// index (small), an array's marker or a key count (both near `u64::MAX`).
#[inline]
pub(crate) fn variant_context(ctx: u64, index: u32) -> u64 {
    child_context(ctx, 1 << 62 | u64::from(index))
}

/// Predictions are kept per position and key count: maps at one position
/// often take a few shapes (event payloads of several kinds), and the count,
/// known before the first key, tells many of them apart.
#[inline]
fn prediction_key(ctx: u64, count: usize) -> u64 {
    child_context(ctx, !(count as u64))
}

/// Where a key of an explicit map is: its bytes in the output, its text in
/// `key_text`, and its hash.
#[derive(Clone, Copy)]
struct KeyInfo {
    start: usize,
    end: usize,
    text_start: usize,
    text_len: usize,
}

pub(crate) struct Encoder {
    pub(crate) out: Vec<u8>,
    strings: StringTable,
    shapes: ShapeTable,
    /// Context to the shape last written there.
    predictions: Predictions,
    /// Whether any string or shape reference has been written: a document
    /// without one is written without the marker, as plain Surp.
    pub(crate) wrote_reference: bool,
    /// Explicit maps: their string keys, innermost map last.
    keys: Vec<KeyInfo>,
    key_text: Vec<u8>,
    /// Reused while rewriting a map.
    scratch: Vec<u8>,
    /// Ranges of `out` to remove.
    pending: Pending,
    /// The marks of the open arrays of unknown length, innermost last;
    /// each frame knows its index (see [`SeqFrame::declared`]).
    seq_marks: Vec<Mark>,
    /// The open explicit maps' state beyond their frames, innermost last;
    /// each frame knows its index (see [`MapFrame::keys`]).
    explicit: Vec<ExplicitMap>,
    /// Bytes copied from one place of `out` to another, or out of it and
    /// back: what makes encoding linear or not (see
    /// `surp_dedup::__private::to_vec_counting_moves`).
    pub(crate) moved: usize,
    /// How many more arrays and maps may open inside the open ones: deeper
    /// values are an error rather than a stack overflow.
    pub(crate) depth: Depth,
}

/// [`MapFrame::shape`] of an explicit map.
const EXPLICIT: u32 = u32::MAX;

/// An open map: small, because serde moves it at every struct.
///
/// A map written as a shape reference ("shaped") needs only this; an
/// explicit one keeps the rest of its state in [`ExplicitMap`], on the
/// encoder's stack. A shaped map that turns explicit pushes its state then:
/// its nested maps have all ended by the time it can (a key, or its end).
///
/// A frame finds its state by index, not as the top of the stack, and
/// drops what lies above it when it ends: a `Serialize` impl may drop a
/// nested map without ending it (on an error it then ignores), and that
/// map's state must not be taken for an enclosing one's.
#[derive(Clone, Copy)]
pub(crate) struct MapFrame {
    start: usize,
    ctx: u64,
    written: usize,
    /// Shaped: where the shape's keys start (see [`ShapeTable::key_at`]);
    /// explicit: the index of its state in `Encoder::explicit`.
    keys: usize,
    /// Shaped: how many keys the shape has; explicit: 0, so that no key is
    /// compared with a shape's.
    key_count: usize,
    /// Shaped: the shape; explicit: [`EXPLICIT`].
    shape: u32,
    /// How many shapes existed when the map began: the only ones it may be
    /// compacted into.
    shapes_at_start: u32,
}

impl MapFrame {
    /// The context of the value being written now.
    #[inline]
    pub(crate) fn value_context(&self) -> u64 {
        child_context(self.ctx, self.written as u64)
    }
}

/// The state of an open explicit map beyond its [`MapFrame`].
struct ExplicitMap {
    declared: Option<usize>,
    /// Where its string keys start in `keys` and `key_text`.
    keys_base: usize,
    text_base: usize,
    /// Whether every key so far was a string.
    string_keys: bool,
    /// The hash of its keys so far (see [`combine`]).
    seq_hash: u64,
    /// The ranges to remove when the map began.
    mark: Mark,
}

/// An open array.
pub(crate) struct SeqFrame {
    start: usize,
    ctx: u64,
    /// The length serde gave, or for an array of unknown length the index
    /// of its mark in `Encoder::seq_marks` (found by index for the reason
    /// given at [`MapFrame`]).
    declared: std::result::Result<usize, usize>,
    written: usize,
}

impl SeqFrame {
    #[inline]
    pub(crate) fn element_context(&self) -> u64 {
        child_context(self.ctx, ARRAY_SLOT)
    }
}

fn count_error(kind: Kind, declared: usize, written: usize) -> Error {
    surp::__private::error(ErrorKind::LengthMismatch {
        kind,
        declared,
        written,
    })
}

impl Encoder {
    /// An encoder that appends to `out`.
    pub(crate) fn new(out: Vec<u8>, max_dedup_strings: usize, max_dedup_shapes: usize) -> Encoder {
        Encoder {
            out,
            strings: StringTable::new(max_dedup_strings),
            shapes: ShapeTable::new(max_dedup_shapes),
            predictions: Predictions::new(),
            wrote_reference: false,
            // First capacities for a small document (a record or two), so
            // that it does not grow these one element at a time.
            keys: Vec::with_capacity(16),
            key_text: Vec::with_capacity(256),
            scratch: Vec::new(),
            pending: Pending::default(),
            seq_marks: Vec::new(),
            explicit: Vec::with_capacity(4),
            moved: 0,
            depth: Depth::new(surp::DEFAULT_MAX_DEPTH),
        }
    }

    /// An encoder for one document that appends to `out`: the one this
    /// thread's previous document used, emptied (see [`pool`]), or a new
    /// one. Everything the previous document left (tables, hints, guesses,
    /// open maps) is cleared here.
    pub(crate) fn for_document(
        out: Vec<u8>,
        max_dedup_strings: usize,
        max_dedup_shapes: usize,
    ) -> Box<Encoder> {
        let Some(mut enc) = pool::take() else {
            return Box::new(Encoder::new(out, max_dedup_strings, max_dedup_shapes));
        };
        enc.out = out;
        enc.strings.clear(max_dedup_strings);
        enc.shapes.clear(max_dedup_shapes);
        enc.predictions.clear();
        enc.abandon_document();
        enc.scratch.clear();
        enc.moved = 0;
        enc
    }

    /// Leaves this document's encoder, its output taken, to the next
    /// document on this thread, unless its storage grew too large to keep.
    pub(crate) fn end_document(self: Box<Self>) {
        const ENTRIES: usize = 4096;
        const BYTES: usize = 64 * 1024;
        if self.strings.small(ENTRIES, BYTES)
            && self.shapes.small(ENTRIES, BYTES)
            && self.scratch.capacity() <= BYTES
            && self.key_text.capacity() <= BYTES
        {
            pool::give_back(self);
        }
    }

    /// Enters an array or map, or fails past the depth limit.
    #[inline]
    pub(crate) fn enter(&mut self) -> Result<()> {
        self.depth.enter()
    }

    /// Writes a string as a reference when it has a slot, else as a literal
    /// (which may take the next slot).
    ///
    /// `STRINGS` is whether strings are deduplicated: without, every
    /// string is a literal, written without a lookup (the string table then
    /// has no slot; see `Options::dedup_strings`). A constant, so that the
    /// default encoder does not test it for every string.
    #[inline]
    pub(crate) fn write_str<const STRINGS: bool>(&mut self, s: &str) -> Result<()> {
        if !STRINGS || s.len() < wire::str_ref_size(0) {
            return wire::write_str(&mut self.out, s);
        }
        self.write_str_hashed(s, hash_bytes(s.as_bytes()))
    }

    #[inline]
    fn write_str_hashed(&mut self, s: &str, hash: u64) -> Result<()> {
        let found = self.strings.write(s.as_bytes(), hash);
        self.write_found(s, found)
    }

    /// Writes `s` as the string table found it: a reference to its slot,
    /// or a literal.
    #[inline(always)]
    fn write_found(&mut self, s: &str, found: Lookup) -> Result<()> {
        match found {
            Lookup::Slot(slot) => {
                self.wrote_reference = true;
                wire::write_str_ref(&mut self.out, slot)
            }
            Lookup::Literal { .. } => wire::write_str(&mut self.out, s),
        }
    }

    /// Writes the name of a unit variant: as [`Encoder::write_str`], with
    /// the slot found by the name's address when it was written before.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn write_variant_name<const STRINGS: bool>(
        &mut self,
        s: &'static str,
    ) -> Result<()> {
        if !STRINGS {
            return wire::write_str(&mut self.out, s);
        }
        let found = self.strings.write_by_address(s.as_bytes());
        self.write_found(s, found)
    }

    /// The size of `key` written now: a reference if it has a slot.
    fn key_size_now(&self, key: &[u8]) -> usize {
        match self.strings.lookup(key, hash_bytes(key)) {
            Lookup::Slot(slot) => wire::str_ref_size(slot),
            Lookup::Literal { .. } => wire::str_size(key.len()),
        }
    }

    // ---- arrays ----------------------------------------------------------

    #[inline]
    pub(crate) fn begin_seq(&mut self, ctx: u64, len: Option<usize>) -> Result<SeqFrame> {
        self.enter()?;
        let start = self.out.len();
        match len {
            Some(n) => wire::write_header(&mut self.out, Kind::Array, n)?,
            // A gap for the header, written at its end when the count is
            // known; the rest of the gap is removed later (see [`Pending`]).
            None => self.out.extend_from_slice(&[0; wire::MAX_HEADER]),
        }
        // Only an array of unknown length needs the mark (to close its
        // gap); known-length arrays, the common case, stay small.
        let declared = len.ok_or(self.seq_marks.len());
        if len.is_none() {
            self.seq_marks.push(self.mark());
        }
        Ok(SeqFrame {
            start,
            ctx,
            declared,
            written: 0,
        })
    }

    #[inline]
    pub(crate) fn seq_element_done(&mut self, frame: &mut SeqFrame) {
        frame.written += 1;
    }

    pub(crate) fn end_seq(&mut self, frame: SeqFrame) -> Result<()> {
        self.depth.leave();
        match frame.declared {
            Ok(n) if n == frame.written => Ok(()),
            Ok(n) => Err(count_error(Kind::Array, n, frame.written)),
            Err(index) => {
                let mark = self.seq_marks[index];
                self.seq_marks.truncate(index);
                self.close_gap(frame.start, Kind::Array, frame.written, mark)
            }
        }
    }

    /// Ends the document that starts at `base`: removes every pending range
    /// and, when no reference was written, the marker.
    pub(crate) fn finish(&mut self, base: usize) {
        if !self.wrote_reference {
            // No reference was written: the rest is the plain document.
            self.remove_later(base, 1);
        }
        self.remove_pending(Mark::default());
    }

    // ---- tables that outlive a document (sessions, dictionaries) ---------

    /// Encodes a session message or dictionary document at the end of
    /// `out`: `prefix` writes its prefix, then `value` follows, with the
    /// tables as they stand. Such a document has no marker. On an error
    /// `out` is left as it was, and so is nothing else: what the value
    /// added to the tables is the caller's to drop.
    pub(crate) fn append_prefixed<T: serde::Serialize + ?Sized>(
        &mut self,
        out: &mut Vec<u8>,
        prefix: impl FnOnce(&mut Vec<u8>),
        value: &T,
    ) -> Result<()> {
        let base = out.len();
        std::mem::swap(&mut self.out, out);
        prefix(&mut self.out);
        let ctx = crate::options::ROOT_CONTEXT;
        let result = value.serialize(crate::ser::Serializer::<true>::new(self, ctx));
        match result {
            Ok(()) => self.remove_pending(Mark::default()),
            Err(_) => self.abandon_document(),
        }
        std::mem::swap(&mut self.out, out);
        if result.is_err() {
            out.truncate(base);
        }
        result
    }

    /// Forgets what a document that failed to encode left behind: open
    /// maps and arrays, ranges to remove, the depth.
    fn abandon_document(&mut self) {
        self.keys.clear();
        self.key_text.clear();
        self.pending = Pending::default();
        self.seq_marks.clear();
        self.explicit.clear();
        self.depth = Depth::new(surp::DEFAULT_MAX_DEPTH);
        self.wrote_reference = false;
    }

    /// How far the tables have grown.
    pub(crate) fn tables_mark(&self) -> TablesMark {
        let (shape_keys, shape_text) = self.shapes.keys_len();
        TablesMark {
            strings: self.strings.len(),
            string_text: self.strings.text_len(),
            shapes: self.shapes.len(),
            shape_keys,
            shape_text,
        }
    }

    /// Returns the tables to what they held at `mark`; the shape
    /// predictions start over, as they may name shapes that are gone.
    pub(crate) fn truncate_tables(&mut self, mark: TablesMark) {
        self.strings.truncate(mark.strings, mark.string_text);
        self.shapes
            .truncate(mark.shapes, mark.shape_keys, mark.shape_text);
        self.predictions.clear();
    }

    /// What the entries added since `mark` count against a session's
    /// budget (`docs/spec.md` section 9.1), and how many string slots and
    /// shapes they are.
    pub(crate) fn added_since(&self, mark: TablesMark) -> (usize, usize, usize) {
        let now = self.tables_mark();
        let strings = now.strings - mark.strings;
        let shapes = now.shapes - mark.shapes;
        // The sums of `session::string_charge` and `session::shape_charge`
        // over the new entries.
        let bytes = (now.string_text - mark.string_text)
            + (now.shape_text - mark.shape_text)
            + (strings + shapes) * session::ENTRY_CHARGE
            + (now.shape_keys - mark.shape_keys) * session::KEY_CHARGE;
        (strings, shapes, bytes)
    }

    /// Adds a dictionary's strings and shapes (checked by
    /// `session::check_dictionary`) to empty tables, in order.
    pub(crate) fn add_initial<S: AsRef<str>, K: AsRef<[S]>>(
        &mut self,
        strings: &[S],
        shapes: &[K],
    ) {
        for s in strings {
            let s = s.as_ref().as_bytes();
            let took = self.strings.write(s, hash_bytes(s));
            debug_assert!(
                matches!(took, Lookup::Literal { takes_slot: true }),
                "a dictionary's strings each take the next slot"
            );
        }
        for keys in shapes {
            let keys = keys.as_ref();
            let texts: Vec<&[u8]> = keys.iter().map(|k| k.as_ref().as_bytes()).collect();
            let hash = texts.iter().fold(0, |h, k| combine(h, hash_bytes(k)));
            let explicit = wire::header_size(Kind::Map, texts.len())
                + texts.iter().map(|k| self.key_size_now(k)).sum::<usize>();
            self.shapes
                .register(|i| texts[i], texts.len(), hash, explicit);
        }
    }
}

/// How far an encoder's tables had grown (see [`Encoder::tables_mark`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TablesMark {
    strings: usize,
    string_text: usize,
    shapes: usize,
    shape_keys: usize,
    shape_text: usize,
}

/// A map to be rewritten holds a value its `Serialize` impl left
/// unfinished: it dropped an array or map without ending it, after an error
/// it then ignored.
#[cold]
fn unfinished_value_error() -> Error {
    <Error as serde::ser::Error>::custom(
        "a map holds a value left unfinished (a Serialize impl dropped an array or map \
         without ending it, after an error it ignored)",
    )
}

/// The encoder that a thread's deduplicated documents pass on, emptied,
/// from one to the next (see [`Encoder::for_document`]).
///
/// A new encoder makes about ten allocations (hash tables, arenas, the
/// guesses of shapes) and frees them at the end; for a document of one
/// small record that was most of the time. Only the storage passes on:
/// the tables are cleared, and so is every hint and guess that could name
/// an entry of the document before.
pub(crate) mod pool {
    use std::cell::Cell;

    use super::Encoder;

    std::thread_local! {
        static ENCODER: Cell<Option<Box<Encoder>>> = const { Cell::new(None) };
    }

    pub(crate) fn take() -> Option<Box<Encoder>> {
        ENCODER.try_with(Cell::take).ok().flatten()
    }

    pub(crate) fn give_back(enc: Box<Encoder>) {
        let _ = ENCODER.try_with(|e| e.set(Some(enc)));
    }
}
