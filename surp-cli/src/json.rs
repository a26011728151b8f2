//! JSON and Surp: JSON text to a [`surp::Value`], and a Surp document
//! straight to JSON text.
//!
//! JSON is read into a `surp::Value`, whose maps are lists of entries, so key
//! order (and duplicate keys) survive without serde_json's `preserve_order`
//! feature. Numbers: an integer in the `i64` or `u64` range becomes a Surp
//! integer, and every other number a binary64 float (serde_json parses an
//! integer beyond 64 bits as the nearest float, as JavaScript does).
//!
//! Surp is turned into JSON by the `surp` deserializer itself, visiting the
//! document and writing JSON as it goes. Any error, whether the document is
//! malformed or merely has no JSON form, comes back with the byte offset of
//! the value at fault:
//! - a float is written as binary64 (binary16 and binary32 widen exactly);
//!   NaN and the infinities have no JSON form and are an error;
//! - a byte string becomes a base64 string, a hex string or an array of
//!   numbers ([`BytesForm`]);
//! - a map key must be a string or an integer (written as its decimal
//!   string); any other key is an error;
//! - the `some` marker becomes its content, and integers keep all their digits,
//!   up to 128 bits.

use std::fmt;
use std::io::Write;

use base64::Engine;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use crate::error::Error;

/// How `decode` writes a byte string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum BytesForm {
    /// A string of standard base64, with padding.
    #[default]
    Base64,
    /// A string of lowercase hex digits.
    Hex,
    /// An array of numbers from 0 to 255.
    Array,
}

/// Parses JSON text into a value, keeping the order of object keys.
pub fn parse(input: &[u8]) -> Result<surp::Value, Error> {
    serde_json::from_slice(input).map_err(|error| {
        let offset = if error.is_eof() {
            input.len()
        } else {
            byte_offset(input, error.line(), error.column())
        };
        Error::Json { error, offset }
    })
}

/// Whether `input` is JSON text: one JSON value or more, one after another
/// (JSON Lines too). A command that expects Surp uses it to say so when it
/// fails, since a JSON file is the usual mistake.
pub fn is_json_text(input: &[u8]) -> bool {
    let mut values = serde_json::Deserializer::from_slice(input).into_iter::<de::IgnoredAny>();
    values.next().is_some_and(|first| first.is_ok()) && values.all(|value| value.is_ok())
}

/// Whether `start`, the first bytes of a longer input, could begin JSON
/// text: values one after another, the last of them perhaps cut short.
/// For input read as it arrives, whose end is not known when the question
/// is asked.
pub fn starts_json_text(start: &[u8]) -> bool {
    let mut values = serde_json::Deserializer::from_slice(start).into_iter::<de::IgnoredAny>();
    let mut any = false;
    for value in values.by_ref() {
        match value {
            Ok(_) => any = true,
            Err(e) => return e.is_eof(),
        }
    }
    any
}

/// The byte offset of serde_json's 1-based line and column (a column counts
/// bytes, and names the byte the error was found at).
fn byte_offset(input: &[u8], line: usize, column: usize) -> usize {
    let line_start = match line.checked_sub(2) {
        None => 0,
        Some(newlines) => input
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .nth(newlines)
            .map_or(input.len(), |(at, _)| at + 1),
    };
    (line_start + column.saturating_sub(1)).min(input.len())
}

/// Why a document could not be written as JSON.
#[derive(Debug)]
pub enum JsonError {
    /// The document is malformed, or a value has no JSON form.
    Surp(surp::Error),
    /// Writing the JSON failed.
    Io(std::io::Error),
}

