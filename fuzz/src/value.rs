//! Arbitrary `surp::Value`s for the structured targets, and bit-exact
//! comparison.
//!
//! `Arbitrary` is implemented for a local wrapper, [`ArbValue`], so that the
//! `surp` crate does not depend on `arbitrary`. Generation is biased towards
//! what the wire treats specially: integers and floats at every width, NaN
//! payloads, strings from a small pool (so that deduplication finds repeats,
//! including strings exactly as long as a reference), and maps with string
//! keys (so that shapes form).

use arbitrary::{Arbitrary, Result, Unstructured};
use surp::{Integer, Value};

// The bit-exact helpers of the property tests, shared rather than copied.
#[path = "../../surp/tests/common/mod.rs"]
mod common;

pub use common::{f64_from_f16_bits, f64_from_f32_bits, same_bits};

/// Deepest nesting an arbitrary value gets: well within the decoder's
/// default limit of 128.
pub const MAX_DEPTH: usize = 24;

/// Most items an arbitrary array or map gets, past the inline counts (15)
/// and the 1-byte count class (255).
const MAX_ITEMS: u32 = 300;

/// Strings that repeat: around the reference sizes (2, 3, 4 bytes), the
/// inline limit (31, 32) and the 1-byte length class.
const POOL: [&str; 10] = [
    "",
    "a",
    "id",
    "key",
    "name",
    "created_at",
    "é€😀",
    "0123456789012345678901234567890",
    "01234567890123456789012345678901",
    "a string past the one-byte length class of two hundred and fifty-five bytes, \
     repeated so that references save the most; a string past the one-byte length \
     class of two hundred and fifty-five bytes, repeated so that references save the \
     most; and a little more",
];

/// A `surp::Value` the fuzzer builds from its bytes.
#[derive(Clone, Debug)]
pub struct ArbValue(pub Value);

impl<'a> Arbitrary<'a> for ArbValue {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        value(u, MAX_DEPTH).map(ArbValue)
    }
}

fn value(u: &mut Unstructured<'_>, depth: usize) -> Result<Value> {
    let kinds = if depth == 0 { 6 } else { 8 };
    Ok(match u.int_in_range(0..=kinds)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Integer(integer(u)?),
        3 => Value::Float(float(u)?),
        4 => Value::String(string(u)?),
        5 => Value::Bytes(bytes(u)?),
        6 => Value::String(POOL[u.choose_index(POOL.len())?].to_owned()),
        7 => {
            let n = u.int_in_range(0..=MAX_ITEMS)?;
            let mut items = Vec::new();
            for _ in 0..n {
                if u.is_empty() {
                    break;
                }
                items.push(value(u, depth - 1)?);
            }
            Value::Array(items)
        }
        _ => {
            let n = u.int_in_range(0..=MAX_ITEMS)?;
            let string_keys: bool = u.arbitrary()?;
            let mut entries = Vec::new();
            for _ in 0..n {
                if u.is_empty() {
                    break;
                }
                let key = if string_keys {
                    Value::String(POOL[u.choose_index(POOL.len())?].to_owned())
                } else {
                    value(u, depth - 1)?
                };
                entries.push((key, value(u, depth - 1)?));
            }
            Value::Map(entries)
        }
    })
}

fn integer(u: &mut Unstructured<'_>) -> Result<Integer> {
    Ok(match u.int_in_range(0..=4)? {
        0 => Integer::from(u.arbitrary::<i8>()?),
        1 => Integer::from(u.arbitrary::<i64>()?),
        2 => Integer::from(u.arbitrary::<u64>()?),
        3 => Integer::from(u.arbitrary::<i128>()?),
        _ => Integer::from(u.arbitrary::<u128>()?),
    })
}

/// Floats that narrow to binary16, to binary32, or not at all, including
/// every NaN payload.
fn float(u: &mut Unstructured<'_>) -> Result<f64> {
    Ok(match u.int_in_range(0..=2)? {
        0 => f64_from_f16_bits(u.arbitrary()?),
        1 => f64_from_f32_bits(u.arbitrary()?),
        _ => f64::from_bits(u.arbitrary()?),
    })
}

/// Copies that take a non-empty string or byte string of `len` bytes past
/// the 1-byte length class (255), without making every input slow.
fn long_copies(u: &mut Unstructured<'_>, len: usize) -> Result<usize> {
    Ok(if u.ratio(1, 16)? {
        256 / len.max(1) + 1
    } else {
        1
    })
}

fn string(u: &mut Unstructured<'_>) -> Result<String> {
    let s: String = u.arbitrary()?;
    let copies = long_copies(u, s.len())?;
    Ok(s.repeat(copies))
}

fn bytes(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let b: Vec<u8> = u.arbitrary()?;
    let copies = long_copies(u, b.len())?;
    Ok(b.repeat(copies))
}

/// A [`Value`] serialized with every array and map of unknown length
/// (`serialize_seq(None)`, `serialize_map(None)`), as iterators and
/// `#[serde(flatten)]` give them. The encoders must write the same bytes as
/// for the known-length form: the count goes in the header either way.
pub struct UnknownLengths<'a>(pub &'a Value);

impl serde::Serialize for UnknownLengths<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self.0 {
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(None)?;
                for item in items {
                    seq.serialize_element(&UnknownLengths(item))?;
                }
                seq.end()
            }
            Value::Map(entries) => {
                let mut map = serializer.serialize_map(None)?;
                for (k, v) in entries {
                    map.serialize_entry(&UnknownLengths(k), &UnknownLengths(v))?;
                }
                map.end()
            }
            other => other.serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_lengths_encode_like_known_lengths() {
        let record = |i: i64| {
            Value::Map(vec![
                (Value::String("id".into()), Value::Integer(i.into())),
                (
                    Value::String("tags".into()),
                    Value::Array(vec![Value::String("a".into()); 3]),
                ),
            ])
        };
        let mut value = Value::Array((0..40).map(record).collect());
        for _ in 0..30 {
            value = Value::Array(vec![value, Value::Null]);
        }
        let unknown = UnknownLengths(&value);
        assert_eq!(
            surp::to_vec(&unknown).unwrap(),
            surp::to_vec(&value).unwrap()
        );
        assert_eq!(
            surp_dedup::to_vec(&unknown).unwrap(),
            surp_dedup::to_vec(&value).unwrap()
        );
    }
}
