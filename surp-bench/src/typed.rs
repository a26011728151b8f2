//! The typed suite: each format encodes and decodes a dataset's own Rust
//! types through serde (or, for Protobuf, through prost messages), so the
//! schema-bound formats can take part.
//!
//! The serde formats' functions are generic over the dataset type; its
//! [`TypedData`] implementation (in `surp_datasets::typed`) ties it to its
//! borrowed form (strings as `&str`) and to its Protobuf messages. [`lanes`] builds one
//! [`Lane`] per format for a dataset, after checking that the format
//! round-trips it exactly.

use std::hint::black_box;

use serde::Serialize;
use serde::de::DeserializeOwned;
use surp_datasets::typed::TypedData;

use crate::format::CodecError;
use crate::measure::{Lane, Unpacker, ZstdStep, timed_decode, timed_encode, timed_roundtrip};
use crate::{Codec, Format, Operation};

/// Bytes to the borrowed form of a dataset type, for any input lifetime.
type BorrowFn<T> = for<'a> fn(&'a [u8]) -> Result<<T as TypedData>::Borrowed<'a>, CodecError>;

/// Bytes to an owned dataset value.
type DecodeOwnedFn<T> = fn(&[u8]) -> Result<T, CodecError>;

/// A serde format's functions for one dataset type.
struct SerdeCodec<T: TypedData> {
    encode: fn(&T, &mut Vec<u8>) -> Result<(), CodecError>,
    decode: fn(&[u8]) -> Result<T, CodecError>,
    /// `None` where the format cannot decode without copying (ciborium reads
    /// through `io::Read`).
    decode_borrowed: Option<BorrowFn<T>>,
}

// Each format through its writer API into the caller's Vec where it has one.
// cbor4ii, postcard and bitcode take or return a Vec by value; the lane's
// buffer is moved in and the result moved back, so capacity is still reused,
// except for bitcode's serde API, which always returns a new Vec.

fn surp_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(value.serialize(&mut surp::Serializer::new(buf))?)
}
fn surp_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    Ok(surp::from_slice(bytes)?)
}
fn dedup_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(surp_dedup::append_to_vec(buf, value)?)
}
fn dedup_shapes_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(surp_dedup::Options::new()
        .dedup_strings(false)
        .append_to_vec(buf, value)?)
}
fn dedup_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    Ok(surp_dedup::from_slice(bytes)?)
}
fn json_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(serde_json::to_writer(buf, value)?)
}
fn json_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    Ok(serde_json::from_slice(bytes)?)
}
fn msgpack_named_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(rmp_serde::encode::write_named(buf, value)?)
}
fn msgpack_compact_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(rmp_serde::encode::write(buf, value)?)
}
fn msgpack_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    Ok(rmp_serde::from_slice(bytes)?)
}
fn ciborium_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(ciborium::into_writer(value, buf)?)
}
fn ciborium_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    Ok(ciborium::from_reader(bytes)?)
}
fn cbor4ii_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    *buf = cbor4ii::serde::to_vec(std::mem::take(buf), value)?;
    Ok(())
}
fn cbor4ii_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    Ok(cbor4ii::serde::from_slice(bytes)?)
}
fn postcard_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    *buf = postcard::to_extend(value, std::mem::take(buf))?;
    Ok(())
}
fn postcard_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    Ok(postcard::from_bytes(bytes)?)
}
fn bitcode_encode<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    *buf = bitcode::serialize(value)?;
    Ok(())
}
fn bitcode_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    Ok(bitcode::deserialize(bytes)?)
}

// Borrowed decoding as higher-ranked function pointers: the lifetime is
// late-bound, so each of these is `for<'a> fn(&'a [u8]) -> T::Borrowed<'a>`.
fn surp_borrow<T: TypedData>(bytes: &[u8]) -> Result<T::Borrowed<'_>, CodecError> {
    Ok(surp::from_slice(bytes)?)
}
fn dedup_borrow<T: TypedData>(bytes: &[u8]) -> Result<T::Borrowed<'_>, CodecError> {
    Ok(surp_dedup::from_slice(bytes)?)
}
fn json_borrow<T: TypedData>(bytes: &[u8]) -> Result<T::Borrowed<'_>, CodecError> {
    Ok(serde_json::from_slice(bytes)?)
}
fn msgpack_borrow<T: TypedData>(bytes: &[u8]) -> Result<T::Borrowed<'_>, CodecError> {
    Ok(rmp_serde::from_slice(bytes)?)
}
fn cbor4ii_borrow<T: TypedData>(bytes: &[u8]) -> Result<T::Borrowed<'_>, CodecError> {
    Ok(cbor4ii::serde::from_slice(bytes)?)
}
fn postcard_borrow<T: TypedData>(bytes: &[u8]) -> Result<T::Borrowed<'_>, CodecError> {
    Ok(postcard::from_bytes(bytes)?)
}
fn bitcode_borrow<T: TypedData>(bytes: &[u8]) -> Result<T::Borrowed<'_>, CodecError> {
    Ok(bitcode::deserialize(bytes)?)
}