/// Decodes a Surp document (plain or deduplicated) into JSON text, ending
/// with a newline, streamed into `out` as the document is read: memory
/// stays bounded by the document, whatever the size of the JSON.
pub fn write_json(
    document: &[u8],
    bytes: BytesForm,
    pretty: bool,
    out: &mut dyn std::io::Write,
) -> Result<(), JsonError> {
    let mut sink = Sink { out, failed: None };
    let mut de = surp::Deserializer::from_slice(document);
    let result = if pretty {
        let mut fmt = PrettyFormatter::new();
        Json::new(&mut sink, &mut fmt, bytes).deserialize(&mut de)
    } else {
        let mut fmt = CompactFormatter;
        Json::new(&mut sink, &mut fmt, bytes).deserialize(&mut de)
    };
    // A write error surfaces through serde as a message; report the I/O
    // error itself.
    if let Some(error) = sink.failed.take() {
        return Err(JsonError::Io(error));
    }
    result.map_err(JsonError::Surp)?;
    de.end().map_err(JsonError::Surp)?;
    sink.write_all(b"\n").map_err(JsonError::Io)
}

/// Decodes a Surp document into JSON text in memory (see [`write_json`]).
#[cfg(test)]
pub fn to_json(document: &[u8], bytes: BytesForm, pretty: bool) -> Result<Vec<u8>, surp::Error> {
    let mut out = Vec::new();
    match write_json(document, bytes, pretty, &mut out) {
        Ok(()) => Ok(out),
        Err(JsonError::Surp(e)) => Err(e),
        Err(JsonError::Io(e)) => unreachable!("writing into a Vec failed: {e}"),
    }
}

/// The output, remembering the first write error so that it is reported as
/// one rather than as a serde message.
struct Sink<'w> {
    out: &'w mut dyn std::io::Write,
    failed: Option<std::io::Error>,
}

impl std::io::Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf).inspect_err(|e| {
            if self.failed.is_none() {
                self.failed = Some(std::io::Error::new(e.kind(), e.to_string()));
            }
        })
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The formatter's writes can fail; serde needs its own error type.
fn written<E: de::Error>(result: std::io::Result<()>) -> Result<(), E> {
    result.map_err(E::custom)
}

/// A JSON value to be written from the next Surp value.
struct Json<'o, F> {
    out: &'o mut dyn std::io::Write,
    fmt: &'o mut F,
    bytes: BytesForm,
}

impl<'o, F: Formatter> Json<'o, F> {
    fn new(out: &'o mut dyn std::io::Write, fmt: &'o mut F, bytes: BytesForm) -> Self {
        Json { out, fmt, bytes }
    }

    fn reborrow(&mut self) -> Json<'_, F> {
        Json {
            out: self.out,
            fmt: self.fmt,
            bytes: self.bytes,
        }
    }

    fn write_quoted(&mut self, text: impl fmt::Display) -> std::io::Result<()> {
        write!(self.out, "\"{text}\"")
    }
}

