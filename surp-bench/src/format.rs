//! The list of formats the harness compares, defined once: each entry names a
//! format and carries its encode and decode functions over the neutral value.
//! Adding a format is adding one entry to [`FORMATS`].

use std::borrow::Cow;
use std::error::Error;
use std::fmt;
use std::io::Write;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use surp_datasets::Value;

use crate::{Suite, protobuf};

/// What a codec reports when it fails; only its message is kept.
pub type CodecError = Box<dyn Error + Send + Sync>;

/// Encodes a value by appending it to the buffer (which the harness clears
/// before each run).
pub type EncodeFn = fn(&Value, &mut Vec<u8>) -> Result<(), CodecError>;

/// Decodes a whole buffer back into a value.
pub type DecodeFn = fn(&[u8]) -> Result<Value, CodecError>;

/// The value suite's functions of a format: encode and decode the neutral
/// value.
#[derive(Clone, Copy)]
pub struct ValueCodec {
    /// Neutral value to bytes.
    pub encode: EncodeFn,
    /// Bytes to neutral value.
    pub decode: DecodeFn,
}

/// Which implementation a format is: the typed suite dispatches on this,
/// since its functions are generic over the dataset's Rust type (see the
/// `typed` module).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// `surp`.
    Surp,
    /// `surp-dedup`.
    SurpDedup,
    /// `surp-dedup` with `dedup_strings(false)`: map key sets only.
    SurpDedupShapes,
    /// `serde_json`.
    Json,
    /// `rmp-serde`, structs as maps.
    Msgpack,
    /// `rmp-serde`, structs as arrays.
    MsgpackCompact,
    /// `ciborium`.
    Cbor,
    /// `cbor4ii`.
    Cbor4ii,
    /// `postcard`.
    Postcard,
    /// `bitcode`'s serde API.
    Bitcode,
    /// `prost`.
    Protobuf,
}

/// One benchmarked format.
pub struct Format {
    /// The name used in `summary.csv`, on the command line and in file names.
    pub name: &'static str,
    /// The name charts and tables show.
    pub label: &'static str,
    /// The crate that implements it, whose locked version `meta.json` records.
    pub implementation: &'static str,
    /// The format's colour in every chart, as RGB. The first six are Okabe
    /// and Ito's palette, which stays distinguishable with the common
    /// colour-vision deficiencies; the typed suite's extra formats take
    /// darker shades and greys.
    pub colour: (u8, u8, u8),
    /// Whether the format has no bytes type, so the model writes bytes as
    /// base64 strings (the documented JSON exception) and they decode as
    /// strings: the round-trip check then expects strings in their place.
    pub bytes_as_base64: bool,
    /// Whether this is one of the project's own formats, whose sizes are
    /// fixed by [`SURP_FORMAT_VERSION`]: any size change without a new
    /// format version is a regression.
    pub pinned_by_format_version: bool,
    /// Whether, in the typed suite, a reader needs the schema (the Rust
    /// type, or the `.proto` message) to decode the bytes: field names and
    /// value types are not on the wire. Pages and charts mark these formats
    /// (see [`Format::needs_schema_in`]).
    pub needs_schema: bool,
    /// For a compressed pipeline, the name of the format whose encoding it
    /// compresses with zstd at [`ZSTD_LEVEL`](crate::ZSTD_LEVEL): encode is
    /// that format's encode then compression, decode is decompression then
    /// that format's decode. `None` for a plain format. Pipelines are
    /// measured like formats but never compared with them as if they were
    /// formats: charts, the per-format tables and the docs' headlines leave
    /// them out, and they get a table of their own (see
    /// [`Format::is_compressed`]).
    pub zstd_of: Option<&'static str>,
    /// The implementation, for the typed suite's generic dispatch (for a
    /// compressed pipeline, the implementation of the format it compresses).
    pub codec: Codec,
    /// The value suite's functions; `None` for formats that take part in the
    /// typed suite only.
    pub value: Option<ValueCodec>,
}

