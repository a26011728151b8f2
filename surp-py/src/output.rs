//! Where `dumps` writes: straight into the `bytes` object it returns.
//!
//! The serializer makes many small writes (a tag, a short string); they are
//! gathered in a `Vec`, which is moved into the `bytes` object when a large
//! payload (a long string, a blob) comes, and that payload is copied
//! straight in. Small writes stay as cheap as pushing to a `Vec` (nothing is
//! checked per write), and a blob is copied once instead of two or three
//! times (into a growing `Vec`, then into the `bytes`), which is what
//! decides the speed on binary data.
//!
//! The buffer never grows: when a write would not fit, what is buffered
//! moves into the `bytes` object first. The document itself lives only in
//! Python memory, so running out of memory is a `MemoryError` (or the
//! module's error), not an aborted allocation in Rust.

use pyo3::prelude::*;
use pyo3::types::bytes::PyBytesWriter;
use surp::{Error, Output};

/// A payload at least this long bypasses the buffer.
const DIRECT_AT: usize = 2 * 1024;

/// The buffer's fixed size: anything shorter than [`DIRECT_AT`] fits once it
/// is flushed.
const BUFFER: usize = 8 * 1024;

/// An [`Output`] that fills a `bytes` object under construction.
pub(crate) struct BytesOutput<'a, 'py> {
    writer: &'a mut PyBytesWriter<'py>,
    pending: Vec<u8>,
    /// A Python error from growing the `bytes` object (out of memory).
    failed: Option<PyErr>,
}

impl<'a, 'py> BytesOutput<'a, 'py> {
    /// An output that fills the writer's `bytes` object; call
    /// [`BytesOutput::flush`] at the end.
    pub(crate) fn new(writer: &'a mut PyBytesWriter<'py>) -> Self {
        BytesOutput {
            writer,
            pending: Vec::with_capacity(BUFFER),
            failed: None,
        }
    }

    /// Moves what is buffered into the `bytes` object.
    pub(crate) fn flush(&mut self) -> surp::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let result = self.writer.write_bytes(&self.pending);
        self.pending.clear();
        result.map_err(|e| self.fail(e))
    }

    /// The Python error behind a failed write, if that is why it failed.
    pub(crate) fn take_python_error(&mut self) -> Option<PyErr> {
        self.failed.take()
    }

    #[cold]
    fn fail(&mut self, err: PyErr) -> Error {
        let message = err.to_string();
        self.failed = Some(err);
        <Error as serde::ser::Error>::custom(message)
    }
}

impl Output for BytesOutput<'_, '_> {
    #[inline]
    fn write_u8(&mut self, byte: u8) -> surp::Result<()> {
        self.room(1)?;
        self.pending.push(byte);
        Ok(())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> surp::Result<()> {
        if bytes.len() >= DIRECT_AT {
            return self.write_direct(bytes);
        }
        self.room(bytes.len())?;
        self.pending.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn write_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> surp::Result<()> {
        self.room(N)?;
        // A fixed-size copy and a truncation beat a copy of variable length.
        self.pending.extend_from_slice(bytes);
        self.pending.truncate(self.pending.len() - (N - len));
        Ok(())
    }
}

impl BytesOutput<'_, '_> {
    /// Makes room for `n` more bytes (at most [`DIRECT_AT`]) in the buffer
    /// without growing it.
    #[inline]
    fn room(&mut self, n: usize) -> surp::Result<()> {
        if self.pending.len() + n > BUFFER {
            return self.flush();
        }
        Ok(())
    }

    #[cold]
    fn write_direct(&mut self, bytes: &[u8]) -> surp::Result<()> {
        self.flush()?;
        self.writer.write_bytes(bytes).map_err(|e| self.fail(e))
    }
}
