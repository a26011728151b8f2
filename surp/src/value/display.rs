//! A readable diagnostic notation for [`Value`], in the spirit of CBOR's
//! diagnostic notation: JSON-like, plus `h'..'` for byte strings and
//! non-string map keys.

use core::fmt::{self, Display, Write};

use super::Value;
#[allow(unused_imports)]
use crate::prelude::*;

/// Formats a value on one line: `{"id": 7, "raw": h'00ff', 1: [1.5, null]}`.
///
/// Floats always show a fraction or exponent (`1.0`, `NaN`, `-Infinity`) so
/// they stay apart from integers; strings use Rust's escapes.
impl Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Integer(i) => write!(f, "{i}"),
            Value::Float(x) if x.is_nan() => f.write_str("NaN"),
            Value::Float(x) if x.is_infinite() => {
                f.write_str(if *x > 0.0 { "Infinity" } else { "-Infinity" })
            }
            Value::Float(x) => write!(f, "{x:?}"),
            Value::String(s) => write!(f, "{s:?}"),
            Value::Bytes(b) => {
                f.write_str("h'")?;
                for byte in b {
                    write!(f, "{byte:02x}")?;
                }
                f.write_char('\'')
            }
            Value::Array(items) => {
                f.write_char('[')?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    Display::fmt(item, f)?;
                }
                f.write_char(']')
            }
            Value::Map(entries) => {
                f.write_char('{')?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_char('}')
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_readable_form() {
        let v: Value = vec![
            (Value::from("s"), Value::from("a\"b")),
            (Value::from(1), Value::from(vec![0u8, 255])),
            (
                Value::from("f"),
                Value::from(vec![
                    Value::from(1.0),
                    Value::from(f64::NAN),
                    Value::from(f64::NEG_INFINITY),
                ]),
            ),
            (
                Value::from("n"),
                Value::from(vec![Value::Null, Value::from(true), Value::from(-3)]),
            ),
        ]
        .into();
        assert_eq!(
            v.to_string(),
            r#"{"s": "a\"b", 1: h'00ff', "f": [1.0, NaN, -Infinity], "n": [null, true, -3]}"#
        );
    }
}
