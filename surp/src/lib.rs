//! # Surp
//!
//! Surp is a compact, fast, self-describing binary serialization format for
//! [serde]. Like JSON, MessagePack and CBOR it needs no schema: every value
//! carries its own type. Unlike them it is designed around one tag byte per
//! value with small integers and short lengths inside the tag, exact float
//! narrowing, native byte strings and 128-bit integers, and an optional
//! deduplication layer for repetitive documents: [`surp-dedup`] writes
//! deduplicated documents, this crate reads them, and the rules both follow
//! are section 7 of the spec, `docs/spec.md`.
//!
//! The API follows serde_json:
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Event<'a> {
//!     id: u64,
//!     kind: &'a str,
//!     #[serde(with = "serde_bytes")]
//!     payload: &'a [u8],
//!     tags: Vec<String>,
//! }
//!
//! # fn main() -> Result<(), surp::Error> {
//! let event = Event { id: 7, kind: "push", payload: b"\x00\x01", tags: vec!["a".into()] };
//! let bytes = surp::to_vec(&event)?;
//! // Strings and bytes borrow from the input: Surp never escapes them.
//! let back: Event = surp::from_slice(&bytes)?;
//! assert_eq!(back, event);
//! # Ok(()) }
//! ```
//!
//! ## Untrusted input
//!
//! Decoding any byte string ends in `Ok` or `Err`: no panic, no stack
//! overflow, no allocation sized from a length the input merely claims. The
//! limits are in [`Options`]; errors carry the byte offset where decoding
//! stopped.
//!
//! ```
//! let err = surp::from_slice::<Vec<u32>>(&[0xd3, 0, 0, 0, 0, 0, 0, 0, 0x80]).unwrap_err();
//! assert_eq!(err.to_string(), "array declares 9223372036854775808 items but the input is too short to hold them at byte 0");
//! ```
//!
//! ## Wire format
//!
//! The normative specification, with test vectors, is `docs/spec.md` in the
//! repository; [`wire`] is its code twin.
//!
//! [serde]: https://serde.rs
//! [`surp-dedup`]: ../surp_dedup/index.html

#![cfg_attr(not(feature = "std"), no_std)]
// `unsafe` is denied except where an item allows it by name: `utf8::utf8`
// and `utf8::utf8_slow` (ASCII taken as a string without `from_utf8`) and
// `SliceRead::recall_str` in `read.rs` (a kept string taken back without
// validating it again). Each block says why it is sound in a `SAFETY:`
// comment, which clippy holds it to, and each was measured to win.
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

#[cfg(not(feature = "alloc"))]
compile_error!("surp needs the `alloc` feature (or `std`, which includes it)");

extern crate alloc;

/// What the standard prelude gives a `std` build, for the `alloc`-only one.
mod prelude {
    pub use alloc::borrow::ToOwned;
    pub use alloc::boxed::Box;
    pub use alloc::string::{String, ToString};
    pub use alloc::vec;
    pub use alloc::vec::Vec;
}

pub mod de;
mod dedup;
pub mod error;
mod float;
#[cfg(feature = "std")]
pub mod frame;
mod kind;
mod options;
pub mod output;
pub mod read;
pub mod ser;
mod session;
pub mod tokens;
mod utf8;
pub mod value;
pub mod wire;

/// Not part of the API: what the sibling crates of this repository
/// (`surp-dedup`, `surp-cli`) share with this one. It may change in any
/// release.
#[doc(hidden)]
pub mod __private {
    pub use crate::ser::depth::Depth;

    /// The rules of deduplication (`docs/spec.md` section 7), which the
    /// decoder, `surp-dedup`'s encoder and the CLI share.
    pub mod dedup {
        pub use crate::dedup::*;
    }

    /// Sessions and dictionaries (`docs/spec.md` section 9): the bytes of
    /// their documents, their rules, and the decoder's tables that outlive
    /// a document.
    pub mod session {
        pub use crate::de::session::SessionTables;
        pub use crate::session::*;
    }

    /// The wire vocabulary of [`crate::wire`], and the writers that the
    /// serializers share.
    pub mod wire {
        pub use crate::wire::encode::*;
        pub use crate::wire::*;
    }

    use crate::{Error, ErrorKind};

    /// An error found at byte `offset` of the input.
    #[cold]
    pub fn error_at(kind: ErrorKind, offset: usize) -> Error {
        Error::new(kind, offset)
    }

    /// An error with no input position (an encoder's).
    #[cold]
    pub fn error(kind: ErrorKind) -> Error {
        Error::without_offset(kind)
    }
}

#[cfg(feature = "std")]
use std::io;

use alloc::vec::Vec;
use serde::de::Deserialize;
#[cfg(feature = "std")]
use serde::de::DeserializeOwned;
use serde::ser::Serialize;