impl<'de, F: Formatter> DeserializeSeed<'de> for Json<'_, F> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, F: Formatter> Visitor<'de> for Json<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any Surp value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        written(self.fmt.write_null(self.out))
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        written(self.fmt.write_bool(self.out, v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        written(self.fmt.write_i64(self.out, v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        written(self.fmt.write_u64(self.out, v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<(), E> {
        written(self.fmt.write_i128(self.out, v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<(), E> {
        written(self.fmt.write_u128(self.out, v))
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<(), E> {
        // Widening is exact, so JSON -> Surp gives back the same bits.
        self.visit_f64(f64::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        if !v.is_finite() {
            return Err(E::custom(format_args!(
                "the float {} has no JSON form",
                non_finite_name(v)
            )));
        }
        written(self.fmt.write_f64(self.out, v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        serde_json::to_writer(&mut *self.out, v).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(mut self, v: &[u8]) -> Result<(), E> {
        let result = match self.bytes {
            BytesForm::Base64 => {
                let text = base64::engine::general_purpose::STANDARD.encode(v);
                self.write_quoted(text)
            }
            BytesForm::Hex => self.write_quoted(Hex(v)),
            BytesForm::Array => (|| {
                self.fmt.begin_array(self.out)?;
                for (i, &b) in v.iter().enumerate() {
                    self.fmt.begin_array_value(self.out, i == 0)?;
                    self.fmt.write_u8(self.out, b)?;
                    self.fmt.end_array_value(self.out)?;
                }
                self.fmt.end_array(self.out)
            })(),
        };
        written(result)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        written(self.fmt.begin_array(self.out))?;
        let mut first = true;
        while let Some(()) = seq.next_element_seed(Member {
            json: self.reborrow(),
            role: Role::Element(first),
        })? {
            first = false;
        }
        written(self.fmt.end_array(self.out))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        written(self.fmt.begin_object(self.out))?;
        let mut first = true;
        while let Some(()) = map.next_key_seed(Member {
            json: self.reborrow(),
            role: Role::Key(first),
        })? {
            map.next_value_seed(Member {
                json: self.reborrow(),
                role: Role::Value,
            })?;
            first = false;
        }
        written(self.fmt.end_object(self.out))
    }
}

fn non_finite_name(v: f64) -> &'static str {
    if v.is_nan() {
        "NaN"
    } else if v > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

/// Lowercase hex digits of some bytes.
pub struct Hex<'a>(pub &'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// What a member of an array or object is: where its punctuation goes.
#[derive(Clone, Copy)]
enum Role {
    /// An array element; `true` for the first.
    Element(bool),
    /// An object member's name, from a map key; `true` for the first.
    Key(bool),
    /// An object member's value.
    Value,
}

/// A member of an array or object, written with the formatter's punctuation
/// around it.
struct Member<'o, F> {
    json: Json<'o, F>,
    role: Role,
}

impl<'de, F: Formatter> DeserializeSeed<'de> for Member<'_, F> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(mut self, d: D) -> Result<(), D::Error> {
        let (fmt, out) = (&mut *self.json.fmt, &mut *self.json.out);
        written(match self.role {
            Role::Element(first) => fmt.begin_array_value(out, first),
            Role::Key(first) => fmt.begin_object_key(out, first),
            Role::Value => fmt.begin_object_value(out),
        })?;
        let json = self.json.reborrow();
        match self.role {
            Role::Key(_) => d.deserialize_any(KeyName { json })?,
            Role::Element(_) | Role::Value => json.deserialize(d)?,
        }
        let (fmt, out) = (&mut *self.json.fmt, &mut *self.json.out);
        written(match self.role {
            Role::Element(_) => fmt.end_array_value(out),
            Role::Key(_) => fmt.end_object_key(out),
            Role::Value => fmt.end_object_value(out),
        })
    }
}

/// Writes a string or integer map key as a JSON string; refuses the rest.
struct KeyName<'o, F> {
    json: Json<'o, F>,
}

fn key_without_json_form<E: de::Error>(what: &str) -> E {
    E::custom(format_args!("a map key that is {what} has no JSON form"))
}

impl<'de, F: Formatter> Visitor<'de> for KeyName<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or integer map key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.json.visit_str(v)
    }

    fn visit_i64<E: de::Error>(mut self, v: i64) -> Result<(), E> {
        written(self.json.write_quoted(v))
    }

    fn visit_u64<E: de::Error>(mut self, v: u64) -> Result<(), E> {
        written(self.json.write_quoted(v))
    }

    fn visit_i128<E: de::Error>(mut self, v: i128) -> Result<(), E> {
        written(self.json.write_quoted(v))
    }

    fn visit_u128<E: de::Error>(mut self, v: u128) -> Result<(), E> {
        written(self.json.write_quoted(v))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(key_without_json_form("null"))
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Err(key_without_json_form("a boolean"))
    }

    fn visit_f32<E: de::Error>(self, _: f32) -> Result<(), E> {
        Err(key_without_json_form("a float"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Err(key_without_json_form("a float"))
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<(), E> {
        Err(key_without_json_form("a byte string"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(key_without_json_form("an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(key_without_json_form("a map"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(value: &surp::Value) -> String {
        let bytes = surp::to_vec(value).unwrap();
        String::from_utf8(to_json(&bytes, BytesForm::Base64, false).unwrap()).unwrap()
    }

    fn json_error(bytes: &[u8]) -> String {
        to_json(bytes, BytesForm::Base64, false)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn object_key_order_survives_a_round_trip() {
        let text = br#"{"z":1,"a":[true,null,-5,1.5,"x"],"m":{"b":2,"a":1}}"#;
        let value = parse(text).unwrap();
        assert_eq!(
            json(&value),
            format!("{}\n", std::str::from_utf8(text).unwrap())
        );
    }

    #[test]
    fn integers_within_64_bits_stay_integers_and_larger_ones_become_floats() {
        let value =
            parse(b"[18446744073709551615, -9223372036854775808, 18446744073709551616, 1.0]")
                .unwrap();
        assert_eq!(
            value,
            surp::Value::Array(vec![
                u64::MAX.into(),
                i64::MIN.into(),
                surp::Value::Float(18446744073709551616.0),
                surp::Value::Float(1.0),
            ])
        );
    }

    #[test]
    fn wide_integers_keep_every_digit() {
        let value = surp::Value::from(vec![surp::Value::from(u128::MAX), i128::MIN.into()]);
        assert_eq!(json(&value), format!("[{},{}]\n", u128::MAX, i128::MIN));
    }

    #[test]
    fn narrow_floats_are_widened_exactly() {
        // 0.1f32 is stored as binary32; its exact value is printed.
        let bytes = surp::to_vec(&0.1f32).unwrap();
        let text = to_json(&bytes, BytesForm::Base64, false).unwrap();
        assert_eq!(text, b"0.10000000149011612\n");
        let back = surp::to_vec(&parse(&text).unwrap()).unwrap();
        assert_eq!(back, bytes);
    }

    #[test]
    fn byte_strings_take_the_chosen_form() {
        let bytes = surp::to_vec(&surp::Value::Bytes(vec![0, 1, 254, 255])).unwrap();
        let as_text = |form| String::from_utf8(to_json(&bytes, form, false).unwrap()).unwrap();
        assert_eq!(as_text(BytesForm::Base64), "\"AAH+/w==\"\n");
        assert_eq!(as_text(BytesForm::Hex), "\"0001feff\"\n");
        assert_eq!(as_text(BytesForm::Array), "[0,1,254,255]\n");
    }

    #[test]
    fn non_finite_floats_are_an_error_at_their_offset() {
        let value = surp::Value::from(vec![surp::Value::from(1), f64::NAN.into()]);
        let bytes = surp::to_vec(&value).unwrap();
        assert_eq!(
            json_error(&bytes),
            "the float NaN has no JSON form at byte 2"
        );
        let bytes = surp::to_vec(&f64::NEG_INFINITY).unwrap();
        assert_eq!(
            json_error(&bytes),
            "the float -Infinity has no JSON form at byte 0"
        );
    }

    #[test]
    fn integer_keys_become_strings_and_other_keys_are_an_error() {
        let value = surp::Value::Map(vec![(7.into(), "seven".into()), ((-1).into(), true.into())]);
        assert_eq!(json(&value), "{\"7\":\"seven\",\"-1\":true}\n");
        let value = surp::Value::Map(vec![("a".into(), 1.into()), (1.5.into(), 2.into())]);
        let bytes = surp::to_vec(&value).unwrap();
        assert_eq!(
            json_error(&bytes),
            "a map key that is a float has no JSON form at byte 4"
        );
    }

    #[test]
    fn the_some_marker_becomes_its_content() {
        // Some(None) is `eb e8`; an array holding it.
        assert_eq!(
            to_json(&[0xa2, 0xeb, 0xe8, 0x05], BytesForm::Base64, false).unwrap(),
            b"[null,5]\n"
        );
    }

    #[test]
    fn pretty_output_is_indented() {
        let bytes = surp::to_vec(&parse(br#"{"a":[1,2],"b":{}}"#).unwrap()).unwrap();
        let text = to_json(&bytes, BytesForm::Base64, true).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}\n"
        );
    }

    #[test]
    fn a_json_error_names_the_byte_it_points_at() {
        for (text, offset) in [
            (&b"[1,]"[..], 3),
            (b"{\"a\": 1,\n \"b\" 2}", 14),
            (b"[1, 2", 5),
            (b"", 0),
            (b"1 x", 2),
        ] {
            match parse(text) {
                Err(Error::Json { offset: got, .. }) => {
                    assert_eq!(got, offset, "{:?}", std::str::from_utf8(text));
                }
                other => panic!("{other:?}"),
            }
        }
    }
}
