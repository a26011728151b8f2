//! The list of formats the harness compares, defined once: each entry names
//! a format, says how it is shown and judged, and what it runs (a
//! [`Codec`], or another format's encoding compressed with zstd), and, for
//! the messages suite, how it sends a stream (a
//! [`StreamCodec`](crate::stream::StreamCodec)). Every suite and the
//! instruction counter take their formats and their functions from
//! [`FORMATS`], so adding a format is adding one entry (and, for a serde
//! library or configuration the harness does not call yet, its
//! [`SerdeFormat`] in the `codec` module; for a new way of sending a
//! stream, its `StreamCodec`).

use std::borrow::Cow;
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use surp_datasets::Value;
use surp_datasets::typed::TypedValue;

use crate::cell::{self, CellInput, CellRun};
use crate::codec::{
    Bitcode, Cbor4ii, Ciborium, CodecError, Json, Msgpack, MsgpackCompact, Postcard, SerdeFormat,
    Surp, SurpDedup, SurpDedupShapes, ValueCodec,
};
use crate::lane::{Lane, LaneError, ZstdStep};
use crate::protobuf::{self, Protobuf};
use crate::stream::{Alone, Sending, Sharing};
use crate::stream_session::{Session, SharedDictionary};
use crate::stream_zstd::{ZstdAlone, ZstdDictionary, ZstdStream};
use crate::typed;
use crate::{BenchDataset, Operation, Suite};

/// How the harness calls a format's implementation, whatever the suite:
/// every serde format through its [`SerdeFormat`], Protobuf through its
/// messages. The functions a lane or a cell times are resolved here once,
/// before anything is timed.
pub(crate) trait Codec: Sync {
    /// The value suite's functions.
    fn value(&self) -> ValueCodec;
    /// The typed suite's lane for a dataset, checked and ready to time;
    /// `zstd` for a compressed pipeline.
    fn typed_lane<'v>(
        &self,
        value: &'v TypedValue,
        zstd: Option<ZstdStep>,
    ) -> Result<Box<dyn Lane + 'v>, LaneError>;
    /// Whether the typed suite's lanes can decode borrowing from the
    /// input (see [`SerdeFormat::BORROWS`]).
    fn borrows(&self) -> bool;
    /// The instruction counter's cell for an operation on a dataset;
    /// `None` for an implementation it cannot count.
    fn cell<'v>(&self, op: Operation, input: CellInput<'v>) -> Option<CellRun<'v>>;
}

impl<C: SerdeFormat> Codec for C {
    fn value(&self) -> ValueCodec {
        ValueCodec {
            encode: C::encode::<Value>,
            decode: C::decode::<Value>,
        }
    }
    fn typed_lane<'v>(
        &self,
        value: &'v TypedValue,
        zstd: Option<ZstdStep>,
    ) -> Result<Box<dyn Lane + 'v>, LaneError> {
        typed::serde_lane::<C>(value, zstd)
    }
    fn borrows(&self) -> bool {
        C::BORROWS
    }
    fn cell<'v>(&self, op: Operation, input: CellInput<'v>) -> Option<CellRun<'v>> {
        Some(cell::serde_cell::<C>(op, input))
    }
}

impl Codec for Protobuf {
    fn value(&self) -> ValueCodec {
        ValueCodec {
            encode: protobuf::encode,
            decode: protobuf::decode,
        }
    }
    fn typed_lane<'v>(
        &self,
        value: &'v TypedValue,
        zstd: Option<ZstdStep>,
    ) -> Result<Box<dyn Lane + 'v>, LaneError> {
        typed::proto_lane(value, zstd)
    }
    fn borrows(&self) -> bool {
        false
    }
    fn cell<'v>(&self, _: Operation, _: CellInput<'v>) -> Option<CellRun<'v>> {
        None
    }
}