/// The serde functions of a format for `T`; `None` for Protobuf, which
/// goes through its messages instead.
fn serde_codec<T: TypedData>(codec: Codec) -> Option<SerdeCodec<T>> {
    let (encode, decode, borrow): (_, DecodeOwnedFn<T>, Option<BorrowFn<T>>) = match codec {
        Codec::Surp => (
            surp_encode::<T> as _,
            surp_decode::<T>,
            Some(surp_borrow::<T>),
        ),
        Codec::SurpDedup => (
            dedup_encode::<T> as _,
            dedup_decode::<T>,
            Some(dedup_borrow::<T>),
        ),
        Codec::SurpDedupShapes => (
            dedup_shapes_encode::<T> as _,
            dedup_decode::<T>,
            Some(dedup_borrow::<T>),
        ),
        Codec::Json => (
            json_encode::<T> as _,
            json_decode::<T>,
            Some(json_borrow::<T>),
        ),
        Codec::Msgpack => (
            msgpack_named_encode::<T> as _,
            msgpack_decode::<T>,
            Some(msgpack_borrow::<T>),
        ),
        Codec::MsgpackCompact => (
            msgpack_compact_encode::<T> as _,
            msgpack_decode::<T>,
            Some(msgpack_borrow::<T>),
        ),
        Codec::Cbor => (ciborium_encode::<T> as _, ciborium_decode::<T>, None),
        Codec::Cbor4ii => (
            cbor4ii_encode::<T> as _,
            cbor4ii_decode::<T>,
            Some(cbor4ii_borrow::<T>),
        ),
        Codec::Postcard => (
            postcard_encode::<T> as _,
            postcard_decode::<T>,
            Some(postcard_borrow::<T>),
        ),
        Codec::Bitcode => (
            bitcode_encode::<T> as _,
            bitcode_decode::<T>,
            Some(bitcode_borrow::<T>),
        ),
        Codec::Protobuf => return None,
    };
    Some(SerdeCodec {
        encode,
        decode,
        decode_borrowed: borrow.filter(|_| T::HAS_STRINGS),
    })
}

/// Why a format failed its check before timing: the format, the operation
/// and what went wrong.
pub(crate) type CheckError = (&'static Format, Operation, String);

/// One lane per format for a typed dataset, each checked first: two
/// encodes give the same bytes, the owned decode equals the dataset, and
/// the borrowed decode serializes (as JSON) to the same text as the
/// dataset. A compressed pipeline is checked through its zstd step: the
/// compressed bytes must match, and the decodes read the decompressed
/// encoding.
pub(crate) fn lanes<'v, T: TypedData>(
    formats: &[&'static Format],
    value: &'v T,
) -> Result<Vec<Box<dyn Lane + 'v>>, CheckError> {
    let mut lanes: Vec<Box<dyn Lane + 'v>> = Vec::with_capacity(formats.len());
    for &format in formats {
        let lane: Box<dyn Lane + 'v> = match serde_codec::<T>(format.codec) {
            Some(codec) => Box::new(SerdeLane::new(format, codec, value)?),
            None => Box::new(ProtoLane::new(format, value)?),
        };
        lanes.push(lane);
    }
    Ok(lanes)
}

fn check_encode_twice(
    format: &'static Format,
    mut encode: impl FnMut(&mut Vec<u8>) -> Result<(), CodecError>,
) -> Result<Vec<u8>, CheckError> {
    let fail = |e: CodecError| (format, Operation::Encode, e.to_string());
    let mut first = Vec::new();
    encode(&mut first).map_err(fail)?;
    let mut second = Vec::new();
    encode(&mut second).map_err(fail)?;
    if first != second {
        return Err((
            format,
            Operation::Encode,
            "two encodes of the same value differ".to_owned(),
        ));
    }
    Ok(first)
}

struct SerdeLane<'v, T: TypedData> {
    format: &'static Format,
    codec: SerdeCodec<T>,
    value: &'v T,
    encoded: Vec<u8>,
    scratch: Vec<u8>,
    /// The zstd step, for a compressed pipeline.
    zstd: Option<ZstdStep>,
}

impl<'v, T: TypedData> SerdeLane<'v, T> {
    fn new(
        format: &'static Format,
        codec: SerdeCodec<T>,
        value: &'v T,
    ) -> Result<Self, CheckError> {
        let mut zstd = ZstdStep::for_format(format)
            .map_err(|e| (format, Operation::Encode, format!("zstd: {e}")))?;
        let encoded = check_encode_twice(format, |buf| match &mut zstd {
            Some(step) => step.pack.pack(|plain| (codec.encode)(value, plain), buf),
            None => (codec.encode)(value, buf),
        })?;
        // What the decodes read: the encoding, or for a pipeline its
        // decompressed form.
        let plain = match &mut zstd {
            Some(step) => step
                .unpack
                .unpack(&encoded)
                .map_err(|e| (format, Operation::Decode, format!("zstd: {e}")))?
                .to_vec(),
            None => encoded.clone(),
        };
        let back =
            (codec.decode)(&plain).map_err(|e| (format, Operation::Decode, e.to_string()))?;
        if back != *value {
            return Err((
                format,
                Operation::Decode,
                "the decoded value differs from the dataset".to_owned(),
            ));
        }
        if let Some(borrow) = codec.decode_borrowed {
            let borrowed =
                borrow(&plain).map_err(|e| (format, Operation::DecodeBorrowed, e.to_string()))?;
            let same = serde_json::to_vec(&borrowed).ok() == serde_json::to_vec(value).ok();
            if !same {
                return Err((
                    format,
                    Operation::DecodeBorrowed,
                    "the borrowed decode differs from the dataset".to_owned(),
                ));
            }
        }
        Ok(SerdeLane {
            format,
            codec,
            value,
            encoded,
            scratch: Vec::new(),
            zstd,
        })
    }
}

