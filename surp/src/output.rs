//! Output sinks for the encoder.
//!
//! The serializer is generic over [`Output`], so `to_vec`, `to_writer` and
//! encoding into a `bytes::BufMut` share one encoder instead of one copy per
//! sink.

use crate::error::{Error, ErrorKind, Result};

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
}

/// Adapts an [`std::io::Write`] as an [`Output`].
///
/// Each value makes small writes; wrap files and sockets in a
/// [`std::io::BufWriter`].
#[derive(Debug)]
pub struct IoWriter<W>(pub W);

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