impl Format {
    /// The format with this name, if there is one.
    pub fn from_name(name: &str) -> Option<&'static Format> {
        FORMATS.iter().find(|f| f.name == name)
    }

    /// Whether a reader needs the schema to decode the format's encoding in
    /// this suite. In the value suite every format, Protobuf's generic
    /// Value message included, carries the shape of the data on the wire.
    pub fn needs_schema_in(&self, suite: Suite) -> bool {
        suite == Suite::Typed && self.needs_schema
    }

    /// Whether this is a compressed pipeline (a format followed by zstd)
    /// rather than a format.
    pub fn is_compressed(&self) -> bool {
        self.zstd_of.is_some()
    }

    /// Whether the format takes part in a suite.
    pub fn in_suite(&self, suite: Suite) -> bool {
        match suite {
            Suite::Value => self.value.is_some(),
            Suite::Typed => true,
        }
    }

    /// The value suite's functions.
    ///
    /// # Panics
    ///
    /// If the format is not in the value suite; plans only hold formats of
    /// their suite.
    pub(crate) fn value_codec(&self) -> ValueCodec {
        self.value
            .unwrap_or_else(|| panic!("{} is not in the value suite", self.name))
    }

    /// What decoding this format's encoding of `value` must give back:
    /// `value` itself, or for a format with
    /// [`bytes_as_base64`](Format::bytes_as_base64) the same value with
    /// every byte string replaced by its base64 text.
    pub fn expected_decode<'v>(&self, value: &'v Value) -> Cow<'v, Value> {
        if self.bytes_as_base64 {
            Cow::Owned(bytes_to_base64(value))
        } else {
            Cow::Borrowed(value)
        }
    }
}

fn bytes_to_base64(value: &Value) -> Value {
    match value {
        Value::Bytes(b) => Value::String(BASE64.encode(b)),
        Value::Array(items) => Value::Array(items.iter().map(bytes_to_base64).collect()),
        Value::Map(entries) => Value::Map(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), bytes_to_base64(v)))
                .collect(),
        ),
        scalar => scalar.clone(),
    }
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Format").field("name", &self.name).finish()
    }
}

impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        self.name == other.name
    }
}

impl Eq for Format {}

/// The version of the Surp wire format whose sizes the regression check
/// pins: `surp::FORMAT_VERSION`. A change in any size of a format marked
/// [`pinned_by_format_version`](Format::pinned_by_format_version) is a
/// regression unless this differs from the baseline's.
pub const SURP_FORMAT_VERSION: u64 = surp::FORMAT_VERSION as u64;