impl<T: TypedData> Lane for SerdeLane<'_, T> {
    fn format(&self) -> &'static Format {
        self.format
    }

    fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    fn supports(&self, operation: Operation) -> bool {
        operation != Operation::DecodeBorrowed || self.codec.decode_borrowed.is_some()
    }

    fn run(&mut self, operation: Operation) -> Result<u64, CodecError> {
        let (codec, value, encoded) = (&self.codec, self.value, &self.encoded);
        let encode = |buf: &mut Vec<u8>| (codec.encode)(black_box(value), buf);
        let borrow = || {
            codec
                .decode_borrowed
                .ok_or("this format has no borrowed decode")
        };
        let Some(ZstdStep { pack, unpack }) = &mut self.zstd else {
            return match operation {
                Operation::Encode => timed_encode(&mut self.scratch, encode),
                Operation::Decode => timed_decode(|| (codec.decode)(black_box(encoded))),
                Operation::DecodeBorrowed => {
                    let borrow = borrow()?;
                    timed_decode(|| borrow(black_box(encoded)))
                }
                Operation::Roundtrip => timed_roundtrip(&mut self.scratch, encode, codec.decode),
            };
        };
        // A pipeline's decodes decompress into the step's buffer first; the
        // borrowed decode borrows from that buffer.
        match operation {
            Operation::Encode => timed_encode(&mut self.scratch, |out| pack.pack(encode, out)),
            Operation::Decode => {
                timed_decode(|| unpack.unpack(black_box(encoded)).and_then(codec.decode))
            }
            Operation::DecodeBorrowed => {
                let borrow = borrow()?;
                timed_decode(move || unpack_borrowed::<T>(unpack, black_box(encoded), borrow))
            }
            Operation::Roundtrip => timed_roundtrip(
                &mut self.scratch,
                |out| pack.pack(encode, out),
                |bytes| unpack.unpack(bytes).and_then(codec.decode),
            ),
        }
    }
}

/// Decompresses into the step's buffer and decodes borrowing from it: the
/// result lives as long as the step's borrow, not the compressed input's.
fn unpack_borrowed<'b, T: TypedData>(
    unpack: &'b mut Unpacker,
    compressed: &[u8],
    borrow: BorrowFn<T>,
) -> Result<T::Borrowed<'b>, CodecError> {
    borrow(unpack.unpack(compressed)?)
}

/// Protobuf: the dataset converted to its messages once, untimed; the
/// timed runs are prost's encode and decode of those messages.
struct ProtoLane<T: TypedData> {
    format: &'static Format,
    message: T::Proto,
    encoded: Vec<u8>,
    scratch: Vec<u8>,
}

impl<T: TypedData> ProtoLane<T> {
    fn new(format: &'static Format, value: &T) -> Result<Self, CheckError> {
        use prost::Message as _;
        let message = value.to_proto();
        let encoded = check_encode_twice(format, |buf| Ok(message.encode(buf)?))?;
        let back = T::Proto::decode(encoded.as_slice())
            .map_err(|e| (format, Operation::Decode, e.to_string()))?;
        let back = T::from_proto(back).map_err(|e| (format, Operation::Decode, e))?;
        if back != *value {
            return Err((
                format,
                Operation::Decode,
                "the decoded value differs from the dataset".to_owned(),
            ));
        }
        Ok(ProtoLane {
            format,
            message,
            encoded,
            scratch: Vec::new(),
        })
    }
}

impl<T: TypedData> Lane for ProtoLane<T> {
    fn format(&self) -> &'static Format {
        self.format
    }

    fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    fn supports(&self, operation: Operation) -> bool {
        operation != Operation::DecodeBorrowed
    }

    fn run(&mut self, operation: Operation) -> Result<u64, CodecError> {
        use prost::Message as _;
        let message = &self.message;
        let encode = |buf: &mut Vec<u8>| Ok(black_box(message).encode(buf)?);
        let decode = |bytes: &[u8]| Ok(T::Proto::decode(bytes)?);
        match operation {
            Operation::Encode => timed_encode(&mut self.scratch, encode),
            Operation::Decode => timed_decode(|| decode(black_box(&self.encoded))),
            Operation::DecodeBorrowed => Err("prost has no borrowed decode".into()),
            Operation::Roundtrip => timed_roundtrip(&mut self.scratch, encode, decode),
        }
    }
}
