//! Output sinks for the encoder.
//!
//! The serializer is generic over [`Output`], so `to_vec`, `to_writer` and
//! encoding into a `bytes::BufMut` share one encoder instead of one copy per
//! sink.

use crate::error::{Error, ErrorKind, Result};
#[allow(unused_imports)]
use crate::prelude::*;

/// A destination for encoded bytes.
///
/// Implemented for `Vec<u8>`, for [`IoWriter`] (any [`std::io::Write`]) and,
/// with the `bytes` feature, for [`BufMutWriter`] (any `bytes::BufMut`).
pub trait Output {
    /// Appends one byte.
    fn write_u8(&mut self, byte: u8) -> Result<()>;
    /// Appends a slice.
    fn write_all(&mut self, bytes: &[u8]) -> Result<()>;

    /// Appends the first `len` bytes of a fixed-size buffer (`len <= N`).
    ///
    /// Headers and integers are assembled in a 9-byte buffer; a growable
    /// buffer can copy all of it and drop the tail, which is cheaper than a
    /// copy of variable length.
    #[inline]
    fn write_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> Result<()> {
        self.write_all(&bytes[..len])
    }

    /// Not part of the API: the serializer's side buffer, when this output
    /// is one. Implementations other than the crate's own keep the default.
    #[doc(hidden)]
    #[inline]
    fn __spill(&mut self) -> Option<&mut Spill> {
        None
    }
}

/// The side buffer of collections whose length serde did not give.
///
/// Surp headers carry counts, so such a collection cannot be written until
/// it ends. The outermost one is built here and then copied to the output
/// after its header. Collections of unknown length nested in it are written
/// into the same buffer behind a gap of [`MAX_HEADER`](crate::wire::MAX_HEADER) bytes; when one ends,
/// its header goes at the end of its gap and the rest of the gap, the
/// *slack*, is recorded in `gaps` rather than closed by moving the items
/// back. The copy to the output skips the slack, so every byte is written
/// once here and copied once more, whatever the depth.
///
/// Closing each gap at once (as `surp` did with one buffer per level, and as
/// `surp-dedup` did in place) moves every byte once per enclosing
/// collection: encoding time grew with size times depth. A collection whose
/// pending slack is at least half of its bytes closes it at once instead, in
/// one pass over its bytes (paid for by the slack it removes): the buffer
/// then stays under twice the bytes it will give.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Spill {
    pub(crate) bytes: Vec<u8>,
    /// `(position, slack)` of each gap, in order of position: an entry is
    /// pushed when its collection opens and gets its slack when it ends.
    pub(crate) gaps: Vec<(usize, usize)>,
    /// The sum of the slacks in `gaps`.
    pub(crate) slack: usize,
}

impl Spill {
    /// Removes the slack of `gaps[from..]` by moving the bytes after it
    /// back, in one pass from the first of them to the end.
    pub(crate) fn close_gaps(&mut self, from: usize) {
        let Some(&(first, _)) = self.gaps.get(from) else {
            return;
        };
        let mut write = first;
        for i in from..self.gaps.len() {
            let (at, slack) = self.gaps[i];
            let next = self.gaps.get(i + 1).map_or(self.bytes.len(), |g| g.0);
            self.bytes.copy_within(at + slack..next, write);
            write += next - at - slack;
            self.slack -= slack;
        }
        self.bytes.truncate(write);
        self.gaps.truncate(from);
    }

    /// Writes the bytes to `out` without the slack.
    pub(crate) fn write_to<O: Output + ?Sized>(&self, out: &mut O) -> Result<()> {
        let mut from = 0;
        for &(at, slack) in &self.gaps {
            out.write_all(&self.bytes[from..at])?;
            from = at + slack;
        }
        out.write_all(&self.bytes[from..])
    }

    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.gaps.clear();
        self.slack = 0;
    }
}

impl Output for Spill {
    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<()> {
        self.bytes.write_u8(byte)
    }
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.bytes.write_all(bytes)
    }
    #[inline]
    fn write_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> Result<()> {
        self.bytes.write_prefix(bytes, len)
    }
    #[inline]
    fn __spill(&mut self) -> Option<&mut Spill> {
        Some(self)
    }
}

impl Output for Vec<u8> {
    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<()> {
        self.push(byte);
        Ok(())
    }
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }
    #[inline]
    fn write_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> Result<()> {
        debug_assert!(len <= N);
        self.extend_from_slice(bytes);
        self.truncate(self.len() - (N - len));
        Ok(())
    }
}

impl<O: Output + ?Sized> Output for &mut O {
    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<()> {
        (**self).write_u8(byte)
    }
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        (**self).write_all(bytes)
    }
    #[inline]
    fn write_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> Result<()> {
        (**self).write_prefix(bytes, len)
    }
    #[inline]
    fn __spill(&mut self) -> Option<&mut Spill> {
        (**self).__spill()
    }
}

/// Writes into a fixed byte slice, from its start; a document that does
/// not fit is [`ErrorKind::OutputFull`] rather than a panic. Needs no
/// allocation for the output (see [`crate::to_slice`]).
#[derive(Debug)]
pub struct SliceWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceWriter<'a> {
    /// A writer that starts at the beginning of `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceWriter { buf, len: 0 }
    }

    /// How many bytes were written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The part of the slice written so far.
    pub fn into_written(self) -> &'a mut [u8] {
        &mut self.buf[..self.len]
    }
}

impl Output for SliceWriter<'_> {
    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<()> {
        self.write_all(&[byte])
    }
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        let Some(to) = self.buf.get_mut(self.len..self.len + bytes.len()) else {
            return Err(Error::without_offset(ErrorKind::OutputFull));
        };
        to.copy_from_slice(bytes);
        self.len += bytes.len();
        Ok(())
    }
}

/// Adapts an [`std::io::Write`] as an [`Output`].
///
/// Each value makes small writes; wrap files and sockets in a
/// [`std::io::BufWriter`].
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct IoWriter<W>(pub W);

#[cfg(feature = "std")]
impl<W: std::io::Write> Output for IoWriter<W> {
    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<()> {
        self.write_all(&[byte])
    }
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.0
            .write_all(bytes)
            .map_err(|e| Error::without_offset(ErrorKind::Io(e)))
    }
}

/// Adapts a `bytes::BufMut` (such as `bytes::BytesMut`) as an [`Output`].
///
/// A `BufMut` that cannot grow (a fixed `&mut [u8]`) gives an error when it is
/// full instead of panicking.
#[cfg(feature = "bytes")]
#[derive(Debug)]
pub struct BufMutWriter<B>(pub B);

#[cfg(feature = "bytes")]
impl<B: bytes::BufMut> Output for BufMutWriter<B> {
    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<()> {
        self.write_all(&[byte])
    }
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        if self.0.remaining_mut() < bytes.len() {
            return Err(Error::without_offset(ErrorKind::OutputFull));
        }
        self.0.put_slice(bytes);
        Ok(())
    }
}
