//! How the messages suite sends a stream of messages, and how a stream is
//! timed.
//!
//! A [`StreamCodec`] makes, once per stream, an encoder and a decoder that
//! live for the whole stream, so a format may keep state from one message
//! to the next (one zstd stream; a Surp session). What a format learns
//! before any stream starts (a zstd dictionary) it learns once per
//! workload, from the workload's training records, in
//! [`StreamCodec::train`]; every stream then shares it. A format without
//! state is [`Alone`]: each message is a document of its own. The zstd
//! layers of the `stream_zstd` module wrap any stream codec, stateful or
//! not.
//!
//! A format's lane ([`stream_lane`]) encodes the whole stream, each
//! message framed with `surp::frame`'s 4-byte length prefix whatever the
//! format, and decodes it back, reading the frames in place. A codec whose
//! streams open with something of their own (a session's header) sends it
//! as the stream's first frame ([`StreamCodec::OPENS`]).

use std::hint::black_box;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Operation;
use crate::codec::{CodecError, SerdeFormat};
use crate::lane::{Lane, LaneError, timed_decode_into, timed_encode};
use crate::workload::{Message, Stream, StreamVisitor, WorkloadStream};

/// The sending end of one stream.
pub(crate) trait MessageEncoder {
    /// Writes what the stream sends before its first message (a session's
    /// header) into `out`, which the caller has cleared; called once, first,
    /// and only for a codec that [opens](StreamCodec::OPENS) its streams.
    fn open(&mut self, out: &mut Vec<u8>) -> Result<(), CodecError> {
        let _ = out;
        Ok(())
    }

    /// Writes the encoding of `message` into `out`, which the caller has
    /// cleared.
    fn encode<T: Serialize>(&mut self, message: &T, out: &mut Vec<u8>) -> Result<(), CodecError>;
}

/// The receiving end of one stream.
pub(crate) trait MessageDecoder {
    /// Reads what the encoder's [`open`](MessageEncoder::open) wrote; called
    /// once, first, and only for a codec that opens its streams.
    fn open(&mut self, bytes: &[u8]) -> Result<(), CodecError> {
        let _ = bytes;
        Ok(())
    }

    /// Decodes one message from all of `bytes`, as the encoder's `encode`
    /// of the same place in the stream wrote them.
    fn decode<T: DeserializeOwned>(&mut self, bytes: &[u8]) -> Result<T, CodecError>;
}

/// What a receiver needs, besides a message's own bytes, to decode it: the
/// question that decides which way of sending messages fits a transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sharing {
    /// Nothing: each message decodes on its own.
    Nothing,
    /// What both ends learnt before the stream started (a dictionary);
    /// each message still decodes without the others.
    Dictionary,
    /// Every message before it in the stream, in order.
    Stream,
}

impl Sharing {
    /// Whichever of the two needs more.
    pub const fn or(self, other: Sharing) -> Sharing {
        if self as u8 >= other as u8 {
            self
        } else {
            other
        }
    }
}

/// A way of sending a stream of messages: the encoder and the decoder a
/// stream gets, and what they share.
pub(crate) trait StreamCodec: 'static {
    /// Whether a stream opens with a frame of its own before the first
    /// message (a session's header), which counts in the stream's size.
    const OPENS: bool = false;
    /// What a receiver needs besides a message's own bytes.
    const SHARING: Sharing;

    /// What every stream of a workload shares: learnt from the training
    /// records once, outside the clock (a zstd dictionary); `()` for a
    /// format that learns nothing.
    type Shared;
    /// The encoder of one stream.
    type Encoder<'s>: MessageEncoder
    where
        Self::Shared: 's;
    /// The decoder of one stream.
    type Decoder<'s>: MessageDecoder
    where
        Self::Shared: 's;

    /// Learns what the streams of a workload share from its training
    /// records, which are never sent.
    fn train<T: Serialize>(training: &[T]) -> Result<Self::Shared, CodecError>;
    /// A fresh encoder, for a new stream.
    fn encoder(shared: &Self::Shared) -> Result<Self::Encoder<'_>, CodecError>;
    /// A fresh decoder, for a new stream.
    fn decoder(shared: &Self::Shared) -> Result<Self::Decoder<'_>, CodecError>;
}

/// A serde format with each message a document of its own: nothing learnt,
/// nothing kept from one message to the next.
pub(crate) struct Alone<C>(PhantomData<C>);

