//! The typed suite's lanes: each format encodes and decodes a dataset's
//! own Rust types through serde (or, for Protobuf, through prost
//! messages), so the schema-bound formats can take part.
//!
//! A serde format's lane holds its functions instantiated for the dataset's
//! type ([`SerdeFns`]); [`serde_lane`] builds it for any [`SerdeFormat`],
//! whichever typed dataset it is given, and [`proto_lane`] builds
//! Protobuf's from the dataset's messages ([`TypedData::Proto`]). Each
//! lane checks, before anything is timed, that its format round-trips the
//! dataset exactly.

use std::hint::black_box;
use std::marker::PhantomData;

use surp_datasets::typed::{TypedData, TypedValue, TypedVisitor};

use crate::Operation;
use crate::codec::{CodecError, SerdeFormat};
use crate::lane::{
    Lane, LaneError, Unpacker, ZstdStep, timed_decode, timed_encode, timed_roundtrip,
};

/// Bytes to the borrowed form of a dataset type, for any input lifetime.
type BorrowFn<T> = for<'a> fn(&'a [u8]) -> Result<<T as TypedData>::Borrowed<'a>, CodecError>;

/// A serde format's functions for one dataset type, resolved once per lane
/// so that a timed run makes one call through a pointer, whatever the
/// format.
struct SerdeFns<T: TypedData> {
    encode: fn(&T, &mut Vec<u8>) -> Result<(), CodecError>,
    decode: fn(&[u8]) -> Result<T, CodecError>,
    /// `None` where the type holds no strings or the format cannot decode
    /// without copying ([`SerdeFormat::BORROWS`]).
    decode_borrowed: Option<BorrowFn<T>>,
}

impl<T: TypedData> SerdeFns<T> {
    fn of<C: SerdeFormat>() -> Self {
        SerdeFns {
            encode: C::encode::<T>,
            decode: C::decode::<T>,
            decode_borrowed: (C::BORROWS && T::HAS_STRINGS).then_some(borrow::<C, T>),
        }
    }
}

/// [`SerdeFormat::decode_borrowed`] as a higher-ranked function pointer: the
/// lifetime is late-bound, so this is `for<'a> fn(&'a [u8]) ->
/// T::Borrowed<'a>`.
fn borrow<C: SerdeFormat, T: TypedData>(bytes: &[u8]) -> Result<T::Borrowed<'_>, CodecError> {
    C::decode_borrowed(bytes)
}

/// The lane of the serde format `C` for a typed dataset, checked first: two
/// encodes give the same bytes, the owned decode equals the dataset, and
/// the borrowed decode serializes (as JSON) to the same text as the
/// dataset. A compressed pipeline (`zstd` given) is checked through its
/// zstd step: the compressed bytes must match, and the decodes read the
/// decompressed encoding.
pub(crate) fn serde_lane<C: SerdeFormat>(
    value: &TypedValue,
    zstd: Option<ZstdStep>,
) -> Result<Box<dyn Lane + '_>, LaneError> {
    struct Build<C> {
        zstd: Option<ZstdStep>,
        format: PhantomData<C>,
    }
    impl<'v, C: SerdeFormat> TypedVisitor<'v> for Build<C> {
        type Output = Result<Box<dyn Lane + 'v>, LaneError>;
        fn visit<T: TypedData>(self, value: &'v T) -> Self::Output {
            Ok(Box::new(SerdeLane::new(
                SerdeFns::<T>::of::<C>(),
                value,
                self.zstd,
            )?))
        }
    }
    value.visit(Build::<C> {
        zstd,
        format: PhantomData,
    })
}

