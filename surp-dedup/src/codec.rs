//! Sessions over a byte stream: a [`tokio_util::codec`] codec that frames
//! each session document as [`surp::frame`] does (a 4-byte little-endian
//! length, then the document), sends the session's header as its first
//! frame and expects the peer's header as the first frame it reads.
//!
//! Needs the `tokio` feature.
//!
//! ```
//! use futures_util::{SinkExt, StreamExt};
//! use serde::{Deserialize, Serialize};
//! use surp_dedup::SessionOptions;
//! use surp_dedup::codec::SessionCodec;
//! use tokio_util::codec::{FramedRead, FramedWrite};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct LogLine { level: String, service: String, message: String }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), surp_dedup::codec::SessionCodecError> {
//! // Any `AsyncWrite` and `AsyncRead`: here, the two ends of a pipe.
//! let (client, server) = tokio::io::duplex(4096);
//! let options = SessionOptions::new();
//! let mut sender = FramedWrite::new(client, SessionCodec::<LogLine>::new(&options));
//! let mut receiver = FramedRead::new(server, SessionCodec::<LogLine>::new(&options));
//!
//! for i in 0..3 {
//!     let line = LogLine {
//!         level: "info".into(),
//!         service: "checkout".into(),
//!         message: format!("order {i} paid"),
//!     };
//!     sender.send(&line).await?;
//!     assert_eq!(receiver.next().await.transpose()?, Some(line));
//! }
//!
//! // The codec encodes `LogLine` and `&LogLine`, so a call that sends
//! // nothing names which.
//! SinkExt::<&LogLine>::close(&mut sender).await?;
//! assert!(receiver.next().await.is_none());
//! # Ok(()) }
//! ```
//!
//! Each direction of a connection is a session of its own, so one codec
//! holds a [`SessionEncoder`] for what it sends and a [`SessionDecoder`]
//! for what it receives, both made from the same [`SessionOptions`]; the
//! two directions may carry different types (`SessionCodec<In, Out>`).
//!
//! A frame longer than the codec's limit is refused from its length prefix,
//! before any of it is buffered, with [`ErrorKind::FrameTooLong`]; the read
//! buffer grows only as bytes arrive. The decoder's memory is then bounded
//! by the budget it accepts plus what one frame can add (`docs/spec.md`
//! section 9.1). After an error the session cannot go on: a
//! [`FramedRead`](tokio_util::codec::FramedRead) ends its stream, and the
//! connection is best closed.

use std::fmt;
use std::io;
use std::marker::PhantomData;

use bytes::{Buf, BufMut, BytesMut};
use serde::de::DeserializeOwned;
use serde::ser::Serialize;
use surp::ErrorKind;
use surp::frame::{DEFAULT_MAX_FRAME_LEN, PREFIX_LEN};
use surp::wire::Kind;

use crate::{SessionDecoder, SessionEncoder, SessionOptions};

/// A [`tokio_util::codec`] `Decoder` of the messages of type `In` of the
/// session its peer sends, and `Encoder` of the messages of type `Out` (or
/// `&Out`) of the session it sends: see the [module](self) documentation.
pub struct SessionCodec<In, Out: ?Sized = In> {
    encoder: SessionEncoder,
    decoder: SessionDecoder,
    max_frame_len: usize,
    header_sent: bool,
    header_read: bool,
    /// The message being encoded, before it is copied behind its length
    /// prefix (the session encoder writes to a `Vec`); kept for its
    /// capacity.
    scratch: Vec<u8>,
    types: PhantomData<fn(&Out) -> In>,
}

impl<In, Out: ?Sized> SessionCodec<In, Out> {
    /// A codec whose two sessions, the one it sends and the one it reads,
    /// both have these options, and whose frames are at most
    /// [`DEFAULT_MAX_FRAME_LEN`] bytes long (16 MiB).
    pub fn new(options: &SessionOptions) -> SessionCodec<In, Out> {
        SessionCodec {
            encoder: options.encoder(),
            decoder: options.decoder(),
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
            header_sent: false,
            header_read: false,
            scratch: Vec::new(),
            types: PhantomData,
        }
    }

    /// The longest document to read or write, in bytes (without the
    /// length prefix). A document to send that is longer fails to encode
    /// and the session goes on, its next message a reset; a frame received
    /// that claims more is an error before any of it is read.
    pub fn max_frame_len(mut self, max_frame_len: usize) -> SessionCodec<In, Out> {
        self.max_frame_len = max_frame_len;
        self
    }

    /// The session it sends: how many messages, what its tables hold.
    pub fn encoder(&self) -> &SessionEncoder {
        &self.encoder
    }

    /// The session it reads.
    pub fn decoder(&self) -> &SessionDecoder {
        &self.decoder
    }

    /// Returns the tables of the session it sends to their initial state;
    /// the next message tells the peer to do the same
    /// ([`SessionEncoder::reset`]).
    pub fn reset(&mut self) {
        self.encoder.reset();
    }

    /// Encodes `value` as the next message and appends its frame to `dst`,
    /// after the header's frame if nothing was sent yet. On an error `dst`
    /// holds no part of the message.
    fn encode_message<T: Serialize + ?Sized>(
        &mut self,
        value: &T,
        dst: &mut BytesMut,
    ) -> Result<(), SessionCodecError> {
        if !self.header_sent {
            let header = self.encoder.header();
            put_frame(dst, &header, self.max_frame_len)?;
            self.header_sent = true;
        }
        self.scratch.clear();
        self.encoder.append_to_vec(&mut self.scratch, value)?;
        if let Err(e) = put_frame(dst, &self.scratch, self.max_frame_len) {
            // The peer will never see this message, whose strings and
            // shapes the encoder's tables now hold: start again from the
            // initial state, which the next message announces.
            self.encoder.reset();
            return Err(e);
        }
        Ok(())
    }