impl<C: SerdeFormat> StreamCodec for Alone<C> {
    const SHARING: Sharing = Sharing::Nothing;
    type Shared = ();
    type Encoder<'s> = Alone<C>;
    type Decoder<'s> = Alone<C>;

    fn train<T: Serialize>(_: &[T]) -> Result<(), CodecError> {
        Ok(())
    }
    fn encoder(_: &()) -> Result<Alone<C>, CodecError> {
        Ok(Alone(PhantomData))
    }
    fn decoder(_: &()) -> Result<Alone<C>, CodecError> {
        Ok(Alone(PhantomData))
    }
}

impl<C: SerdeFormat> MessageEncoder for Alone<C> {
    fn encode<T: Serialize>(&mut self, message: &T, out: &mut Vec<u8>) -> Result<(), CodecError> {
        C::encode(message, out)
    }
}

impl<C: SerdeFormat> MessageDecoder for Alone<C> {
    fn decode<T: DeserializeOwned>(&mut self, bytes: &[u8]) -> Result<T, CodecError> {
        C::decode(bytes)
    }
}

/// Builds a format's lane for a workload's stream, checked and ready to
/// time.
pub(crate) type StreamLaneFn =
    for<'w> fn(&'w WorkloadStream) -> Result<Box<dyn Lane + 'w>, LaneError>;

/// How a format of the messages suite sends a stream: a [`StreamCodec`],
/// resolved once into what the harness and the reports need of it.
#[derive(Clone, Copy)]
pub(crate) struct Sending {
    /// Builds the format's lane for a workload.
    pub(crate) lane: StreamLaneFn,
    /// What a receiver needs besides a message's own bytes.
    pub(crate) sharing: Sharing,
}

impl Sending {
    /// How the stream codec `C` sends.
    pub(crate) const fn of<C: StreamCodec>() -> Sending {
        Sending {
            lane: stream_lane::<C>,
            sharing: C::SHARING,
        }
    }
}

/// The lane of the stream codec `C` for a workload, checked first: the
/// codec trains, encodes the stream twice (the bytes must match, as each
/// stream starts afresh) and decodes it (every message must equal the one
/// sent).
pub(crate) fn stream_lane<C: StreamCodec>(
    stream: &WorkloadStream,
) -> Result<Box<dyn Lane + '_>, LaneError> {
    struct Build<C>(PhantomData<C>);
    impl<'w, C: StreamCodec> StreamVisitor<'w> for Build<C> {
        type Output = Result<Box<dyn Lane + 'w>, LaneError>;
        fn visit<T: Message>(self, stream: &'w Stream<T>) -> Self::Output {
            Ok(Box::new(StreamLane::<C, T>::new(stream)?))
        }
    }
    stream.visit(Build::<C>(PhantomData))
}

/// Encodes a stream with one encoder of the codec `C`: its opening, if it
/// has one, then every message, each into `message` (a reused buffer) and
/// then, framed, onto the end of `out`.
fn encode_stream<'m, C: StreamCodec, T: Message>(
    encoder: &mut C::Encoder<'_>,
    messages: impl Iterator<Item = &'m T>,
    message: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<(), CodecError> {
    if C::OPENS {
        message.clear();
        encoder.open(message)?;
        surp::frame::write_frame_bytes(&mut *out, message)?;
    }
    for m in messages {
        message.clear();
        encoder.encode(black_box(m), message)?;
        surp::frame::write_frame_bytes(&mut *out, message)?;
    }
    Ok(())
}

/// Decodes a stream with one decoder of the codec `C`: its opening, if it
/// has one, then every frame, in order, onto the end of `out`.
fn decode_stream<C: StreamCodec, T: Message>(
    decoder: &mut C::Decoder<'_>,
    mut stream: &[u8],
    out: &mut Vec<T>,
) -> Result<(), CodecError> {
    if C::OPENS {
        let (opening, rest) = split_frame(stream)?;
        decoder.open(opening)?;
        stream = rest;
    }
    while !stream.is_empty() {
        let (frame, rest) = split_frame(stream)?;
        out.push(decoder.decode(frame)?);
        stream = rest;
    }
    Ok(())
}

/// The first frame of `input` and what follows it. The layout is
/// `surp::frame`'s: the length in [`surp::frame::PREFIX_LEN`] bytes, little
/// endian, then the message; read in place, where `surp::frame::read_frame`
/// would copy the message out of a reader.
fn split_frame(input: &[u8]) -> Result<(&[u8], &[u8]), CodecError> {
    let (prefix, rest) = input
        .split_first_chunk::<{ surp::frame::PREFIX_LEN }>()
        .ok_or("the stream ends inside a frame's length")?;
    let len = u32::from_le_bytes(*prefix) as usize;
    if rest.len() < len {
        return Err(format!(
            "a frame of {len} bytes has only {} left in the stream",
            rest.len()
        )
        .into());
    }
    Ok(rest.split_at(len))
}

