//! Surp's own ways of sending a stream (`docs/spec.md` section 9): a
//! session, whose tables last from message to message, and a shared
//! dictionary, learnt from the workload's training records, with each
//! message a document of its own.

use serde::Serialize;
use serde::de::DeserializeOwned;
use surp_dedup::{
    Dictionary, DictionaryDecoder, DictionaryEncoder, SessionDecoder, SessionEncoder,
    SessionOptions,
};

use crate::codec::CodecError;
use crate::stream::{MessageDecoder, MessageEncoder, Sharing, StreamCodec};

/// A Surp session with the default budget and no dictionary.
pub(crate) struct Session;

impl StreamCodec for Session {
    const OPENS: bool = true;
    const SHARING: Sharing = Sharing::Stream;
    type Shared = SessionOptions;
    type Encoder<'s> = SessionEncoder;
    type Decoder<'s> = SessionDecoder;

    fn train<T: Serialize>(_: &[T]) -> Result<SessionOptions, CodecError> {
        Ok(SessionOptions::new())
    }
    fn encoder(options: &SessionOptions) -> Result<SessionEncoder, CodecError> {
        Ok(options.encoder())
    }
    fn decoder(options: &SessionOptions) -> Result<SessionDecoder, CodecError> {
        Ok(options.decoder())
    }
}

impl MessageEncoder for SessionEncoder {
    fn open(&mut self, out: &mut Vec<u8>) -> Result<(), CodecError> {
        out.extend_from_slice(&self.header());
        Ok(())
    }
    fn encode<T: Serialize>(&mut self, message: &T, out: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(self.append_to_vec(out, message)?)
    }
}

impl MessageDecoder for SessionDecoder {
    fn open(&mut self, bytes: &[u8]) -> Result<(), CodecError> {
        Ok(self.read_header(bytes)?)
    }
    fn decode<T: DeserializeOwned>(&mut self, bytes: &[u8]) -> Result<T, CodecError> {
        Ok(SessionDecoder::decode(self, bytes)?)
    }
}

/// Surp with a dictionary learnt from the workload's training records
/// ([`Dictionary::from_samples`]): each message stands alone.
pub(crate) struct SharedDictionary;

impl StreamCodec for SharedDictionary {
    const SHARING: Sharing = Sharing::Dictionary;
    type Shared = Dictionary;
    type Encoder<'s> = DictionaryEncoder;
    type Decoder<'s> = DictionaryDecoder;

    fn train<T: Serialize>(training: &[T]) -> Result<Dictionary, CodecError> {
        Ok(Dictionary::from_samples(training)?)
    }
    fn encoder(dictionary: &Dictionary) -> Result<DictionaryEncoder, CodecError> {
        Ok(dictionary.encoder())
    }
    fn decoder(dictionary: &Dictionary) -> Result<DictionaryDecoder, CodecError> {
        Ok(dictionary.decoder(surp::Options::new()))
    }
}

impl MessageEncoder for DictionaryEncoder {
    fn encode<T: Serialize>(&mut self, message: &T, out: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(self.append_to_vec(out, message)?)
    }
}

impl MessageDecoder for DictionaryDecoder {
    fn decode<T: DeserializeOwned>(&mut self, bytes: &[u8]) -> Result<T, CodecError> {
        Ok(self.from_slice(bytes)?)
    }
}