/// Every format, in the order reports and charts list them, then the
/// compressed pipelines. The value suite measures those with a
/// [`ValueCodec`]; the typed suite measures all.
pub static FORMATS: [Format; 13] = [
    Format {
        name: "surp",
        label: "Surp",
        implementation: "surp",
        colour: (0x00, 0x72, 0xB2),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        zstd_of: None,
        codec: Codec::Surp,
        value: Some(ValueCodec {
            encode: surp_encode,
            decode: surp_decode,
        }),
    },
    Format {
        name: "surp_dedup",
        label: "Surp+Dedup",
        implementation: "surp-dedup",
        colour: (0x56, 0xB4, 0xE9),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        zstd_of: None,
        codec: Codec::SurpDedup,
        value: Some(ValueCodec {
            encode: surp_dedup_encode,
            decode: surp_dedup_decode,
        }),
    },
    Format {
        name: "surp_dedup_shapes",
        label: "Surp+Dedup shapes",
        implementation: "surp-dedup",
        colour: (0x88, 0xCC, 0xEE),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        zstd_of: None,
        codec: Codec::SurpDedupShapes,
        value: Some(ValueCodec {
            encode: surp_dedup_shapes_encode,
            decode: surp_dedup_decode,
        }),
    },
    Format {
        name: "json",
        label: "JSON",
        implementation: "serde_json",
        colour: (0xE6, 0x9F, 0x00),
        bytes_as_base64: true,
        pinned_by_format_version: false,
        needs_schema: false,
        zstd_of: None,
        codec: Codec::Json,
        value: Some(ValueCodec {
            encode: json_encode,
            decode: json_decode,
        }),
    },
    Format {
        name: "msgpack",
        label: "MessagePack",
        implementation: "rmp-serde",
        colour: (0x00, 0x9E, 0x73),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        zstd_of: None,
        codec: Codec::Msgpack,
        value: Some(ValueCodec {
            encode: msgpack_encode,
            decode: msgpack_decode,
        }),
    },
    Format {
        name: "msgpack_compact",
        label: "MessagePack compact",
        implementation: "rmp-serde",
        colour: (0x00, 0x5A, 0x40),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: true,
        zstd_of: None,
        codec: Codec::MsgpackCompact,
        value: None,
    },
    Format {
        name: "cbor",
        label: "CBOR",
        implementation: "ciborium",
        colour: (0xCC, 0x79, 0xA7),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        zstd_of: None,
        codec: Codec::Cbor,
        value: Some(ValueCodec {
            encode: cbor_encode,
            decode: cbor_decode,
        }),
    },
    Format {
        name: "cbor4ii",
        label: "CBOR (cbor4ii)",
        implementation: "cbor4ii",
        colour: (0x8A, 0x3B, 0x6E),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        zstd_of: None,
        codec: Codec::Cbor4ii,
        value: None,
    },
    Format {
        name: "postcard",
        label: "postcard",
        implementation: "postcard",
        colour: (0x55, 0x55, 0x55),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: true,
        zstd_of: None,
        codec: Codec::Postcard,
        value: None,
    },
    Format {
        name: "bitcode",
        label: "bitcode",
        implementation: "bitcode",
        colour: (0xA8, 0x96, 0x00),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: true,
        zstd_of: None,
        codec: Codec::Bitcode,
        value: None,
    },
    Format {
        name: "protobuf",
        label: "Protobuf",
        implementation: "prost",
        colour: (0xD5, 0x5E, 0x00),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: true,
        zstd_of: None,
        codec: Codec::Protobuf,
        value: Some(ValueCodec {
            encode: protobuf::encode,
            decode: protobuf::decode,
        }),
    },
    // The compressed pipelines: what Surp's own formats cost and save when
    // zstd follows them, so the docs can say when dedup, zstd or both fit.
    // Not pinned by the format version: the zstd library decides the size.
    Format {
        name: "surp_zstd",
        label: "Surp+zstd",
        implementation: "zstd",
        colour: (0x33, 0x33, 0x99),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        zstd_of: Some("surp"),
        codec: Codec::Surp,
        value: Some(ValueCodec {
            encode: surp_encode,
            decode: surp_decode,
        }),
    },
    Format {
        name: "surp_dedup_zstd",
        label: "Surp+Dedup+zstd",
        implementation: "zstd",
        colour: (0x66, 0x99, 0xCC),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        zstd_of: Some("surp_dedup"),
        codec: Codec::SurpDedup,
        value: Some(ValueCodec {
            encode: surp_dedup_encode,
            decode: surp_dedup_decode,
        }),
    },
];

// Through `surp::Serializer` on the caller's Vec: the path `surp::to_vec`
// takes, minus its allocation (the other formats' writer APIs are likewise
// the paths their `to_vec` functions take).
fn surp_encode(value: &Value, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(serde::Serialize::serialize(
        value,
        &mut surp::Serializer::new(buf),
    )?)
}

fn surp_decode(bytes: &[u8]) -> Result<Value, CodecError> {
    Ok(surp::from_slice(bytes)?)
}

// surp-dedup may rewrite a map once it has seen all its keys, so it builds
// the document in a Vec rather than streaming to a writer; it appends to the
// caller's Vec, which is what `surp_dedup::to_vec` does with a new one.
fn surp_dedup_encode(value: &Value, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(surp_dedup::append_to_vec(buf, value)?)
}

/// Map key sets only (`Options::dedup_strings(false)`); decoding is the
/// same as for any deduplicated document.
fn surp_dedup_shapes_encode(value: &Value, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(surp_dedup::Options::new()
        .dedup_strings(false)
        .append_to_vec(buf, value)?)
}

fn surp_dedup_decode(bytes: &[u8]) -> Result<Value, CodecError> {
    Ok(surp_dedup::from_slice(bytes)?)
}

fn json_encode(value: &Value, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(serde_json::to_writer(buf, value)?)
}