/// One format's state while a workload's stream is measured.
struct StreamLane<'w, C: StreamCodec, T> {
    stream: &'w Stream<T>,
    shared: C::Shared,
    /// The checked stream, which decode runs read.
    encoded: Vec<u8>,
    /// The stream encode runs write, cleared (capacity kept) each time.
    scratch: Vec<u8>,
    /// One message's encoding before it is framed.
    message: Vec<u8>,
    /// The decoded messages of a run, dropped after the clock stops.
    decoded: Vec<T>,
}

impl<'w, C: StreamCodec, T: Message> StreamLane<'w, C, T> {
    fn new(stream: &'w Stream<T>) -> Result<Self, LaneError> {
        let fail = |operation| move |err: CodecError| (operation, err.to_string());
        let shared = C::train(stream.training())
            .map_err(|err| (Operation::Encode, format!("training failed: {err}")))?;
        let encode = || -> Result<Vec<u8>, CodecError> {
            let mut out = Vec::new();
            let mut encoder = C::encoder(&shared)?;
            encode_stream::<C, T>(&mut encoder, stream.messages(), &mut Vec::new(), &mut out)?;
            Ok(out)
        };
        let encoded = encode().map_err(fail(Operation::Encode))?;
        if encode().map_err(fail(Operation::Encode))? != encoded {
            return Err((
                Operation::Encode,
                "two encodes of the same stream differ".to_owned(),
            ));
        }
        let messages = stream.shape().messages;
        let mut decoded = Vec::with_capacity(messages);
        let mut decoder = C::decoder(&shared).map_err(fail(Operation::Decode))?;
        decode_stream::<C, T>(&mut decoder, &encoded, &mut decoded)
            .map_err(fail(Operation::Decode))?;
        drop(decoder);
        if decoded.len() != messages {
            return Err((
                Operation::Decode,
                format!(
                    "the stream decodes to {} messages, not {messages}",
                    decoded.len()
                ),
            ));
        }
        if let Some(i) = stream.messages().zip(&decoded).position(|(a, b)| a != b) {
            return Err((
                Operation::Decode,
                format!("message {i} decodes to another value than the one sent"),
            ));
        }
        decoded.clear();
        Ok(StreamLane {
            stream,
            shared,
            encoded,
            scratch: Vec::new(),
            message: Vec::new(),
            decoded,
        })
    }
}