#[doc(inline)]
pub use de::{Deserializer, StreamDeserializer, take_from_slice};
#[doc(inline)]
pub use error::{Category, Error, ErrorKind, Result};
pub use options::{
    DEFAULT_EXPANSION_BASE, DEFAULT_EXPANSION_RATIO, DEFAULT_MAX_ALLOC, DEFAULT_MAX_DEDUP_SHAPES,
    DEFAULT_MAX_DEDUP_STRINGS, DEFAULT_MAX_DEPTH, Options,
};
#[doc(inline)]
pub use output::Output;
#[doc(inline)]
pub use ser::Serializer;
#[doc(inline)]
pub use value::{Integer, Value, from_value, to_value};

/// The version of the wire format this crate writes and reads.
///
/// It changes only when the bytes for some value change.
pub const FORMAT_VERSION: u32 = 2;

/// Encodes `value` into a new `Vec`.
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// assert_eq!(surp::to_vec(&(true, 300u16, "hi"))?, [0xa3, 0xea, 0xd9, 0x2c, 0x01, 0x82, b'h', b'i']);
/// # Ok(()) }
/// ```
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut ser = Serializer::new(Vec::with_capacity(128));
    value.serialize(&mut ser)?;
    Ok(ser.into_inner())
}

/// Encodes `value` into the start of `buf`, returning the part written.
/// A document that does not fit is [`ErrorKind::OutputFull`]. It allocates
/// nothing for the output, except for sequences and maps whose length serde
/// does not know, which are built in a side buffer first.
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let mut buf = [0u8; 16];
/// let doc = surp::to_slice(&mut buf, &(1u8, "hi"))?;
/// assert_eq!(doc, [0xa2, 0x01, 0x82, b'h', b'i']);
/// let mut small = [0u8; 2];
/// let err = surp::to_slice(&mut small, &(1u8, "hi")).unwrap_err();
/// assert_eq!(*err.kind(), surp::ErrorKind::OutputFull);
/// # Ok(()) }
/// ```
pub fn to_slice<'a, T: Serialize + ?Sized>(buf: &'a mut [u8], value: &T) -> Result<&'a mut [u8]> {
    let mut ser = Serializer::new(output::SliceWriter::new(buf));
    value.serialize(&mut ser)?;
    Ok(ser.into_inner().into_written())
}

/// Encodes `value` into an [`io::Write`].
///
/// Surp writes each value with small writes: wrap files and sockets in a
/// [`std::io::BufWriter`].
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let mut out = Vec::new();
/// surp::to_writer(&mut out, &[1u8, 2, 3])?;
/// assert_eq!(out, [0xa3, 1, 2, 3]);
/// # Ok(()) }
/// ```
#[cfg(feature = "std")]
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
    value.serialize(&mut Serializer::new(output::IoWriter(writer)))
}

/// Encodes `value` into any [`bytes::BufMut`], such as a `bytes::BytesMut`.
///
/// A `BufMut` that cannot grow gives [`ErrorKind::OutputFull`] when full.
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let mut buf = bytes::BytesMut::new();
/// surp::to_buf_mut(&mut buf, "hello")?;
/// assert_eq!(&buf[..], b"\x85hello");
/// # Ok(()) }
/// ```
#[cfg(feature = "bytes")]
pub fn to_buf_mut<B: bytes::BufMut, T: Serialize + ?Sized>(buf: B, value: &T) -> Result<()> {
    value.serialize(&mut Serializer::new(output::BufMutWriter(buf)))
}

/// Decodes a `T` from `input`, borrowing strings and bytes where `T` can.
///
/// Trailing bytes after the value are an error. Deduplicated documents
/// (written by `surp-dedup`) are read too. Uses the default [`Options`].
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let name: &str = surp::from_slice(b"\x83abc")?;
/// assert_eq!(name, "abc");
/// assert_eq!(surp::from_slice::<&str>(b"\x83abcd").unwrap_err().to_string(), "trailing bytes after the value at byte 4");
/// # Ok(()) }
/// ```
pub fn from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<T> {
    Options::new().from_slice(input)
}

/// Decodes a `T` from an [`io::Read`], then requires the end of the input.
///
/// The reader is read byte by byte as the value needs it: wrap files and
/// sockets in a [`std::io::BufReader`]. To read several documents from one
/// stream, use [`Deserializer::into_iter`].
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let input: &[u8] = b"\xa2\x01\x02";
/// let v: Vec<u8> = surp::from_reader(input)?;
/// assert_eq!(v, [1, 2]);
/// # Ok(()) }
/// ```
#[cfg(feature = "std")]
pub fn from_reader<R: io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    Options::new().from_reader(reader)
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