/// The Protobuf lane for a typed dataset, checked first: two encodes of
/// the dataset's messages give the same bytes, and their decode converts
/// back to the dataset. Protobuf has no compressed pipeline.
pub(crate) fn proto_lane(
    value: &TypedValue,
    zstd: Option<ZstdStep>,
) -> Result<Box<dyn Lane + '_>, LaneError> {
    struct Build;
    impl<'v> TypedVisitor<'v> for Build {
        type Output = Result<Box<dyn Lane + 'v>, LaneError>;
        fn visit<T: TypedData>(self, value: &'v T) -> Self::Output {
            Ok(Box::new(ProtoLane::new(value)?))
        }
    }
    if zstd.is_some() {
        return Err((
            Operation::Encode,
            "Protobuf has no compressed pipeline".to_owned(),
        ));
    }
    value.visit(Build)
}

fn check_encode_twice(
    mut encode: impl FnMut(&mut Vec<u8>) -> Result<(), CodecError>,
) -> Result<Vec<u8>, LaneError> {
    let fail = |e: CodecError| (Operation::Encode, e.to_string());
    let mut first = Vec::new();
    encode(&mut first).map_err(fail)?;
    let mut second = Vec::new();
    encode(&mut second).map_err(fail)?;
    if first != second {
        return Err((
            Operation::Encode,
            "two encodes of the same value differ".to_owned(),
        ));
    }
    Ok(first)
}

struct SerdeLane<'v, T: TypedData> {
    codec: SerdeFns<T>,
    value: &'v T,
    encoded: Vec<u8>,
    scratch: Vec<u8>,
    /// The zstd step, for a compressed pipeline.
    zstd: Option<ZstdStep>,
}

impl<'v, T: TypedData> SerdeLane<'v, T> {
    fn new(
        codec: SerdeFns<T>,
        value: &'v T,
        mut zstd: Option<ZstdStep>,
    ) -> Result<Self, LaneError> {
        let encoded = check_encode_twice(|buf| match &mut zstd {
            Some(step) => step.pack.pack(|plain| (codec.encode)(value, plain), buf),
            None => (codec.encode)(value, buf),
        })?;
        // What the decodes read: the encoding, or for a pipeline its
        // decompressed form.
        let plain = match &mut zstd {
            Some(step) => step
                .unpack
                .unpack(&encoded)
                .map_err(|e| (Operation::Decode, format!("zstd: {e}")))?
                .to_vec(),
            None => encoded.clone(),
        };
        let back = (codec.decode)(&plain).map_err(|e| (Operation::Decode, e.to_string()))?;
        if back != *value {
            return Err((
                Operation::Decode,
                "the decoded value differs from the dataset".to_owned(),
            ));
        }
        if let Some(borrow) = codec.decode_borrowed {
            let borrowed =
                borrow(&plain).map_err(|e| (Operation::DecodeBorrowed, e.to_string()))?;
            let same = serde_json::to_vec(&borrowed).ok() == serde_json::to_vec(value).ok();
            if !same {
                return Err((
                    Operation::DecodeBorrowed,
                    "the borrowed decode differs from the dataset".to_owned(),
                ));
            }
        }
        Ok(SerdeLane {
            codec,
            value,
            encoded,
            scratch: Vec::new(),
            zstd,
        })
    }
}

impl<T: TypedData> Lane for SerdeLane<'_, T> {
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
    message: T::Proto,
    encoded: Vec<u8>,
    scratch: Vec<u8>,
}

impl<T: TypedData> ProtoLane<T> {
    fn new(value: &T) -> Result<Self, LaneError> {
        use prost::Message as _;
        let message = value.to_proto();
        let encoded = check_encode_twice(|buf| Ok(message.encode(buf)?))?;
        let back =
            T::Proto::decode(encoded.as_slice()).map_err(|e| (Operation::Decode, e.to_string()))?;
        let back = T::from_proto(back).map_err(|e| (Operation::Decode, e))?;
        if back != *value {
            return Err((
                Operation::Decode,
                "the decoded value differs from the dataset".to_owned(),
            ));
        }
        Ok(ProtoLane {
            message,
            encoded,
            scratch: Vec::new(),
        })
    }
}

impl<T: TypedData> Lane for ProtoLane<T> {
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