impl<C: StreamCodec, T: Message> Lane for StreamLane<'_, C, T> {
    fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    fn messages(&self) -> Option<u64> {
        Some(self.stream.shape().messages as u64)
    }

    fn supports(&self, operation: Operation) -> bool {
        matches!(operation, Operation::Encode | Operation::Decode)
    }

    /// The encoder or decoder is made before the clock starts, as a
    /// connection's would be, and the clock covers every message of the
    /// stream.
    fn run(&mut self, operation: Operation) -> Result<u64, CodecError> {
        let StreamLane {
            stream,
            shared,
            encoded,
            scratch,
            message,
            decoded,
        } = self;
        match operation {
            Operation::Encode => {
                let mut encoder = C::encoder(shared)?;
                timed_encode(scratch, |out| {
                    encode_stream::<C, T>(&mut encoder, stream.messages(), message, out)
                })
            }
            Operation::Decode => {
                let mut decoder = C::decoder(shared)?;
                timed_decode_into(decoded, |out| {
                    decode_stream::<C, T>(&mut decoder, black_box(encoded), out)
                })
            }
            Operation::DecodeBorrowed | Operation::Roundtrip => {
                Err(format!("the messages suite does not time {operation}").into())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FORMATS, Mode, Suite, Workload};

    /// How many frames a stream holds.
    fn frames(mut stream: &[u8]) -> usize {
        let mut n = 0;
        while !stream.is_empty() {
            stream = split_frame(stream).unwrap().1;
            n += 1;
        }
        n
    }

    #[test]
    fn every_message_of_every_workload_round_trips_through_every_format() {
        let messages = Mode::Ci.messages_per_stream();
        for workload in Workload::ALL {
            let stream = workload.load(Mode::Ci).unwrap();
            let formats: Vec<&str> = FORMATS
                .iter()
                .filter(|f| f.measures(workload.into()))
                .map(|f| f.name)
                .collect();
            for format in FORMATS.iter().filter(|f| f.measures(workload.into())) {
                // Building the lane checks every message against the one
                // sent, each decoded from its own frame alone.
                let build = format.messages.unwrap().lane;
                let lane = build(&stream)
                    .unwrap_or_else(|(op, err)| panic!("{} {workload} {op}: {err}", format.name));
                assert_eq!(lane.messages(), Some(messages as u64));
                // A session's stream opens with its header's frame.
                let opening = usize::from(format.name.starts_with("surp_session"));
                assert_eq!(
                    frames(lane.encoded()),
                    messages + opening,
                    "{} {workload}",
                    format.name
                );
            }
            let expected = if workload.is_typed() { 11 } else { 9 };
            assert_eq!(formats.len(), expected, "{workload}: {formats:?}");
        }
        let in_suite = FORMATS.iter().filter(|f| f.in_suite(Suite::Messages));
        assert_eq!(in_suite.count(), 11);
    }

    /// Plain Surp whose streams open with a greeting that the decoder
    /// must read before any message: a stand-in for a session's header.
    struct Greeting;
    struct Greeter(bool);

    impl StreamCodec for Greeting {
        const OPENS: bool = true;
        const SHARING: Sharing = Sharing::Nothing;
        type Shared = ();
        type Encoder<'s> = Greeter;
        type Decoder<'s> = Greeter;
        fn train<T: Serialize>(_: &[T]) -> Result<(), CodecError> {
            Ok(())
        }
        fn encoder(_: &()) -> Result<Greeter, CodecError> {
            Ok(Greeter(false))
        }
        fn decoder(_: &()) -> Result<Greeter, CodecError> {
            Ok(Greeter(false))
        }
    }

    impl MessageEncoder for Greeter {
        fn open(&mut self, out: &mut Vec<u8>) -> Result<(), CodecError> {
            out.extend_from_slice(b"hello");
            Ok(())
        }
        fn encode<T: Serialize>(
            &mut self,
            message: &T,
            out: &mut Vec<u8>,
        ) -> Result<(), CodecError> {
            crate::codec::Surp::encode(message, out)
        }
    }

    impl MessageDecoder for Greeter {
        fn open(&mut self, bytes: &[u8]) -> Result<(), CodecError> {
            self.0 = bytes == b"hello";
            Ok(())
        }
        fn decode<T: DeserializeOwned>(&mut self, bytes: &[u8]) -> Result<T, CodecError> {
            if !self.0 {
                return Err("no greeting before the message".into());
            }
            crate::codec::Surp::decode(bytes)
        }
    }

    #[test]
    fn a_stream_that_opens_sends_its_opening_first_through_every_zstd_layer() {
        use crate::stream_zstd::{ZstdAlone, ZstdDictionary, ZstdStream};
        let stream = Workload::LogRecord.load(Mode::Ci).unwrap();
        let messages = Mode::Ci.messages_per_stream();
        let plain = stream_lane::<Alone<crate::codec::Surp>>(&stream).unwrap();
        let greeted = stream_lane::<Greeting>(&stream).unwrap();
        assert_eq!(frames(greeted.encoded()), messages + 1);
        let (opening, rest) = split_frame(greeted.encoded()).unwrap();
        assert_eq!(opening, b"hello");
        assert_eq!(rest, plain.encoded());
        for lane in [
            stream_lane::<ZstdAlone<Greeting>>(&stream),
            stream_lane::<ZstdDictionary<Greeting>>(&stream),
            stream_lane::<ZstdStream<Greeting>>(&stream),
        ] {
            let lane = lane.unwrap_or_else(|(op, err)| panic!("{op}: {err}"));
            assert_eq!(frames(lane.encoded()), messages + 1);
        }
    }

    #[test]
    fn frames_are_read_in_place_in_surp_frame_s_layout() {
        let mut stream = Vec::new();
        surp::frame::write_frame_bytes(&mut stream, b"ab").unwrap();
        surp::frame::write_frame_bytes(&mut stream, b"").unwrap();
        let (first, rest) = split_frame(&stream).unwrap();
        assert_eq!(first, b"ab");
        let (second, rest) = split_frame(rest).unwrap();
        assert_eq!((second, rest), (&b""[..], &b""[..]));
        assert!(split_frame(&stream[..5]).is_err());
        assert!(split_frame(&stream[..2]).is_err());
    }
}
