//! Validating string payloads, with a fast path for the short ASCII
//! strings that most documents are made of.

use core::str;

use crate::error::{Error, ErrorKind, Result};

/// Whether every byte is below 0x80. Keys and short values are a few bytes
/// long, where `<[u8]>::is_ascii` loops byte by byte; two overlapping word
/// loads check up to 16 bytes at once.
#[inline(always)]
fn is_ascii(bytes: &[u8]) -> bool {
    let n = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    match n {
        0 => true,
        1..=3 => (bytes[0] | bytes[n / 2] | bytes[n - 1]) < 0x80,
        4..=7 => (half(0) | half(n - 4)) & 0x8080_8080 == 0,
        8..=16 => (word(0) | word(n - 8)) & 0x8080_8080_8080_8080 == 0,
        _ => is_ascii_long(bytes),
    }
}

/// [`is_ascii`] of more than 16 bytes: the high bits of every 8-byte word
/// gathered without a branch, the last word overlapping the one before.
/// `<[u8]>::is_ascii` ends with a byte-by-byte loop over up to 63 bytes,
/// which makes strings of a few dozen bytes (user agents, URLs) slow to check.
fn is_ascii_long(bytes: &[u8]) -> bool {
    let (words, _) = bytes.as_chunks::<8>();
    let last = bytes
        .last_chunk::<8>()
        .map_or(0, |w| u64::from_le_bytes(*w));
    let high = words
        .iter()
        .fold(last, |acc, w| acc | u64::from_le_bytes(*w));
    high & 0x8080_8080_8080_8080 == 0
}

/// Validates a string payload; `offset` is where it starts, for the error.
///
/// Always inlined: the ASCII test of a short key is a few instructions, less
/// than the call was; everything else goes to [`utf8_slow`].
#[inline(always)]
pub(crate) fn utf8(bytes: &[u8], offset: usize) -> Result<&str> {
    if bytes.len() <= 16 && is_ascii(bytes) {
        // SAFETY: every byte is below 0x80, and a sequence of ASCII bytes is
        // valid UTF-8. This skips `str::from_utf8`'s per-call setup, which
        // dominates on the short strings (keys, names) that most documents are
        // made of; tests in this module cover ASCII, non-ASCII and invalid
        // payloads of every length up to 64.
        #[allow(unsafe_code)]
        return Ok(unsafe { str::from_utf8_unchecked(bytes) });
    }
    utf8_slow(bytes, offset)
}

/// Long strings, and short ones with non-ASCII bytes; also [`utf8`] without
/// the inlined fast path, for call sites where inlining it costs more than
/// the call (a deduplicated document's keys taken from shapes).
#[inline(never)]
pub(super) fn utf8_slow(bytes: &[u8], offset: usize) -> Result<&str> {
    if is_ascii(bytes) {
        // SAFETY: as in `utf8`: ASCII bytes are valid UTF-8.
        #[allow(unsafe_code)]
        return Ok(unsafe { str::from_utf8_unchecked(bytes) });
    }
    str::from_utf8(bytes).map_err(|e| Error::new(ErrorKind::InvalidUtf8, offset + e.valid_up_to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `utf8` takes an unchecked fast path for ASCII; it must agree with
    /// `str::from_utf8` on every input, including invalid bytes at every
    /// position of payloads of every length the fast path sees in practice.
    #[test]
    fn utf8_fast_path_agrees_with_the_standard_library() {
        let samples: [&[u8]; 6] = [
            b"a",
            "\u{e9}".as_bytes(),
            "\u{20ac}".as_bytes(),
            "\u{1f600}".as_bytes(),
            &[0xff],
            &[0xc3],
        ];
        for len in 0..=64 {
            for sample in samples {
                for at in 0..=len {
                    let mut bytes = vec![b'x'; len];
                    bytes.splice(at.min(len)..at.min(len), sample.iter().copied());
                    let expected = str::from_utf8(&bytes).map_err(|e| e.valid_up_to());
                    let actual = utf8(&bytes, 100).map_err(|e| e.offset().unwrap() - 100);
                    assert_eq!(actual, expected, "{bytes:02x?}");
                }
            }
        }
    }

    #[test]
    fn invalid_utf8_reports_the_offset_of_the_bad_byte() {
        let err = crate::from_slice::<&str>(b"\x83a\xffb").unwrap_err();
        assert_eq!(*err.kind(), ErrorKind::InvalidUtf8);
        assert_eq!(err.offset(), Some(2));
    }
}