fn json_decode(bytes: &[u8]) -> Result<Value, CodecError> {
    Ok(serde_json::from_slice(bytes)?)
}

// MessagePack writes structs as maps (`write_named`, the writer form of
// `to_vec_named`); the neutral model has no structs, so this only fixes the
// configuration a struct-based user would pick.
fn msgpack_encode(value: &Value, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(rmp_serde::encode::write_named(buf, value)?)
}

fn msgpack_decode(bytes: &[u8]) -> Result<Value, CodecError> {
    Ok(rmp_serde::from_slice(bytes)?)
}

fn cbor_encode(value: &Value, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    Ok(ciborium::into_writer(value, buf.by_ref())?)
}

fn cbor_decode(bytes: &[u8]) -> Result<Value, CodecError> {
    Ok(ciborium::from_reader(bytes)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for (i, format) in FORMATS.iter().enumerate() {
            assert_eq!(Format::from_name(format.name), Some(format));
            assert!(FORMATS[..i].iter().all(|f| f.name != format.name));
            assert!(FORMATS[..i].iter().all(|f| f.colour != format.colour));
        }
        assert_eq!(Format::from_name("JSON"), None);
    }

    #[test]
    fn every_pipeline_compresses_a_plain_format_of_its_codec() {
        let pipelines: Vec<&Format> = FORMATS.iter().filter(|f| f.is_compressed()).collect();
        assert_eq!(pipelines.len(), 2);
        for pipeline in pipelines {
            let base = Format::from_name(pipeline.zstd_of.unwrap()).unwrap();
            assert!(!base.is_compressed(), "{}", pipeline.name);
            assert_eq!(base.codec, pipeline.codec, "{}", pipeline.name);
            assert!(!pipeline.pinned_by_format_version, "{}", pipeline.name);
            for suite in Suite::ALL {
                assert_eq!(base.in_suite(suite), pipeline.in_suite(suite));
            }
        }
    }

    #[test]
    fn every_format_round_trips_every_kind_of_value() {
        let value = Value::Map(vec![
            ("null".into(), Value::Null),
            (
                "bools".into(),
                Value::Array(vec![Value::Bool(true), Value::Bool(false)]),
            ),
            ("neg".into(), Value::I64(i64::MIN)),
            ("big".into(), Value::U64(u64::MAX)),
            ("zero".into(), Value::U64(0)),
            ("float".into(), Value::F64(-1.25e-300)),
            ("text".into(), Value::String("naïve \u{1F600}".into())),
            ("empty".into(), Value::String(String::new())),
            ("bytes".into(), Value::Bytes(vec![0, 1, 254, 255])),
            ("nobytes".into(), Value::Bytes(Vec::new())),
            ("".into(), Value::Map(Vec::new())),
            ("list".into(), Value::Array(Vec::new())),
        ]);
        for format in FORMATS.iter().filter(|f| f.in_suite(Suite::Value)) {
            let codec = format.value_codec();
            let mut buf = Vec::new();
            (codec.encode)(&value, &mut buf).unwrap();
            let back = (codec.decode)(&buf).unwrap();
            assert_eq!(back, *format.expected_decode(&value), "{}", format.name);
        }
    }

    #[test]
    fn only_json_expects_bytes_back_as_base64_text() {
        let value = Value::Array(vec![Value::Bytes(vec![0, 1, 2, 255])]);
        for format in &FORMATS {
            let expected = format.expected_decode(&value);
            if format.name == "json" {
                assert_eq!(
                    *expected,
                    Value::Array(vec![Value::String("AAEC/w==".into())])
                );
            } else {
                assert_eq!(*expected, value, "{}", format.name);
            }
        }
    }

    #[test]
    fn every_format_rejects_truncated_input() {
        let value = Value::Array(vec![Value::String("abcdef".into()), Value::U64(1 << 40)]);
        for format in FORMATS.iter().filter(|f| f.in_suite(Suite::Value)) {
            let codec = format.value_codec();
            let mut buf = Vec::new();
            (codec.encode)(&value, &mut buf).unwrap();
            let cut = &buf[..buf.len() - 2];
            assert!((codec.decode)(cut).is_err(), "{}", format.name);
        }
    }
}
