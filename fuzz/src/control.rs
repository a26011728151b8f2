//! The control byte in front of every decode target's document.
//!
//! | bits | meaning |
//! |---|---|
//! | 0–2 | a [`Limits`] preset: the defaults or one tight limit |
//! | 3–4 | the input path: slice, reader, or a reader giving one byte per call |
//! | 5 | put a deduplication marker (`surp::wire::DEDUP_MARKER`) in front of the document |
//!
//! The seed files (`examples/write_seeds.rs`) start with [`Control::SEED`]:
//! default limits, a slice, no marker added.

use std::io;

/// Limits a decode runs under: the defaults, or one of them made tight so
/// that the fuzzer reaches the paths that enforce it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limits {
    /// `surp::Options::new()`.
    Default,
    /// Nesting depth 3.
    ShallowDepth,
    /// No nesting at all.
    NoDepth,
    /// Strings, byte strings, arrays and maps of at most 8 items.
    ShortLengths,
    /// An allocation budget of 256 (bytes, items and referenced strings).
    SmallBudget,
    /// Deduplication tables of 3 strings and 2 shapes.
    SmallTables,
    /// No deduplication table entries at all.
    NoTables,
    /// All of the tight limits at once.
    AllTight,
}

/// How a decode reads its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// `from_slice`, borrowing.
    Slice,
    /// `from_reader` over the bytes.
    Reader,
    /// `from_reader` over a reader that returns at most one byte per call.
    Trickle,
}

/// The decoded control byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    /// The limits.
    pub limits: Limits,
    /// The input path.
    pub path: Path,
    /// Whether the document gets a deduplication marker in front.
    pub add_marker: bool,
}

impl Control {
    /// The control byte of the seed files: defaults, slice, no marker.
    pub const SEED: u8 = 0;

    /// Decodes a control byte; every byte means something.
    pub fn from_byte(b: u8) -> Control {
        let limits = match b & 7 {
            0 => Limits::Default,
            1 => Limits::ShallowDepth,
            2 => Limits::NoDepth,
            3 => Limits::ShortLengths,
            4 => Limits::SmallBudget,
            5 => Limits::SmallTables,
            6 => Limits::NoTables,
            _ => Limits::AllTight,
        };
        let path = match (b >> 3) & 3 {
            0 | 3 => Path::Slice,
            1 => Path::Reader,
            _ => Path::Trickle,
        };
        Control {
            limits,
            path,
            add_marker: b & 0x20 != 0,
        }
    }

    /// Splits a fuzz input into its control and the document (with the
    /// marker added when the control asks for it).
    pub fn split(data: &[u8]) -> Option<(Control, std::borrow::Cow<'_, [u8]>)> {
        let (&first, doc) = data.split_first()?;
        let control = Control::from_byte(first);
        let doc = if control.add_marker {
            let mut marked = vec![surp::wire::DEDUP_MARKER];
            marked.extend_from_slice(doc);
            std::borrow::Cow::Owned(marked)
        } else {
            std::borrow::Cow::Borrowed(doc)
        };
        Some((control, doc))
    }

    /// The core decoder's options for these limits.
    pub fn options(self) -> surp::Options {
        let o = surp::Options::new();
        match self.limits {
            Limits::Default => o,
            Limits::ShallowDepth => o.max_depth(3),
            Limits::NoDepth => o.max_depth(0),
            Limits::ShortLengths => o.max_len(8),
            Limits::SmallBudget => o.max_alloc(256),
            Limits::SmallTables => o.max_dedup_strings(3).max_dedup_shapes(2),
            Limits::NoTables => o.max_dedup_strings(0).max_dedup_shapes(0),
            Limits::AllTight => o
                .max_depth(3)
                .max_len(8)
                .max_alloc(256)
                .max_dedup_strings(3)
                .max_dedup_shapes(2),
        }
    }

    /// The deduplication layer's options for these limits: its table sizes
    /// replace the core options' table limits.
    pub fn dedup_options(self) -> surp_dedup::Options {
        let (strings, shapes) = match self.limits {
            Limits::SmallTables | Limits::AllTight => (3, 2),
            Limits::NoTables => (0, 0),
            _ => (
                surp::DEFAULT_MAX_DEDUP_STRINGS,
                surp::DEFAULT_MAX_DEDUP_SHAPES,
            ),
        };
        surp_dedup::Options::new()
            .max_dedup_strings(strings)
            .max_dedup_shapes(shapes)
            .decode_limits(self.options())
    }
}

/// A reader that hands out at most one byte per `read` call, so that every
/// buffer of the decoder's reader path is filled piecemeal.
pub struct Trickle<'a>(pub &'a [u8]);

impl io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}
