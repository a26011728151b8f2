//! Decoding input from an [`std::io::Read`]: the reader copies each payload
//! into a scratch buffer that grows only as bytes arrive.

#[allow(unused_imports)]
use crate::prelude::*;

use super::{Kept, Read, Reference, Span, kept_utf8, private};
use crate::error::{Error, ErrorKind, Result};

/// Decoding input from an [`std::io::Read`].
///
/// It reads exactly the bytes of one value and no more, so several values can
/// be read from one stream. Each value makes small reads: wrap files and
/// sockets in a [`std::io::BufReader`].
pub struct IoRead<R> {
    reader: R,
    peeked: Option<u8>,
    pos: usize,
    scratch: Vec<u8>,
    /// Strings of the current deduplicated document kept for references; a
    /// reader has no input slice to point back into.
    kept: String,
}

impl<R: std::io::Read> IoRead<R> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> Self {
        IoRead {
            reader,
            peeked: None,
            pos: 0,
            scratch: Vec::new(),
            kept: String::new(),
        }
    }

    /// Gives back the reader.
    pub fn into_inner(self) -> R {
        self.reader
    }

    fn io_error(&self, e: std::io::Error) -> Error {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            Error::new(ErrorKind::UnexpectedEof, self.pos)
        } else {
            Error::new(ErrorKind::Io(e), self.pos)
        }
    }

    /// Fills `buf`, counting every byte that arrives, so that an input that
    /// ends inside it reports its true end, as a slice does.
    fn read_exact_raw(&mut self, buf: &mut [u8]) -> Result<()> {
        let mut filled = 0;
        if let (Some(b), Some(first)) = (self.peeked, buf.first_mut()) {
            *first = b;
            self.peeked = None;
            self.pos += 1;
            filled = 1;
        }
        while filled < buf.len() {
            match self.reader.read(&mut buf[filled..]) {
                Ok(0) => return Err(Error::new(ErrorKind::UnexpectedEof, self.pos)),
                Ok(n) => {
                    filled += n;
                    self.pos += n;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io_error(e)),
            }
        }
        Ok(())
    }
}

impl<R> private::Sealed for IoRead<R> {}

impl<'de, R: std::io::Read> Read<'de> for IoRead<R> {
    #[inline]
    fn offset(&self) -> usize {
        self.pos
    }

    fn peek(&mut self) -> Result<Option<u8>> {
        if self.peeked.is_none() {
            let mut b = [0u8];
            loop {
                match self.reader.read(&mut b) {
                    Ok(0) => return Ok(None),
                    Ok(_) => break,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(self.io_error(e)),
                }
            }
            self.peeked = Some(b[0]);
        }
        Ok(self.peeked)
    }

    #[inline]
    fn next_u8(&mut self) -> Result<u8> {
        let mut b = [0u8];
        self.read_exact_raw(&mut b)?;
        Ok(b[0])
    }

    fn read_le(&mut self, width: usize) -> Result<u64> {
        let mut buf = [0u8; 8];
        self.read_exact_raw(&mut buf[..width])?;
        Ok(u64::from_le_bytes(buf))
    }

    fn read_into(&mut self, buf: &mut [u8]) -> Result<()> {
        self.read_exact_raw(buf)
    }

    #[inline]
    fn remaining(&self) -> Option<usize> {
        None
    }

    fn fill(&mut self, len: usize) -> Result<Span> {
        let start = self.pos;
        self.scratch.clear();
        if len > 0 {
            if let Some(b) = self.peeked.take() {
                self.scratch.push(b);
                self.pos += 1;
            }
            // `take` + `read_to_end` grows the buffer as data arrives, so a
            // claimed length of 2^60 costs nothing until the bytes exist.
            let want = (len - self.scratch.len()) as u64;
            let got = std::io::Read::read_to_end(
                &mut std::io::Read::take(&mut self.reader, want),
                &mut self.scratch,
            );
            match got {
                Ok(n) => self.pos += n,
                Err(e) => return Err(self.io_error(e)),
            }
            if self.scratch.len() < len {
                return Err(Error::new(ErrorKind::UnexpectedEof, self.pos));
            }
        }
        Ok(Span { start, len })
    }

    #[inline]
    fn payload(&self, _span: Span) -> Reference<'de, '_, [u8]> {
        Reference::Copied(&self.scratch)
    }

    fn take(&mut self, len: usize) -> Result<Reference<'de, '_, [u8]>> {
        self.fill(len)?;
        Ok(Reference::Copied(&self.scratch))
    }

    fn skip(&mut self, len: usize) -> Result<()> {
        if len > 0 && self.peeked.take().is_some() {
            self.pos += 1;
            return self.skip_inner(len - 1);
        }
        self.skip_inner(len)
    }

    fn remember_str(&mut self, span: Span) -> Result<Kept> {
        let text = kept_utf8(&self.scratch, span.start)?;
        let at = self.kept.len();
        self.kept.push_str(text);
        Ok(Kept {
            at,
            len: text.len(),
        })
    }

    fn recall_str(&self, kept: Kept, _: private::Recall) -> Reference<'de, '_, str> {
        Reference::Copied(&self.kept[kept.at..kept.at + kept.len])
    }

    fn forget(&mut self) {
        self.kept.clear();
        // A long string of an earlier document need not stay allocated.
        self.kept.shrink_to(SCRATCH_KEEP);
        self.scratch.clear();
        self.scratch.shrink_to(SCRATCH_KEEP);
    }

    fn skip_probe(&mut self, len: usize, probe: usize) -> Result<bool> {
        let want = len.min(probe.saturating_add(1));
        match self.skip(want) {
            Ok(()) => Ok(true),
            Err(e) if e.is_eof() => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// What a reader's buffers keep of their capacity from one document to the
/// next.
const SCRATCH_KEEP: usize = 64 * 1024;

impl<R: std::io::Read> IoRead<R> {
    fn skip_inner(&mut self, len: usize) -> Result<()> {
        let copied = std::io::copy(
            &mut std::io::Read::take(&mut self.reader, len as u64),
            &mut std::io::sink(),
        );
        match copied {
            Ok(n) => {
                self.pos += n as usize;
                if (n as usize) < len {
                    return Err(Error::new(ErrorKind::UnexpectedEof, self.pos));
                }
                Ok(())
            }
            Err(e) => Err(self.io_error(e)),
        }
    }
}
