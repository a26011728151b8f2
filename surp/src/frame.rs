//! Length-delimited framing for transports: each document is preceded by
//! its length, 4 bytes little-endian, so that a receiver knows where it
//! ends before decoding it and can refuse one that is too long before
//! reading it. The framing is section 10 of the spec (`docs/spec.md`),
//! whose `frames` vectors this module is tested against.
//!
//! ```
//! # fn main() -> Result<(), surp::Error> {
//! use surp::frame;
//!
//! let mut wire = Vec::new();
//! frame::write_frame(&mut wire, &("ping", 1u8))?;
//! frame::write_frame(&mut wire, &("pong", 2u8))?;
//! assert_eq!(&wire[..4], &[7, 0, 0, 0]);
//!
//! let mut input = &wire[..];
//! let mut buf = Vec::new();
//! let mut got = Vec::new();
//! while frame::read_frame(&mut input, frame::DEFAULT_MAX_FRAME_LEN, &mut buf)? {
//!     got.push(surp::from_slice::<(String, u8)>(&buf)?);
//! }
//! assert_eq!(got, [("ping".to_string(), 1), ("pong".to_string(), 2)]);
//!
//! // A frame that declares more than the receiver accepts is refused unread.
//! let err = frame::read_frame(&wire[..], 5, &mut buf).unwrap_err();
//! assert_eq!(err.to_string(), "frame of length 7 exceeds the limit of 5 at byte 0");
//! # Ok(()) }
//! ```

use std::io;

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::wire::Kind;

/// The length of a frame's prefix.
pub const PREFIX_LEN: usize = 4;

/// A default for the longest frame to accept: 16 MiB.
pub const DEFAULT_MAX_FRAME_LEN: usize = 16 << 20;

/// Encodes `value` and writes it as one frame: its length, then the
/// document. A document longer than `u32::MAX` bytes is an error.
pub fn write_frame<W: io::Write, T: Serialize + ?Sized>(mut writer: W, value: &T) -> Result<()> {
    let doc = crate::to_vec(value)?;
    write_frame_bytes(&mut writer, &doc)
}

/// Writes an already encoded document (plain or deduplicated) as a frame.
pub fn write_frame_bytes<W: io::Write>(mut writer: W, doc: &[u8]) -> Result<()> {
    let Ok(len) = u32::try_from(doc.len()) else {
        return Err(Error::without_offset(ErrorKind::FrameTooLong {
            len: doc.len() as u64,
            limit: u32::MAX as usize,
        }));
    };
    let io = |e| Error::without_offset(ErrorKind::Io(e));
    writer.write_all(&len.to_le_bytes()).map_err(io)?;
    writer.write_all(doc).map_err(io)
}

/// Reads the next frame's document into `buf` (replacing its contents).
/// Returns `false` at the end of the input before a frame; a frame cut
/// short is an error that [`classify`](Error::classify)s as
/// [`Category::Eof`](crate::Category::Eof). A frame longer than `max_len`
/// is refused before any of it is read: `buf` grows only as bytes arrive.
///
/// Error offsets count from the start of the frame.
pub fn read_frame<R: io::Read>(mut reader: R, max_len: usize, buf: &mut Vec<u8>) -> Result<bool> {
    buf.clear();
    let mut prefix = [0u8; PREFIX_LEN];
    let mut got = 0;
    while got < PREFIX_LEN {
        match reader.read(&mut prefix[got..]) {
            Ok(0) if got == 0 => return Ok(false),
            Ok(0) => return Err(Error::new(ErrorKind::UnexpectedEof, got)),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::new(ErrorKind::Io(e), got)),
        }
    }
    let len = u32::from_le_bytes(prefix);
    if len as usize > max_len {
        return Err(Error::new(
            ErrorKind::FrameTooLong {
                len: len.into(),
                limit: max_len,
            },
            0,
        ));
    }
    let read = io::Read::read_to_end(&mut io::Read::take(reader, len.into()), buf);
    match read {
        Ok(n) if n == len as usize => Ok(true),
        Ok(_) => Err(Error::new(
            ErrorKind::LengthExceedsInput {
                kind: Kind::Bytes,
                len: len.into(),
            },
            0,
        )),
        Err(e) => Err(Error::new(ErrorKind::Io(e), PREFIX_LEN + buf.len())),
    }
}
