//! zstd over any stream codec, three ways, all at
//! [`ZSTD_LEVEL`](crate::ZSTD_LEVEL):
//!
//! - [`ZstdAlone`]: each message compressed on its own, one zstd frame per
//!   message, which decodes without anything else;
//! - [`ZstdDictionary`]: the same with a dictionary trained on the
//!   workload's training records, which both ends hold before the stream
//!   starts;
//! - [`ZstdStream`]: one zstd stream for the whole stream of messages,
//!   flushed after each message so that the receiver can decode it at
//!   once; a message then needs every message before it.
//!
//! Each wraps an inner [`StreamCodec`] whose encoding it compresses, so a
//! stateful inner codec (a Surp session) composes with each of them.

use std::io::Write;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;
use zstd::dict::{DecoderDictionary, EncoderDictionary};
use zstd::stream::raw::{InBuffer, Operation as _, OutBuffer};

use crate::ZSTD_LEVEL;
use crate::codec::CodecError;
use crate::lane::{Packer, Unpacker};
use crate::stream::{MessageDecoder, MessageEncoder, Sharing, StreamCodec};

/// The largest dictionary that the format `surp_zstd_dict` trains, in
/// bytes: a few kilobytes of common substrings is what small messages
/// gain from, and each receiver holds the dictionary in memory. zstd's
/// trainer returns less when the training records are too few to fill it.
pub const DICTIONARY_BYTES: usize = 16 * 1024;

/// The inner codec's messages compressed one by one: each message is one
/// zstd frame that records its size.
pub(crate) struct ZstdAlone<S>(PhantomData<S>);

/// The inner codec's messages compressed one by one with a dictionary
/// trained on the inner codec's encoding of the training records.
pub(crate) struct ZstdDictionary<S>(PhantomData<S>);

/// The inner codec's messages through one zstd stream, flushed after each
/// message.
pub(crate) struct ZstdStream<S>(PhantomData<S>);

/// The encoder of [`ZstdAlone`] and [`ZstdDictionary`]: the inner encoder's
/// message, then compressed.
pub(crate) struct PackingEncoder<'d, E> {
    inner: E,
    pack: Packer<'d>,
}

/// The decoder of [`ZstdAlone`] and [`ZstdDictionary`].
pub(crate) struct UnpackingDecoder<'d, D> {
    inner: D,
    unpack: Unpacker<'d>,
}

impl<E: MessageEncoder> MessageEncoder for PackingEncoder<'_, E> {
    fn open(&mut self, out: &mut Vec<u8>) -> Result<(), CodecError> {
        let inner = &mut self.inner;
        self.pack.pack(|plain| inner.open(plain), out)
    }
    fn encode<T: Serialize>(&mut self, message: &T, out: &mut Vec<u8>) -> Result<(), CodecError> {
        let inner = &mut self.inner;
        self.pack.pack(|plain| inner.encode(message, plain), out)
    }
}

impl<D: MessageDecoder> MessageDecoder for UnpackingDecoder<'_, D> {
    fn open(&mut self, bytes: &[u8]) -> Result<(), CodecError> {
        let plain = self.unpack.unpack(bytes)?;
        self.inner.open(plain)
    }
    fn decode<T: DeserializeOwned>(&mut self, bytes: &[u8]) -> Result<T, CodecError> {
        let plain = self.unpack.unpack(bytes)?;
        self.inner.decode(plain)
    }
}

impl<S: StreamCodec> StreamCodec for ZstdAlone<S> {
    const OPENS: bool = S::OPENS;
    const SHARING: Sharing = S::SHARING;
    type Shared = S::Shared;
    type Encoder<'s>
        = PackingEncoder<'static, S::Encoder<'s>>
    where
        S::Shared: 's;
    type Decoder<'s>
        = UnpackingDecoder<'static, S::Decoder<'s>>
    where
        S::Shared: 's;

    fn train<T: Serialize>(training: &[T]) -> Result<S::Shared, CodecError> {
        S::train(training)
    }
    fn encoder(shared: &S::Shared) -> Result<Self::Encoder<'_>, CodecError> {
        Ok(PackingEncoder {
            inner: S::encoder(shared)?,
            pack: Packer::new(zstd::bulk::Compressor::new(ZSTD_LEVEL)?),
        })
    }
    fn decoder(shared: &S::Shared) -> Result<Self::Decoder<'_>, CodecError> {
        Ok(UnpackingDecoder {
            inner: S::decoder(shared)?,
            unpack: Unpacker::new(zstd::bulk::Decompressor::new()?),
        })
    }
}

/// What the streams of a workload share with a dictionary: the inner
/// codec's shared state and the dictionary, prepared once for compressing
/// at [`ZSTD_LEVEL`] and for decompressing.
pub(crate) struct Trained<S> {
    inner: S,
    compress: EncoderDictionary<'static>,
    decompress: DecoderDictionary<'static>,
}

impl<S: StreamCodec> StreamCodec for ZstdDictionary<S> {
    const OPENS: bool = S::OPENS;
    const SHARING: Sharing = S::SHARING.or(Sharing::Dictionary);
    type Shared = Trained<S::Shared>;
    type Encoder<'s>
        = PackingEncoder<'s, S::Encoder<'s>>
    where
        S::Shared: 's;
    type Decoder<'s>
        = UnpackingDecoder<'s, S::Decoder<'s>>
    where
        S::Shared: 's;