    /// The next complete frame's document in `src`, if one has arrived: its
    /// length, after checking it against the limit.
    fn next_frame_len(&self, src: &BytesMut) -> Result<Option<usize>, SessionCodecError> {
        let Some(prefix) = src.get(..PREFIX_LEN) else {
            return Ok(None);
        };
        let len = u32::from_le_bytes(prefix.try_into().expect("a 4-byte prefix"));
        if len as usize > self.max_frame_len {
            return Err(frame_too_long(len.into(), self.max_frame_len, Some(0)));
        }
        let len = len as usize;
        // Not `reserve`d: the buffer grows as bytes arrive, never on the
        // word of a length prefix.
        Ok((src.len() - PREFIX_LEN >= len).then_some(len))
    }
}

impl<In, Out: ?Sized> fmt::Debug for SessionCodec<In, Out> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionCodec")
            .field("max_frame_len", &self.max_frame_len)
            .field("header_sent", &self.header_sent)
            .field("header_read", &self.header_read)
            .field("messages_sent", &self.encoder.messages())
            .finish_non_exhaustive()
    }
}

/// Appends `doc` to `dst` as a frame of at most `max_len` bytes (and at
/// most `u32::MAX`, which the prefix can say).
fn put_frame(dst: &mut BytesMut, doc: &[u8], max_len: usize) -> Result<(), SessionCodecError> {
    let limit = max_len.min(u32::MAX as usize);
    if doc.len() > limit {
        return Err(frame_too_long(doc.len() as u64, limit, None));
    }
    dst.reserve(PREFIX_LEN + doc.len());
    dst.put_u32_le(doc.len() as u32);
    dst.put_slice(doc);
    Ok(())
}

fn frame_too_long(len: u64, limit: usize, offset: Option<usize>) -> SessionCodecError {
    let kind = ErrorKind::FrameTooLong { len, limit };
    SessionCodecError::Surp(match offset {
        Some(at) => surp::__private::error_at(kind, at),
        None => surp::__private::error(kind),
    })
}

impl<In, Out: Serialize> tokio_util::codec::Encoder<Out> for SessionCodec<In, Out> {
    type Error = SessionCodecError;

    fn encode(&mut self, item: Out, dst: &mut BytesMut) -> Result<(), SessionCodecError> {
        self.encode_message(&item, dst)
    }
}

impl<In, Out: Serialize + ?Sized> tokio_util::codec::Encoder<&Out> for SessionCodec<In, Out> {
    type Error = SessionCodecError;

    fn encode(&mut self, item: &Out, dst: &mut BytesMut) -> Result<(), SessionCodecError> {
        self.encode_message(item, dst)
    }
}

impl<In: DeserializeOwned, Out: ?Sized> tokio_util::codec::Decoder for SessionCodec<In, Out> {
    type Item = In;
    type Error = SessionCodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<In>, SessionCodecError> {
        loop {
            let Some(len) = self.next_frame_len(src)? else {
                return Ok(None);
            };
            let doc = &src[PREFIX_LEN..PREFIX_LEN + len];
            if self.header_read {
                let message = self.decoder.decode(doc);
                src.advance(PREFIX_LEN + len);
                return Ok(Some(message?));
            }
            // The header: read it, then go on to a message that may have
            // arrived with it (`FramedRead` reads more input only when
            // this returns `None`, and the peer may be waiting for a reply).
            let header = self.decoder.read_header(doc);
            src.advance(PREFIX_LEN + len);
            header?;
            self.header_read = true;
        }
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<In>, SessionCodecError> {
        if let Some(message) = self.decode(src)? {
            return Ok(Some(message));
        }
        if src.is_empty() {
            return Ok(None);
        }
        // A frame cut short, as `surp::frame::read_frame` reports it.
        let err = if src.len() < PREFIX_LEN {
            surp::__private::error_at(ErrorKind::UnexpectedEof, src.len())
        } else {
            let len = u32::from_le_bytes(src[..PREFIX_LEN].try_into().expect("a 4-byte prefix"));
            let kind = ErrorKind::LengthExceedsInput {
                kind: Kind::Bytes,
                len: len.into(),
            };
            surp::__private::error_at(kind, 0)
        };
        Err(SessionCodecError::Surp(err))
    }
}

/// Why a [`SessionCodec`] failed: a document that breaks the rules or does
/// not fit the session (a frame too long, a message out of order, no
/// header, a value that does not decode as the type), or the transport.
#[derive(Debug)]
#[non_exhaustive]
pub enum SessionCodecError {
    /// Encoding, decoding, framing or the session's state.
    Surp(surp::Error),
    /// Reading or writing the transport.
    Io(io::Error),
}

impl fmt::Display for SessionCodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionCodecError::Surp(e) => e.fmt(f),
            SessionCodecError::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl std::error::Error for SessionCodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SessionCodecError::Surp(e) => e.source(),
            SessionCodecError::Io(e) => Some(e),
        }
    }
}

impl From<surp::Error> for SessionCodecError {
    fn from(e: surp::Error) -> SessionCodecError {
        SessionCodecError::Surp(e)
    }
}

impl From<io::Error> for SessionCodecError {
    fn from(e: io::Error) -> SessionCodecError {
        SessionCodecError::Io(e)
    }
}

#[cfg(test)]
mod tests;