/// What a format runs.
#[derive(Clone, Copy)]
pub(crate) enum Runs {
    /// A codec of its own.
    Codec {
        /// The implementation.
        codec: &'static dyn Codec,
        /// Whether the value suite measures it; the typed suite measures
        /// every format.
        value_suite: bool,
        /// Whether the instruction counter counts its encode and decode
        /// (the project's own formats; see the `instructions` module).
        counted: bool,
    },
    /// The encoding of the named format compressed with zstd at
    /// [`ZSTD_LEVEL`](crate::ZSTD_LEVEL): encode is that format's encode
    /// then compression, decode is decompression then that format's decode.
    /// It is in the value and typed suites its format is in, and is never
    /// counted.
    Zstd {
        /// The name of the format it compresses.
        of: &'static str,
    },
    /// Only a way of sending a stream of messages, which has no form for
    /// one document (one zstd stream for all messages; a dictionary that
    /// both ends hold): in the messages suite only, run by the format's
    /// [`messages`](Format::messages).
    Stream,
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
    /// What it runs: its own codec, or for a compressed pipeline another
    /// format's. Pipelines are measured like formats but never compared
    /// with them as if they were formats: charts, the per-format tables and
    /// the docs' headlines leave them out, and they get a table of their
    /// own (see [`Format::is_compressed`]).
    pub(crate) runs: Runs,
    /// How the messages suite sends a stream in this format; `None` for a
    /// format that suite leaves out.
    pub(crate) messages: Option<Sending>,
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
        suite != Suite::Value && self.needs_schema
    }

    /// For a compressed pipeline, the name of the format whose encoding it
    /// compresses; `None` for a plain format.
    pub fn zstd_of(&self) -> Option<&'static str> {
        match self.runs {
            Runs::Codec { .. } | Runs::Stream => None,
            Runs::Zstd { of } => Some(of),
        }
    }

    /// Whether this is a compressed pipeline (a format followed by zstd)
    /// rather than a format.
    pub fn is_compressed(&self) -> bool {
        self.zstd_of().is_some()
    }

    /// Whether, in this suite, the format is a compressed pipeline that
    /// charts, the per-format tables and the headlines keep apart from the
    /// formats. In the messages suite every way of sending a stream,
    /// compressed or not, is compared with every other.
    pub fn is_pipeline_in(&self, suite: Suite) -> bool {
        suite != Suite::Messages && self.is_compressed()
    }

    /// Whether this is a peer: another library's format, neither one of the
    /// project's own nor built on them (a compressed pipeline, a way of
    /// sending a stream).
    pub fn is_peer(&self) -> bool {
        !self.pinned_by_format_version && matches!(self.runs, Runs::Codec { .. })
    }

    /// In the messages suite, what a receiver needs besides a message's own
    /// bytes to decode it; `None` for a format that suite leaves out.
    pub fn sharing(&self) -> Option<Sharing> {
        self.messages.map(|sending| sending.sharing)
    }

    /// Whether the format takes part in a suite.
    pub fn in_suite(&self, suite: Suite) -> bool {
        match suite {
            Suite::Value => matches!(
                self.plain().runs,
                Runs::Codec {
                    value_suite: true,
                    ..
                }
            ),
            Suite::Typed => !matches!(self.runs, Runs::Stream),
            Suite::Messages => self.messages.is_some(),
        }
    }

    /// Whether the format is measured on this dataset: it is in the
    /// dataset's suite, and, for a workload of the messages suite, can
    /// read its messages. A format that needs the schema sends only the
    /// typed workloads: postcard cannot decode a dynamic value at all, and
    /// without structs compact MessagePack is MessagePack.
    pub fn measures(&self, dataset: BenchDataset) -> bool {
        let readable = match dataset {
            BenchDataset::Messages(workload) => workload.is_typed() || !self.needs_schema,
            BenchDataset::Value(_) | BenchDataset::Typed(_) => true,
        };
        readable && self.in_suite(dataset.suite())
    }

    /// Whether the instruction counter counts this format.
    pub(crate) fn is_counted(&self) -> bool {
        matches!(self.runs, Runs::Codec { counted: true, .. })
    }

    /// The implementation: the format's codec, or for a compressed
    /// pipeline the codec of the format it compresses.
    pub(crate) fn codec(&self) -> &'static dyn Codec {
        match self.plain().runs {
            Runs::Codec { codec, .. } => codec,
            Runs::Zstd { .. } => panic!("{} compresses another pipeline", self.name),
            Runs::Stream => panic!("{} only sends streams of messages", self.name),
        }
    }

    /// The zstd step a lane of this format needs: `None` for a plain
    /// format, a fresh one for a compressed pipeline.
    pub(crate) fn zstd_step(&self) -> Result<Option<ZstdStep>, CodecError> {
        self.is_compressed().then(ZstdStep::new).transpose()
    }

    /// The format whose codec this one runs: itself, or for a compressed
    /// pipeline the format it compresses.
    fn plain(&self) -> &Format {
        match self.runs {
            Runs::Codec { .. } | Runs::Stream => self,
            Runs::Zstd { of } => Format::from_name(of).unwrap_or_else(|| {
                panic!("{} compresses `{of}`, which is not a format", self.name)
            }),
        }
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
/// compressed pipelines, then the ways of sending a stream that only the
/// messages suite has.
pub static FORMATS: [Format; 18] = [
    Format {
        name: "surp",
        label: "Surp",
        implementation: "surp",
        colour: (0x00, 0x72, 0xB2),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        runs: Runs::Codec {
            codec: &Surp,
            value_suite: true,
            counted: true,
        },
        messages: Some(Sending::of::<Alone<Surp>>()),
    },
    Format {
        name: "surp_dedup",
        label: "Surp+Dedup",
        implementation: "surp-dedup",
        colour: (0x56, 0xB4, 0xE9),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        runs: Runs::Codec {
            codec: &SurpDedup,
            value_suite: true,
            counted: true,
        },
        messages: Some(Sending::of::<Alone<SurpDedup>>()),
    },
    Format {
        name: "surp_dedup_shapes",
        label: "Surp+Dedup shapes",
        implementation: "surp-dedup",
        colour: (0x88, 0xCC, 0xEE),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        runs: Runs::Codec {
            codec: &SurpDedupShapes,
            value_suite: true,
            counted: false,
        },
        messages: None,
    },
    Format {
        name: "json",
        label: "JSON",
        implementation: "serde_json",
        colour: (0xE6, 0x9F, 0x00),
        bytes_as_base64: true,
        pinned_by_format_version: false,
        needs_schema: false,
        runs: Runs::Codec {
            codec: &Json,
            value_suite: true,
            counted: false,
        },
        messages: None,
    },
    Format {
        name: "msgpack",
        label: "MessagePack",
        implementation: "rmp-serde",
        colour: (0x00, 0x9E, 0x73),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        runs: Runs::Codec {
            codec: &Msgpack,
            value_suite: true,
            counted: false,
        },
        messages: Some(Sending::of::<Alone<Msgpack>>()),
    },
    Format {
        name: "msgpack_compact",
        label: "MessagePack compact",
        implementation: "rmp-serde",
        colour: (0x00, 0x5A, 0x40),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: true,
        runs: Runs::Codec {
            codec: &MsgpackCompact,
            value_suite: false,
            counted: false,
        },
        messages: Some(Sending::of::<Alone<MsgpackCompact>>()),
    },
    Format {
        name: "cbor",
        label: "CBOR",
        implementation: "ciborium",
        colour: (0xCC, 0x79, 0xA7),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        runs: Runs::Codec {
            codec: &Ciborium,
            value_suite: true,
            counted: false,
        },
        messages: None,
    },
    Format {
        name: "cbor4ii",
        label: "CBOR (cbor4ii)",
        implementation: "cbor4ii",
        colour: (0x8A, 0x3B, 0x6E),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        runs: Runs::Codec {
            codec: &Cbor4ii,
            value_suite: false,
            counted: false,
        },
        messages: None,
    },
    Format {
        name: "postcard",
        label: "postcard",
        implementation: "postcard",
        colour: (0x55, 0x55, 0x55),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: true,
        runs: Runs::Codec {
            codec: &Postcard,
            value_suite: false,
            counted: false,
        },
        messages: Some(Sending::of::<Alone<Postcard>>()),
    },
    Format {
        name: "bitcode",
        label: "bitcode",
        implementation: "bitcode",
        colour: (0xA8, 0x96, 0x00),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: true,
        runs: Runs::Codec {
            codec: &Bitcode,
            value_suite: false,
            counted: false,
        },
        messages: None,
    },
    Format {
        name: "protobuf",
        label: "Protobuf",
        implementation: "prost",
        colour: (0xD5, 0x5E, 0x00),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: true,
        runs: Runs::Codec {
            codec: &Protobuf,
            value_suite: true,
            counted: false,
        },
        messages: None,
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
        runs: Runs::Zstd { of: "surp" },
        messages: Some(Sending::of::<ZstdAlone<Alone<Surp>>>()),
    },
    Format {
        name: "surp_dedup_zstd",
        label: "Surp+Dedup+zstd",
        implementation: "zstd",
        colour: (0x66, 0x99, 0xCC),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        runs: Runs::Zstd { of: "surp_dedup" },
        messages: None,
    },
    // The ways of sending a stream that the messages suite adds: Surp with
    // a zstd dictionary trained on records that are not sent, and Surp
    // through one zstd stream for all messages.
    Format {
        name: "surp_zstd_dict",
        label: "Surp+zstd dictionary",
        implementation: "zstd",
        colour: (0x88, 0x44, 0xAA),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        runs: Runs::Stream,
        messages: Some(Sending::of::<ZstdDictionary<Alone<Surp>>>()),
    },
    Format {
        name: "surp_zstd_stream",
        label: "Surp+zstd stream",
        implementation: "zstd",
        colour: (0x11, 0x77, 0x77),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        runs: Runs::Stream,
        messages: Some(Sending::of::<ZstdStream<Alone<Surp>>>()),
    },
    // Surp's own: a session (`docs/spec.md` section 9), a dictionary
    // learnt from records that are not sent, and a session through one zstd
    // stream.
    Format {
        name: "surp_session",
        label: "Surp session",
        implementation: "surp-dedup",
        colour: (0xC0, 0x39, 0x2B),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        runs: Runs::Stream,
        messages: Some(Sending::of::<Session>()),
    },
    Format {
        name: "surp_dictionary",
        label: "Surp dictionary",
        implementation: "surp-dedup",
        colour: (0xF0, 0x8A, 0x5D),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        runs: Runs::Stream,
        messages: Some(Sending::of::<SharedDictionary>()),
    },
    Format {
        name: "surp_session_zstd_stream",
        label: "Surp session+zstd stream",
        implementation: "zstd",
        colour: (0x99, 0x33, 0x00),
        bytes_as_base64: false,
        pinned_by_format_version: false,
        needs_schema: false,
        runs: Runs::Stream,
        messages: Some(Sending::of::<ZstdStream<Session>>()),
    },
];

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
    fn every_pipeline_compresses_a_plain_format() {
        let pipelines: Vec<&Format> = FORMATS.iter().filter(|f| f.is_compressed()).collect();
        assert_eq!(pipelines.len(), 2);
        for pipeline in pipelines {
            let base = Format::from_name(pipeline.zstd_of().unwrap()).unwrap();
            assert!(!base.is_compressed(), "{}", pipeline.name);
            assert!(!pipeline.pinned_by_format_version, "{}", pipeline.name);
            assert!(!pipeline.is_counted(), "{}", pipeline.name);
            for suite in [Suite::Value, Suite::Typed] {
                assert_eq!(base.in_suite(suite), pipeline.in_suite(suite));
            }
        }
    }

    #[test]
    fn a_way_of_sending_streams_is_in_the_messages_suite_alone() {
        for format in FORMATS.iter().filter(|f| matches!(f.runs, Runs::Stream)) {
            assert!(format.in_suite(Suite::Messages), "{}", format.name);
            assert!(!format.in_suite(Suite::Value), "{}", format.name);
            assert!(!format.in_suite(Suite::Typed), "{}", format.name);
            assert!(
                !format.is_peer() && !format.is_compressed(),
                "{}",
                format.name
            );
        }
        // A format that needs the schema sends only typed workloads.
        let postcard = Format::from_name("postcard").unwrap();
        assert!(postcard.measures(crate::Workload::LogRecord.into()));
        assert!(!postcard.measures(crate::Workload::TwitterStatus.into()));
        let surp = Format::from_name("surp").unwrap();
        assert!(surp.measures(crate::Workload::TwitterStatus.into()));
        // What a receiver needs besides the message follows the codec.
        let sharing = |name| Format::from_name(name).unwrap().sharing();
        assert_eq!(sharing("msgpack"), Some(Sharing::Nothing));
        assert_eq!(sharing("surp_zstd"), Some(Sharing::Nothing));
        assert_eq!(sharing("surp_zstd_dict"), Some(Sharing::Dictionary));
        assert_eq!(sharing("surp_zstd_stream"), Some(Sharing::Stream));
        assert_eq!(sharing("json"), None);
        // In the messages suite a compressed format is compared like any.
        let surp_zstd = Format::from_name("surp_zstd").unwrap();
        assert!(surp_zstd.is_pipeline_in(Suite::Value));
        assert!(!surp_zstd.is_pipeline_in(Suite::Messages));
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
            let codec = format.codec().value();
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
            let codec = format.codec().value();
            let mut buf = Vec::new();
            (codec.encode)(&value, &mut buf).unwrap();
            let cut = &buf[..buf.len() - 2];
            assert!((codec.decode)(cut).is_err(), "{}", format.name);
        }
    }
}
