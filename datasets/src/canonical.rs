//! The canonical bytes of a [`Value`]: the codec-independent serialization
//! whose sha256 pins every dataset.
//!
//! It exists so that a change in any codec under test (Surp, JSON,
//! MessagePack, CBOR, Protobuf) can never look like a change in the data, and
//! a change in the data can never hide behind a codec. It is deliberately
//! dull: one tag byte per value, then fixed-width little-endian fields; the
//! format is specified in the crate docs (README.md, "Canonical bytes").

use sha2::{Digest, Sha256};

use crate::Value;

/// The tag byte in front of each value, written once so the table in the
/// crate docs (README.md) and the encoder read side by side.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Tag {
    Null = 0x00,
    Bool = 0x01,
    I64 = 0x02,
    U64 = 0x03,
    F64 = 0x04,
    String = 0x05,
    Bytes = 0x06,
    Array = 0x07,
    Map = 0x08,
}

/// Where canonical bytes go: a buffer, a hasher, or a counter.
trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Feeds a hasher through a buffer, because the encoder writes many tiny
/// pieces and each hasher call has a fixed cost.
struct HashSink {
    hasher: Sha256,
    buffer: Vec<u8>,
}

const HASH_BUFFER: usize = 64 * 1024;

impl Sink for HashSink {
    fn put(&mut self, bytes: &[u8]) {
        if self.buffer.len() + bytes.len() > HASH_BUFFER {
            self.hasher.update(&self.buffer);
            self.buffer.clear();
        }
        if bytes.len() > HASH_BUFFER {
            self.hasher.update(bytes);
        } else {
            self.buffer.extend_from_slice(bytes);
        }
    }
}

struct LenSink(u64);

impl Sink for LenSink {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len() as u64;
    }
}

fn put_len(sink: &mut impl Sink, len: usize) {
    sink.put(&(len as u64).to_le_bytes());
}

fn encode(value: &Value, sink: &mut impl Sink) {
    match value {
        Value::Null => sink.put(&[Tag::Null as u8]),
        Value::Bool(b) => sink.put(&[Tag::Bool as u8, u8::from(*b)]),
        Value::I64(v) => {
            sink.put(&[Tag::I64 as u8]);
            sink.put(&v.to_le_bytes());
        }
        Value::U64(v) => {
            sink.put(&[Tag::U64 as u8]);
            sink.put(&v.to_le_bytes());
        }
        Value::F64(v) => {
            sink.put(&[Tag::F64 as u8]);
            sink.put(&v.to_bits().to_le_bytes());
        }
        Value::String(s) => {
            sink.put(&[Tag::String as u8]);
            put_len(sink, s.len());
            sink.put(s.as_bytes());
        }
        Value::Bytes(b) => {
            sink.put(&[Tag::Bytes as u8]);
            put_len(sink, b.len());
            sink.put(b);
        }
        Value::Array(items) => {
            sink.put(&[Tag::Array as u8]);
            put_len(sink, items.len());
            for item in items {
                encode(item, sink);
            }
        }
        Value::Map(entries) => {
            sink.put(&[Tag::Map as u8]);
            put_len(sink, entries.len());
            for (key, item) in entries {
                put_len(sink, key.len());
                sink.put(key.as_bytes());
                encode(item, sink);
            }
        }
    }
}

/// The canonical bytes of `value`.
///
/// Each value is one tag byte followed by fixed-width little-endian fields;
/// the byte-level definition is in the [crate docs](crate#canonical-bytes).
/// Nothing is normalised: map order is kept, floats keep their exact bits,
/// and the two integer variants have different tags.
///
/// ```
/// use surp_datasets::{Value, canonical_bytes};
///
/// let bytes = canonical_bytes(&Value::Array(vec![Value::Bool(true), Value::Null]));
/// assert_eq!(bytes, [0x07, 2, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x01, 0x00]);
/// ```
pub fn canonical_bytes(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    encode(value, &mut out);
    out
}

/// The length of [`canonical_bytes`] without building them.
pub fn canonical_len(value: &Value) -> u64 {
    let mut sink = LenSink(0);
    encode(value, &mut sink);
    sink.0
}

/// The sha256 of [`canonical_bytes`], as 64 lowercase hex digits; computed
/// without holding the whole encoding in memory.
///
/// ```
/// use surp_datasets::{Value, sha256_hex};
///
/// // The canonical bytes of null are the single byte 0x00.
/// assert_eq!(
///     sha256_hex(&Value::Null),
///     "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
/// );
/// ```
pub fn sha256_hex(value: &Value) -> String {
    let mut sink = HashSink {
        hasher: Sha256::new(),
        buffer: Vec::with_capacity(HASH_BUFFER),
    };
    encode(value, &mut sink);
    sink.hasher.update(&sink.buffer);
    hex(&sink.hasher.finalize())
}

/// Lowercase hex of raw bytes, as sha256 sums are written.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// The sha256 of raw bytes (a corpus file), as lowercase hex.
pub(crate) fn sha256_of_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        Value::Map(vec![
            ("n".into(), Value::Null),
            ("b".into(), Value::Bool(false)),
            ("i".into(), Value::int(-2)),
            ("u".into(), Value::U64(258)),
            ("f".into(), Value::F64(1.5)),
            ("s".into(), Value::String("é".into())),
            ("x".into(), Value::Bytes(vec![0xff])),
            ("a".into(), Value::Array(vec![])),
        ])
    }

    #[test]
    fn every_variant_encodes_as_documented() {
        let mut expected = vec![0x08, 8, 0, 0, 0, 0, 0, 0, 0];
        let mut entry = |key: u8, value: &[u8]| {
            expected.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0, key]);
            expected.extend_from_slice(value);
        };
        entry(b'n', &[0x00]);
        entry(b'b', &[0x01, 0x00]);
        entry(
            b'i',
            &[0x02, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        );
        entry(b'u', &[0x03, 0x02, 0x01, 0, 0, 0, 0, 0, 0]);
        entry(b'f', &[0x04, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f]);
        entry(b's', &[0x05, 2, 0, 0, 0, 0, 0, 0, 0, 0xc3, 0xa9]);
        entry(b'x', &[0x06, 1, 0, 0, 0, 0, 0, 0, 0, 0xff]);
        entry(b'a', &[0x07, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(canonical_bytes(&sample()), expected);
    }

    #[test]
    fn hash_and_length_agree_with_the_bytes_across_buffer_flushes() {
        // Larger than the hash buffer, with small pieces on both sides of it.
        let value = Value::Array(vec![
            Value::String("a".repeat(HASH_BUFFER - 3)),
            Value::Bytes(vec![7; HASH_BUFFER * 2 + 5]),
            sample(),
        ]);
        let bytes = canonical_bytes(&value);
        assert_eq!(sha256_hex(&value), sha256_of_bytes(&bytes));
        assert_eq!(canonical_len(&value), bytes.len() as u64);
    }

    #[test]
    fn integer_variants_and_float_signs_are_distinct() {
        assert_ne!(
            canonical_bytes(&Value::I64(5)),
            canonical_bytes(&Value::U64(5))
        );
        assert_ne!(
            canonical_bytes(&Value::F64(0.0)),
            canonical_bytes(&Value::F64(-0.0))
        );
    }

    #[test]
    fn map_order_is_part_of_the_hash() {
        let ab = Value::Map(vec![("a".into(), Value::Null), ("b".into(), Value::Null)]);
        let ba = Value::Map(vec![("b".into(), Value::Null), ("a".into(), Value::Null)]);
        assert_ne!(sha256_hex(&ab), sha256_hex(&ba));
    }
}
