//! Decoding one whole document: [`Options::from_slice`] and
//! [`Options::from_reader`], which also give a failed decode its path and a
//! hint.

#[cfg(feature = "std")]
use std::io;

use serde::de::Deserialize;
#[cfg(feature = "std")]
use serde::de::DeserializeOwned;

use super::Deserializer;
use crate::Options;
#[cfg(feature = "error-path")]
use crate::error::ErrorKind;
use crate::error::{Error, Result};
#[allow(unused_imports)]
use crate::prelude::*;

/// How deep the path-tracking second decode of a failed
/// [`Options::from_slice`] goes (see `explain`).
#[cfg(feature = "error-path")]
const PATH_DEPTH: usize = 32;

/// Whether `input` starts like a JSON document: optional whitespace, then
/// `{` followed by whitespace, `"` or `}`, or `[` followed by whitespace or
/// the start of a JSON value. Surp documents rarely start that way (a Surp
/// document starting with `{` would be the integer 123 followed by more).
fn looks_like_json(input: &[u8]) -> bool {
    let text = input.trim_ascii_start();
    let next = text
        .get(1..)
        .map(<[u8]>::trim_ascii_start)
        .and_then(|t| t.first());
    match (text.first(), next) {
        (Some(b'{'), Some(b'"' | b'}')) => true,
        (Some(b'['), Some(c)) => matches!(
            c,
            b'{' | b'[' | b'"' | b']' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
        ),
        _ => false,
    }
}

/// Adds a hint to an error for an input that looks like JSON text, or that
/// is a session document (`docs/spec.md` section 9), which a plain decoder
/// refuses at its first byte.
fn hint_if_json(input: &[u8], err: Error) -> Error {
    if looks_like_json(input) {
        err.with_hint("the input looks like JSON text, not a Surp document")
    } else if input.first() == Some(&crate::session::PREFIX) && err.offset() == Some(0) {
        err.with_hint(
            "a session message or dictionary document: read it with surp_dedup's \
             SessionDecoder or Dictionary",
        )
    } else {
        err
    }
}

/// A reader that keeps a copy of what it reads, up to `limit` bytes, so
/// that a failed decode can be replayed over the same bytes. Past the
/// limit it keeps nothing more and is no longer `complete`.
#[cfg(feature = "error-path")]
struct Recorder<R> {
    inner: R,
    seen: Vec<u8>,
    limit: usize,
    complete: bool,
}

#[cfg(feature = "error-path")]
impl<R: io::Read> io::Read for Recorder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.complete {
            if self.seen.len() + n <= self.limit {
                self.seen.extend_from_slice(&buf[..n]);
            } else {
                self.complete = false;
                self.seen = Vec::new();
            }
        }
        Ok(n)
    }
}

impl Options {
    /// Decodes a `T` from `input` with these limits, borrowing where `T` can.
    /// Trailing bytes are an error.
    ///
    /// An error names the path to the failing value ([`Error::path`]): after
    /// a failure the input is decoded once more with the path tracked, so
    /// the success path pays nothing for it. An input that looks like JSON
    /// text gets a hint saying so.
    pub fn from_slice<'de, T: Deserialize<'de>>(&self, input: &'de [u8]) -> Result<T> {
        let mut de = Deserializer::from_slice_with_options(input, self.clone());
        match T::deserialize(&mut de).and_then(|value| de.end().map(|()| value)) {
            Ok(value) => Ok(value),
            Err(err) => Err(self.explain::<T>(input, err)),
        }
    }

