//! How the harness calls each serde library: one type per library and
//! configuration, implementing [`SerdeFormat`] once, generically, so the
//! same functions serve the value suite (instantiated for the neutral
//! value) and the typed suite (for each dataset's Rust type).
//!
//! Each goes through its writer API into the caller's `Vec` where it has
//! one: the path its `to_vec` takes, minus the allocation. cbor4ii,
//! postcard and bitcode take or return a `Vec` by value; the lane's buffer
//! is moved in and the result moved back, so its capacity is still reused,
//! except for bitcode's serde API, which always returns a new `Vec`.

use std::error::Error;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use surp_datasets::Value;

/// What a codec reports when it fails; only its message is kept.
pub(crate) type CodecError = Box<dyn Error + Send + Sync>;

/// Encodes a value by appending it to the buffer (which the harness clears
/// before each run).
pub(crate) type EncodeFn = fn(&Value, &mut Vec<u8>) -> Result<(), CodecError>;

/// Decodes a whole buffer back into a value.
pub(crate) type DecodeFn = fn(&[u8]) -> Result<Value, CodecError>;

/// The value suite's functions of a format: encode and decode the neutral
/// value.
#[derive(Clone, Copy)]
pub(crate) struct ValueCodec {
    /// Neutral value to bytes.
    pub(crate) encode: EncodeFn,
    /// Bytes to neutral value.
    pub(crate) decode: DecodeFn,
}

/// A serde format: encode and decode any serde type.
pub(crate) trait SerdeFormat: Sync + 'static {
    /// Whether the library decodes from a slice, so that a type's strings
    /// can borrow from the input: all but ciborium, which reads through
    /// `io::Read`.
    const BORROWS: bool = true;

    /// Appends the encoding of `value` to `buf`.
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError>;

    /// Decodes a whole buffer into an owned value.
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError>;

    /// Decodes a whole buffer into a value that may borrow from it; only
    /// called where [`Self::BORROWS`].
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError>;
}

/// `surp`, through `surp::Serializer` on the caller's `Vec`.
pub(crate) struct Surp;

impl SerdeFormat for Surp {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(value.serialize(&mut surp::Serializer::new(buf))?)
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Ok(surp::from_slice(bytes)?)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        Ok(surp::from_slice(bytes)?)
    }
}

/// `surp-dedup`. It may rewrite a map once it has seen all its keys, so it
/// builds the document in a `Vec` rather than streaming to a writer; it
/// appends to the caller's `Vec`, which is what `surp_dedup::to_vec` does
/// with a new one.
pub(crate) struct SurpDedup;

impl SerdeFormat for SurpDedup {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(surp_dedup::append_to_vec(buf, value)?)
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Ok(surp_dedup::from_slice(bytes)?)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        Ok(surp_dedup::from_slice(bytes)?)
    }
}

/// `surp-dedup` with `Options::dedup_strings(false)`: map key sets only.
/// Decoding is the same as for any deduplicated document.
pub(crate) struct SurpDedupShapes;

impl SerdeFormat for SurpDedupShapes {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(surp_dedup::Options::new()
            .dedup_strings(false)
            .append_to_vec(buf, value)?)
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        SurpDedup::decode(bytes)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        SurpDedup::decode_borrowed(bytes)
    }
}

/// `serde_json`.
pub(crate) struct Json;

impl SerdeFormat for Json {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(serde_json::to_writer(buf, value)?)
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Ok(serde_json::from_slice(bytes)?)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        Ok(serde_json::from_slice(bytes)?)
    }
}

/// `rmp-serde` with structs as maps (`write_named`, the writer form of
/// `to_vec_named`). The neutral model has no structs, so in the value suite
/// this only fixes the configuration a struct-based user would pick.
pub(crate) struct Msgpack;

impl SerdeFormat for Msgpack {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(rmp_serde::encode::write_named(buf, value)?)
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Ok(rmp_serde::from_slice(bytes)?)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        Ok(rmp_serde::from_slice(bytes)?)
    }
}

/// `rmp-serde` with structs as arrays (`write`): no field names on the
/// wire. Decoding is the same.
pub(crate) struct MsgpackCompact;

impl SerdeFormat for MsgpackCompact {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(rmp_serde::encode::write(buf, value)?)
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Msgpack::decode(bytes)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        Msgpack::decode_borrowed(bytes)
    }
}

/// `ciborium`, which reads through `io::Read` and so cannot borrow.
pub(crate) struct Ciborium;

impl SerdeFormat for Ciborium {
    const BORROWS: bool = false;

    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        Ok(ciborium::into_writer(value, buf)?)
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Ok(ciborium::from_reader(bytes)?)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(_: &'a [u8]) -> Result<T, CodecError> {
        Err("ciborium reads through io::Read and cannot borrow from its input".into())
    }
}

/// `cbor4ii`, which takes the `Vec` by value and hands it back.
pub(crate) struct Cbor4ii;

impl SerdeFormat for Cbor4ii {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        *buf = cbor4ii::serde::to_vec(std::mem::take(buf), value)?;
        Ok(())
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Ok(cbor4ii::serde::from_slice(bytes)?)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        Ok(cbor4ii::serde::from_slice(bytes)?)
    }
}

/// `postcard`, which takes the `Vec` by value (`to_extend`) and hands it
/// back.
pub(crate) struct Postcard;

impl SerdeFormat for Postcard {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        *buf = postcard::to_extend(value, std::mem::take(buf))?;
        Ok(())
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Ok(postcard::from_bytes(bytes)?)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        Ok(postcard::from_bytes(bytes)?)
    }
}

/// `bitcode`'s serde API, whose encode always returns a new `Vec`.
pub(crate) struct Bitcode;

impl SerdeFormat for Bitcode {
    fn encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
        *buf = bitcode::serialize(value)?;
        Ok(())
    }
    fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
        Ok(bitcode::deserialize(bytes)?)
    }
    fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodecError> {
        Ok(bitcode::deserialize(bytes)?)
    }
}