    /// Trains the inner codec, then the dictionary on the inner codec's
    /// encoding of each training record, in order, by one encoder: the
    /// records as a stream would carry them.
    fn train<T: Serialize>(training: &[T]) -> Result<Trained<S::Shared>, CodecError> {
        let inner = S::train(training)?;
        let mut encoder = S::encoder(&inner)?;
        let mut samples = Vec::with_capacity(training.len());
        for record in training {
            let mut sample = Vec::new();
            encoder.encode(record, &mut sample)?;
            samples.push(sample);
        }
        drop(encoder);
        let dictionary = zstd::dict::from_samples(&samples, DICTIONARY_BYTES)?;
        Ok(Trained {
            compress: EncoderDictionary::copy(&dictionary, ZSTD_LEVEL),
            decompress: DecoderDictionary::copy(&dictionary),
            inner,
        })
    }
    fn encoder(shared: &Trained<S::Shared>) -> Result<Self::Encoder<'_>, CodecError> {
        Ok(PackingEncoder {
            inner: S::encoder(&shared.inner)?,
            pack: Packer::new(zstd::bulk::Compressor::with_prepared_dictionary(
                &shared.compress,
            )?),
        })
    }
    fn decoder(shared: &Trained<S::Shared>) -> Result<Self::Decoder<'_>, CodecError> {
        Ok(UnpackingDecoder {
            inner: S::decoder(&shared.inner)?,
            unpack: Unpacker::new(zstd::bulk::Decompressor::with_prepared_dictionary(
                &shared.decompress,
            )?),
        })
    }
}

/// The encoder of [`ZstdStream`]: the inner encoder's message written into
/// one `zstd::stream::Encoder` for the whole stream, then flushed, so that
/// what the flush wrote is the whole message.
pub(crate) struct StreamEncoder<E> {
    inner: E,
    /// The inner encoder's message, cleared (capacity kept) before each.
    plain: Vec<u8>,
    /// Writes into its own `Vec`, which holds one message's compressed
    /// bytes at a time.
    zstd: zstd::stream::Encoder<'static, Vec<u8>>,
}

/// The decoder of [`ZstdStream`]: one streaming decompressor fed each
/// message's compressed bytes in turn.
pub(crate) struct StreamDecoder<D> {
    inner: D,
    zstd: zstd::stream::raw::Decoder<'static>,
    /// One message's decompressed bytes, cleared (capacity kept) before
    /// each.
    plain: Vec<u8>,
}

/// The room a streaming decode makes in its buffer before each step.
const DECODE_STEP: usize = 16 * 1024;

impl<E: MessageEncoder> StreamEncoder<E> {
    /// Runs `encode` into the plain buffer, writes that into the zstd
    /// stream and flushes it, and moves what the flush wrote into `out`.
    fn write(
        &mut self,
        encode: impl FnOnce(&mut E, &mut Vec<u8>) -> Result<(), CodecError>,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        self.plain.clear();
        encode(&mut self.inner, &mut self.plain)?;
        self.zstd.write_all(&self.plain)?;
        self.zstd.flush()?;
        let written = self.zstd.get_mut();
        out.extend_from_slice(written);
        written.clear();
        Ok(())
    }
}

impl<E: MessageEncoder> MessageEncoder for StreamEncoder<E> {
    fn open(&mut self, out: &mut Vec<u8>) -> Result<(), CodecError> {
        self.write(|inner, plain| inner.open(plain), out)
    }
    fn encode<T: Serialize>(&mut self, message: &T, out: &mut Vec<u8>) -> Result<(), CodecError> {
        self.write(|inner, plain| inner.encode(message, plain), out)
    }
}

impl<D: MessageDecoder> StreamDecoder<D> {
    /// Feeds one message's compressed bytes to the stream and returns all
    /// they decompress to.
    fn read(&mut self, bytes: &[u8]) -> Result<&[u8], CodecError> {
        self.plain.clear();
        let mut input = InBuffer::around(bytes);
        // The sender flushed after the message, so these bytes decompress
        // to all of it: step until the input is used up and a step leaves
        // room in the buffer (a full buffer may hide more output).
        loop {
            self.plain.reserve(DECODE_STEP);
            let start = self.plain.len();
            let mut output = OutBuffer::around_pos(&mut self.plain, start);
            self.zstd.run(&mut input, &mut output)?;
            let full = output.pos() == output.capacity();
            if input.pos() == bytes.len() && !full {
                break;
            }
        }
        Ok(&self.plain)
    }
}

impl<D: MessageDecoder> MessageDecoder for StreamDecoder<D> {
    fn open(&mut self, bytes: &[u8]) -> Result<(), CodecError> {
        self.read(bytes)?;
        self.inner.open(&self.plain)
    }
    fn decode<T: DeserializeOwned>(&mut self, bytes: &[u8]) -> Result<T, CodecError> {
        self.read(bytes)?;
        self.inner.decode(&self.plain)
    }
}

impl<S: StreamCodec> StreamCodec for ZstdStream<S> {
    const OPENS: bool = S::OPENS;
    const SHARING: Sharing = Sharing::Stream;
    type Shared = S::Shared;
    type Encoder<'s>
        = StreamEncoder<S::Encoder<'s>>
    where
        S::Shared: 's;
    type Decoder<'s>
        = StreamDecoder<S::Decoder<'s>>
    where
        S::Shared: 's;

    fn train<T: Serialize>(training: &[T]) -> Result<S::Shared, CodecError> {
        S::train(training)
    }
    fn encoder(shared: &S::Shared) -> Result<Self::Encoder<'_>, CodecError> {
        Ok(StreamEncoder {
            inner: S::encoder(shared)?,
            plain: Vec::new(),
            zstd: zstd::stream::Encoder::new(Vec::new(), ZSTD_LEVEL)?,
        })
    }
    fn decoder(shared: &S::Shared) -> Result<Self::Decoder<'_>, CodecError> {
        Ok(StreamDecoder {
            inner: S::decoder(shared)?,
            zstd: zstd::stream::raw::Decoder::new()?,
            plain: Vec::new(),
        })
    }
}