    /// Adds the path to the failing value, found by decoding `input` again
    /// through a path-tracking wrapper, and a hint when the input looks like
    /// JSON.
    #[cold]
    #[inline(never)]
    #[cfg_attr(
        not(feature = "error-path"),
        allow(clippy::extra_unused_type_parameters)
    )]
    fn explain<'de, T: Deserialize<'de>>(&self, input: &'de [u8], err: Error) -> Error {
        #[cfg(feature = "error-path")]
        let err = self.with_path(err, |opts| {
            let mut de = Deserializer::from_slice_with_options(input, opts);
            let mut track = serde_path_to_error::Track::new();
            let again = T::deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track));
            (again.err(), track)
        });
        hint_if_json(input, err)
    }

    /// Adds to `err` the path that `replay` finds: `replay` decodes the
    /// same input again with the options it is given, tracking the path,
    /// and returns its error and the track.
    #[cfg(feature = "error-path")]
    fn with_path(
        &self,
        err: Error,
        replay: impl FnOnce(Options) -> (Option<Error>, serde_path_to_error::Track),
    ) -> Error {
        if err.path().is_some() || matches!(err.kind(), ErrorKind::TrailingBytes) {
            return err;
        }
        // The tracking wrapper adds stack frames at every level, so the
        // second pass stops deeper than PATH_DEPTH: its stack stays within
        // what the first pass used at the full depth limit. An error
        // deeper than that keeps its offset and gets no path (the offsets
        // differ, below).
        let mut opts = self.clone();
        opts.max_depth = opts.max_depth.min(PATH_DEPTH);
        // Structs read as maps, so the path names their fields (read by
        // position, a field is only its index). A derived visitor reads
        // the values in the same order either way; as for any second pass,
        // the path is kept only if it fails at the same byte.
        opts.positional_structs = false;
        // The decoder is deterministic, so the second pass fails at the
        // same place; only then is its path the error's.
        match replay(opts) {
            (Some(second), track) if second.offset() == err.offset() => {
                let path = track.path().to_string();
                if path == "." {
                    err
                } else {
                    err.with_path(path)
                }
            }
            _ => err,
        }
    }

    /// Decodes a `T` from `reader` with these limits, then requires the end of
    /// the input.
    ///
    /// Errors carry the path that [`from_slice`](Self::from_slice) gives:
    /// the bytes read are kept (up to [`max_alloc`](Self::max_alloc)) so
    /// that a failed decode can be replayed over them with the path
    /// tracked. The hint for JSON text is given when the bytes read before
    /// the error show it; a reader stops at the error, and JSON usually
    /// fails at its first byte.
    #[cfg(feature = "std")]
    pub fn from_reader<R: io::Read, T: DeserializeOwned>(&self, reader: R) -> Result<T> {
        #[cfg(feature = "error-path")]
        {
            let mut recorder = Recorder {
                inner: reader,
                seen: Vec::new(),
                limit: self.max_alloc,
                complete: true,
            };
            match self.decode_reader::<_, T>(&mut recorder) {
                Ok(value) => Ok(value),
                Err(err) if recorder.complete => Err(self.explain_reader::<T>(&recorder.seen, err)),
                Err(err) => Err(err),
            }
        }
        #[cfg(not(feature = "error-path"))]
        self.decode_reader(reader)
    }

    #[cfg(feature = "std")]
    fn decode_reader<R: io::Read, T: DeserializeOwned>(&self, reader: R) -> Result<T> {
        let mut de = Deserializer::from_reader_with_options(reader, self.clone());
        // Read the marker before the root's offset is taken, as a slice does.
        de.at_root()?;
        let value = T::deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }

    /// [`explain`](Self::explain) for a reader's error: `seen` is every
    /// byte it read, which a reader over them reads to the same end.
    #[cfg(feature = "error-path")]
    #[cold]
    #[inline(never)]
    fn explain_reader<T: DeserializeOwned>(&self, seen: &[u8], err: Error) -> Error {
        let err = self.with_path(err, |opts| {
            let mut de = Deserializer::from_reader_with_options(seen, opts);
            let mut track = serde_path_to_error::Track::new();
            let again = de.at_root().and_then(|()| {
                T::deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track))
            });
            (again.err(), track)
        });
        hint_if_json(seen, err)
    }
}
