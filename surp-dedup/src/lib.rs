//! # surp-dedup
//!
//! Deduplication for [Surp](https://docs.rs/surp): repeated strings and
//! repeated map key sets become short back-references. For an array of
//! records of the same shape, the keys cost about one byte per record instead
//! of one string per field; enum-like values (status, country, event type)
//! cost two or three bytes after their first appearance.
//!
//! It is never larger than plain Surp, and when nothing repeats it *is*
//! plain Surp, byte for byte.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Event<'a> {
//!     kind: &'a str,
//!     region: &'a str,
//!     count: u32,
//! }
//!
//! # fn main() -> Result<(), surp::Error> {
//! let events: Vec<Event> = (0..100)
//!     .map(|i| Event { kind: ["push", "fork"][i % 2], region: "eu-west-1", count: i as u32 })
//!     .collect();
//! let plain = surp::to_vec(&events)?;
//! let dedup = surp_dedup::to_vec(&events)?;
//! assert!(dedup.len() < plain.len() / 3);
//!
//! // Strings reached through references still borrow from the input.
//! let back: Vec<Event> = surp_dedup::from_slice(&dedup)?;
//! assert_eq!(back, events);
//! // Every Surp decoder reads deduplicated documents.
//! assert_eq!(surp::from_slice::<Vec<Event>>(&dedup)?, events);
//! # Ok(()) }
//! ```
//!
//! ## How it works
//!
//! The format is specified in `docs/spec.md`, section 7. In short: the
//! document starts with a marker byte; string literals that are at least as
//! long as a reference take the next slot of an implicit table, and later
//! copies are written as references; a map whose key sequence was seen
//! before is written as a reference to that *shape* followed by its values.
//! No dictionary is sent up front, and the decoder's tables hold positions
//! in the input, not copies.
//!
//! This crate is only the encoder. The decoder is `surp` itself, and the
//! rules that decide what enters the tables (which strings take a slot,
//! which maps become shapes, which shape to reference, the table limits)
//! are `surp::__private::dedup`, which this encoder, the decoder and `surp inspect`
//! all call.
//!
//! ## Sessions and dictionaries
//!
//! A stream of small messages shrinks further when the tables last from
//! one message to the next ([`SessionOptions`], [`SessionEncoder`],
//! [`SessionDecoder`]), or start from strings and shapes agreed out of
//! band ([`Dictionary`]): `docs/spec.md`, section 9. With the `tokio`
//! feature, `codec::SessionCodec` carries a session over any
//! `AsyncRead`/`AsyncWrite` as a `tokio-util` codec, each document a
//! `surp::frame`.
//!
//! ## When to use it
//!
//! When documents repeat themselves: arrays of records, API payloads,
//! logs, enum-like strings. The encoder hashes every string of two bytes or
//! more, so it costs encode time; the decoder does almost no extra work.
//! Both are measured by `surp-bench`, and `docs/` has the numbers.

#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "tokio")]
pub mod codec;
mod dictionary;
mod encoder;
mod options;
mod predictions;
mod ser;
mod session;
mod shapes;
mod strings;
mod trace;

use std::io;

use serde::de::{Deserialize, DeserializeOwned};
use serde::ser::Serialize;

pub use dictionary::{Dictionary, DictionaryDecoder, DictionaryEncoder};
pub use options::Options;
pub use session::{DEFAULT_BUDGET, SessionDecoder, SessionEncoder, SessionOptions, TableUsage};
pub use surp::__private::session::Budget;

/// Encodes `value` with deduplication, using the default [`Options`].
///
/// Never longer than `surp::to_vec(value)`.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> surp::Result<Vec<u8>> {
    Options::new().to_vec(value)
}

/// Encodes `value` with deduplication at the end of `out`, reusing its
/// capacity (see [`Options::append_to_vec`]).
pub fn append_to_vec<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> surp::Result<()> {
    Options::new().append_to_vec(out, value)
}

/// Encodes `value` with deduplication into `writer` (built in memory first;
/// see [`Options::to_writer`]).
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> surp::Result<()> {
    Options::new().to_writer(writer, value)
}

/// Not part of the API: what this repository's tests need from inside the
/// encoder. It may change in any release.
#[doc(hidden)]
pub mod __private {
    use serde::Serialize;

    use crate::Options;

    /// [`to_vec`](crate::to_vec), and how many bytes the encoder copied
    /// from one place of its output to another (closing the gaps left for
    /// the headers of collections of unknown length, compacting maps into
    /// shape references, rewriting maps whose predicted shape failed). The
    /// tests use it to check that encoding stays linear in the size of the
    /// output.
    pub fn to_vec_counting_moves<T: Serialize + ?Sized>(
        value: &T,
    ) -> surp::Result<(Vec<u8>, usize)> {
        let mut out = Vec::with_capacity(128);
        let moved = Options::new().append_counting_moves(&mut out, value)?;
        Ok((out, moved))
    }
}

/// Decodes a plain or deduplicated Surp document, borrowing where `T` can.
///
/// This is `surp::from_slice` with the default table limits; every Surp
/// decoder reads deduplicated documents.
pub fn from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> surp::Result<T> {
    Options::new().from_slice(input)
}

/// Decodes a plain or deduplicated Surp document from a reader.
pub fn from_reader<R: io::Read, T: DeserializeOwned>(reader: R) -> surp::Result<T> {
    Options::new().from_reader(reader)
}
