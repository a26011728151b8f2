//! Invalid UTF-8: an error at the first bad byte, wherever a string is.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use surp::{ErrorKind, Options, Value, wire};

use crate::{both, error_within};

/// Byte sequences that are not UTF-8.
const NOT_UTF8: [(&str, &[u8]); 12] = [
    ("overlong NUL", &[0xc0, 0x80]),
    ("overlong 2-byte form of 'A'", &[0xc1, 0x81]),
    ("overlong 3-byte form of '/'", &[0xe0, 0x80, 0xaf]),
    ("overlong 4-byte form of '/'", &[0xf0, 0x80, 0x80, 0xaf]),
    ("high surrogate", &[0xed, 0xa0, 0x80]),
    ("low surrogate", &[0xed, 0xbf, 0xbf]),
    ("truncated 2-byte sequence", &[0xc3]),
    ("truncated 3-byte sequence", &[0xe2, 0x82]),
    ("truncated 4-byte sequence", &[0xf0, 0x9f, 0x98]),
    ("lone continuation byte", &[0x80]),
    ("byte 0xff", &[0xff]),
    ("code point above U+10FFFF", &[0xf4, 0x90, 0x80, 0x80]),
];

/// A string of valid text, then `bad`, then more text; `long` uses a
/// length-prefixed header instead of the inline one. Returns the encoding and
/// the offset of the first invalid byte within it.
fn bad_string(bad: &[u8], long: bool) -> (Vec<u8>, usize) {
    let mut payload = b"ok".to_vec();
    payload.extend_from_slice(bad);
    if long {
        payload.extend_from_slice(&[b'x'; 40]);
    }
    let mut out = if payload.len() <= wire::FIXSTR_MAX_LEN {
        vec![wire::FIXSTR | payload.len() as u8]
    } else {
        vec![wire::STR8, payload.len() as u8]
    };
    let bad_at = out.len() + 2;
    out.extend_from_slice(&payload);
    (out, bad_at)
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
enum Variants {
    Unit,
    Newtype(u8),
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
pub(crate) struct Named {
    a: u8,
}

#[test]
fn invalid_utf8_is_an_error_at_the_first_bad_byte_wherever_a_string_is() {
    fn expect_utf8_error<T: DeserializeOwned + std::fmt::Debug>(
        what: &str,
        input: &[u8],
        bad_at: usize,
    ) {
        for result in both::<T>(&Options::new(), input) {
            let err = error_within(result, input);
            assert_eq!(*err.kind(), ErrorKind::InvalidUtf8, "{what}: {err}");
            assert_eq!(err.offset(), Some(bad_at), "{what}: {err}");
        }
    }
    for (name, bad) in NOT_UTF8 {
        for long in [false, true] {
            let (s, at) = bad_string(bad, long);
            let what = |place: &str| format!("{name} ({place}, long = {long})");
            expect_utf8_error::<Value>(&what("value"), &s, at);
            expect_utf8_error::<String>(&what("String"), &s, at);
            expect_utf8_error::<serde_json::Value>(&what("JSON value"), &s, at);
            expect_utf8_error::<Variants>(&what("unit variant name"), &s, at);

            let mut in_array = vec![0xa2, 0x00];
            in_array.extend_from_slice(&s);
            expect_utf8_error::<Value>(&what("array element"), &in_array, at + 2);
            expect_utf8_error::<(u8, String)>(&what("tuple field"), &in_array, at + 2);

            let mut as_key = vec![0xb1];
            as_key.extend_from_slice(&s);
            as_key.push(0x00);
            expect_utf8_error::<Value>(&what("map key"), &as_key, at + 1);
            expect_utf8_error::<BTreeMap<String, u8>>(&what("String key"), &as_key, at + 1);
            expect_utf8_error::<Named>(&what("field name"), &as_key, at + 1);
            expect_utf8_error::<Variants>(&what("variant name"), &as_key, at + 1);

            // Borrowed strings are checked too.
            let err = error_within(surp::from_slice::<&str>(&s), &s);
            assert_eq!(*err.kind(), ErrorKind::InvalidUtf8);
            assert_eq!(err.offset(), Some(at));
        }
    }
}

#[test]
fn a_char_must_be_one_valid_code_point() {
    let (s, at) = bad_string(&[0xed, 0xa0, 0x80], false);
    assert_eq!(
        *error_within(surp::from_slice::<char>(&s), &s).kind(),
        ErrorKind::InvalidUtf8
    );
    assert_eq!(surp::from_slice::<char>(&s).unwrap_err().offset(), Some(at));
    let two = surp::to_vec("ab").unwrap();
    error_within(surp::from_slice::<char>(&two), &two);
    let empty = surp::to_vec("").unwrap();
    error_within(surp::from_slice::<char>(&empty), &empty);
}
