//! Input sources for the decoder: a slice it can borrow from, or a reader it
//! must buffer.
//!
//! The deserializer is generic over [`Read`], so one decoder serves both. The
//! slice path hands out `&'de` references into the input (Surp never escapes
//! strings, so borrowing always works). The reader path copies payloads into
//! a scratch buffer that grows only as bytes actually arrive, never from a
//! length the input merely claims.

use crate::error::{Error, ErrorKind, Result};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::wire;

/// A payload just read: its position in the input and its length.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Span {
    pub(crate) start: usize,
    pub(crate) len: usize,
}

/// A string kept by [`Read::remember_str`] for deduplication references:
/// where the input keeps it and its length in bytes. It is a handle, not
/// always a position in the input: a slice keeps the string's offset in
/// the slice, a reader an offset into the bytes it copied, and a session's
/// input an offset into the copies its tables own.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Kept {
    pub(crate) at: usize,
    pub(crate) len: usize,
}

/// Bytes either borrowed from the input for `'de` or copied into a buffer
/// that lives for `'s`.
pub enum Reference<'de, 's, T: ?Sized> {
    /// Borrowed from the input.
    Borrowed(&'de T),
    /// Copied into the reader's buffer.
    Copied(&'s T),
}

impl<T: ?Sized> core::ops::Deref for Reference<'_, '_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Reference::Borrowed(b) => b,
            Reference::Copied(c) => c,
        }
    }
}

mod private {
    pub trait Sealed {}

    /// A value only this crate can make: [`Read::recall_str`](super::Read::recall_str)
    /// takes one, so no code outside the crate can call it. (The trait's
    /// methods are public to any caller, sealed or not, and a slice's
    /// `recall_str` trusts its handle: given one from another reader, safe
    /// code could read outside the slice or make a `&str` of invalid UTF-8.)
    pub struct Recall(());

    /// The crate's one [`Recall`].
    pub(crate) const RECALL: Recall = Recall(());
}

pub(crate) use private::RECALL;

/// An input the [`Deserializer`](crate::Deserializer) can decode from.
///
/// This trait is sealed: it is implemented by [`SliceRead`] and [`IoRead`]
/// only, and its methods are not part of the public API. The one whose
/// misuse could break memory safety, taking back a string kept for
/// deduplication references, cannot be called from outside the crate:
///
/// ```compile_fail,E0603
/// use surp::read::{Read, SliceRead};
///
/// let mut a = SliceRead::new(b"abcdefgh");
/// let span = a.fill(8).unwrap();
/// let kept = a.remember_str(span).unwrap();
/// let b = SliceRead::new(&[0xff]);
/// // A handle from another reader: refused, as the token is private.
/// let _ = b.recall_str(kept, surp::read::RECALL);
/// ```
pub trait Read<'de>: private::Sealed {
    /// Offset of the next unread byte.
    #[doc(hidden)]
    fn offset(&self) -> usize;

    /// The next byte, without consuming it; `None` at the end of input.
    #[doc(hidden)]
    fn peek(&mut self) -> Result<Option<u8>>;

    /// Consumes and returns the next byte.
    #[doc(hidden)]
    fn next_u8(&mut self) -> Result<u8>;

    /// Consumes `width` (1 to 8) bytes and reads them as a little-endian integer.
    #[doc(hidden)]
    fn read_le(&mut self, width: usize) -> Result<u64>;

    /// Consumes `buf.len()` bytes into `buf`.
    #[doc(hidden)]
    fn read_into(&mut self, buf: &mut [u8]) -> Result<()>;

    /// Consumes exactly `N` bytes.
    #[doc(hidden)]
    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut buf = [0u8; N];
        self.read_into(&mut buf)?;
        Ok(buf)
    }

    /// How many bytes are left, when the input knows.
    #[doc(hidden)]
    fn remaining(&self) -> Option<usize>;

    /// Consumes a payload of `len` bytes.
    #[doc(hidden)]
    fn fill(&mut self, len: usize) -> Result<Span>;

    /// Consumes a payload of `len` bytes and returns it: `fill` and
    /// `payload` in one, with one bounds check on a slice.
    #[doc(hidden)]
    fn take(&mut self, len: usize) -> Result<Reference<'de, '_, [u8]>>;

    /// The bytes of the payload `fill` just consumed.
    #[doc(hidden)]
    fn payload(&self, span: Span) -> Reference<'de, '_, [u8]>;

    /// Skips `len` bytes.
    #[doc(hidden)]
    fn skip(&mut self, len: usize) -> Result<()>;

    /// If the next value is `name` as an inline-length string
    /// (`FIXSTR..=FIXSTR_LAST`), consumes it and says so; otherwise consumes
    /// nothing. A reader, which cannot look ahead, never matches.
    #[doc(hidden)]
    #[inline]
    fn eat_name(&mut self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// If the next `len` bytes (1 to 16) are the low `len` bytes of `word`
    /// (little-endian) and at least sixteen bytes are in the buffer,
    /// consumes the `len` and says so; otherwise consumes nothing. A field name
    /// written as an inline string, tag and text, compared in one load
    /// ([`eat_name`](Read::eat_name) for any name). A reader never matches.
    #[doc(hidden)]
    #[inline]
    fn eat_word(&mut self, word: u128, len: usize) -> bool {
        let _ = (word, len);
        false
    }

    /// If the next byte is `tag` and the four after it are in the buffer,
    /// consumes all five and returns the four; otherwise consumes nothing.
    /// The fast path of a binary32 value: a reader, which cannot look
    /// ahead, never matches.
    #[doc(hidden)]
    #[inline]
    fn eat_tagged4(&mut self, tag: u8) -> Option<[u8; 4]> {
        let _ = tag;
        None
    }

    /// [`eat_tagged4`](Read::eat_tagged4) for the eight bytes of a binary64
    /// value.
    #[doc(hidden)]
    #[inline]
    fn eat_tagged8(&mut self, tag: u8) -> Option<[u8; 8]> {
        let _ = tag;
        None
    }

    /// If the next value is an unsigned integer (`FIXUINT..=FIXUINT_MAX` or
    /// `UINT1..=UINT_LAST`) and the buffer holds eight bytes past its tag,
    /// consumes it and returns it; otherwise consumes nothing. The fast
    /// path of an unsigned integer: a reader, which cannot look ahead,
    /// never matches.
    #[doc(hidden)]
    #[inline]
    fn eat_uint(&mut self) -> Option<u64> {
        None
    }

    /// Keeps the string payload `fill` just consumed for later
    /// deduplication references, returning where it was kept. Its UTF-8 is
    /// validated here, once: a reference to it never validates again.
    #[doc(hidden)]
    fn remember_str(&mut self, span: Span) -> Result<Kept>;

    /// A string kept by this reader's `remember_str`. Only the crate can
    /// call it (`private::Recall`): a slice takes the handle's range back
    /// unchecked.
    #[doc(hidden)]
    fn recall_str(&self, kept: Kept, _: private::Recall) -> Reference<'de, '_, str>;

    /// Drops every string kept by `remember_str`: a document's tables end
    /// with it.
    #[doc(hidden)]
    fn forget(&mut self);

    /// Looks past a payload of `len > probe` bytes, too long to hold:
    /// returns whether the input has more than `probe` bytes left. A reader
    /// reads (and drops) at most `probe + 1` bytes to find out, so a slice
    /// and a reader answer alike.
    #[doc(hidden)]
    fn skip_probe(&mut self, len: usize, probe: usize) -> Result<bool>;
}

/// Validates a string payload kept for references (with the decoder's fast
/// path for short ASCII strings); `at` is where it starts.
#[inline]
fn kept_utf8(bytes: &[u8], at: usize) -> Result<&str> {
    crate::utf8::utf8(bytes, at)
}

/// Whether two short byte strings are equal: for up to 32 bytes, two
/// overlapping loads from each, of the widest size that fits. `==` on
/// slices calls `memcmp`, which costs more than the whole comparison of a
/// field name.
#[inline(always)]
fn same_short(a: &[u8], b: &[u8]) -> bool {
    #[inline(always)]
    fn load<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
        *s[at..].first_chunk::<N>().expect("the length was matched")
    }
    let n = a.len();
    if b.len() != n {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => load::<4>(a, 0) == load::<4>(b, 0) && load::<4>(a, n - 4) == load::<4>(b, n - 4),
        8..=16 => load::<8>(a, 0) == load::<8>(b, 0) && load::<8>(a, n - 8) == load::<8>(b, n - 8),
        17..=32 => {
            load::<16>(a, 0) == load::<16>(b, 0) && load::<16>(a, n - 16) == load::<16>(b, n - 16)
        }
        _ => a == b,
    }
}

#[cfg(feature = "std")]
mod io;
mod session;
#[cfg(feature = "std")]
pub use io::IoRead;
pub(crate) use session::{OwnedStrings, SessionRead};

/// Decoding input borrowed from a byte slice.
pub struct SliceRead<'de> {
    /// Never changes: a kept string is a range of it (see `recall_str`).
    data: &'de [u8],
    pos: usize,
}

impl<'de> SliceRead<'de> {
    /// Reads from `data`.
    pub fn new(data: &'de [u8]) -> Self {
        SliceRead::at(data, 0)
    }

    /// Reads from `data`, starting at `pos` (at most its length): offsets
    /// still count from the start of `data`.
    pub(crate) fn at(data: &'de [u8], pos: usize) -> Self {
        SliceRead {
            data,
            pos: pos.min(data.len()),
        }
    }

    /// The bytes not read yet.
    ///
    /// Every read takes its bytes from here and checks only its own length
    /// against them. `pos` never passes the end of `data` (each read moves
    /// it over bytes this returned), so the slicing cannot fail; checking
    /// `pos..pos + len` as one range instead costs an overflow test and a
    /// second comparison on every read.
    #[inline(always)]
    pub(crate) fn rest(&self) -> &'de [u8] {
        &self.data[self.pos..]
    }

    #[cold]
    fn eof(&self) -> Error {
        Error::new(ErrorKind::UnexpectedEof, self.data.len())
    }
}

impl private::Sealed for SliceRead<'_> {}

impl<'de> Read<'de> for SliceRead<'de> {
    #[inline]
    fn offset(&self) -> usize {
        self.pos
    }

    #[inline]
    fn peek(&mut self) -> Result<Option<u8>> {
        Ok(self.data.get(self.pos).copied())
    }

    #[inline]
    fn next_u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof()),
        }
    }

    #[inline(always)]
    fn read_le(&mut self, width: usize) -> Result<u64> {
        debug_assert!((1..=8).contains(&width));
        // Fast path: one unaligned 8-byte load, masked to the width.
        if let Some(chunk) = self.rest().first_chunk::<8>() {
            let word = u64::from_le_bytes(*chunk);
            self.pos += width;
            let shift = (8 - width) * 8;
            return Ok((word << shift) >> shift);
        }
        match self.rest().get(..width) {
            Some(bytes) => {
                self.pos += width;
                Ok(wire::le_u64(bytes))
            }
            None => Err(self.eof()),
        }
    }

    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.rest().first_chunk::<N>() {
            Some(bytes) => {
                self.pos += N;
                Ok(*bytes)
            }
            None => Err(self.eof()),
        }
    }

    #[inline]
    fn read_into(&mut self, buf: &mut [u8]) -> Result<()> {
        match self.rest().get(..buf.len()) {
            Some(bytes) => {
                buf.copy_from_slice(bytes);
                self.pos += buf.len();
                Ok(())
            }
            None => Err(self.eof()),
        }
    }

    #[inline]
    fn remaining(&self) -> Option<usize> {
        Some(self.data.len() - self.pos)
    }

    #[inline]
    fn fill(&mut self, len: usize) -> Result<Span> {
        if len > self.data.len() - self.pos {
            return Err(self.eof());
        }
        let span = Span {
            start: self.pos,
            len,
        };
        self.pos += len;
        Ok(span)
    }

    #[inline]
    fn payload(&self, span: Span) -> Reference<'de, '_, [u8]> {
        Reference::Borrowed(&self.data[span.start..span.start + span.len])
    }

    #[inline]
    fn take(&mut self, len: usize) -> Result<Reference<'de, '_, [u8]>> {
        match self.rest().get(..len) {
            Some(bytes) => {
                self.pos += len;
                Ok(Reference::Borrowed(bytes))
            }
            None => Err(self.eof()),
        }
    }

    #[inline]
    fn skip(&mut self, len: usize) -> Result<()> {
        self.fill(len).map(drop)
    }

    #[inline(always)]
    fn eat_name(&mut self, name: &str) -> bool {
        let name = name.as_bytes();
        let len = name.len();
        if len > wire::FIXSTR_MAX_LEN {
            return false;
        }
        let Some((&tag, payload)) = self.rest().split_first() else {
            return false;
        };
        let Some(key) = payload.get(..len) else {
            return false;
        };
        if tag != wire::FIXSTR | len as u8 || !same_short(name, key) {
            return false;
        }
        self.pos += 1 + len;
        true
    }

    #[inline(always)]
    fn eat_word(&mut self, word: u128, len: usize) -> bool {
        let Some(chunk) = self.rest().first_chunk::<16>() else {
            return false;
        };
        let (lo, hi) = chunk.split_at(8);
        let lo = u64::from_le_bytes(lo.try_into().expect("8 of 16")) ^ word as u64;
        let matched = if len <= 8 {
            lo & (u64::MAX >> (64 - 8 * len)) == 0
        } else {
            let hi = u64::from_le_bytes(hi.try_into().expect("8 of 16")) ^ (word >> 64) as u64;
            lo | (hi & (u64::MAX >> (128 - 8 * len))) == 0
        };
        if !matched {
            return false;
        }
        self.pos += len;
        true
    }

    #[inline(always)]
    fn eat_tagged4(&mut self, tag: u8) -> Option<[u8; 4]> {
        let &[first, a, b, c, d] = self.rest().first_chunk::<5>()?;
        if first != tag {
            return None;
        }
        self.pos += 5;
        Some([a, b, c, d])
    }

    #[inline(always)]
    fn eat_tagged8(&mut self, tag: u8) -> Option<[u8; 8]> {
        let &[first, a, b, c, d, e, f, g, h] = self.rest().first_chunk::<9>()?;
        if first != tag {
            return None;
        }
        self.pos += 9;
        Some([a, b, c, d, e, f, g, h])
    }

    #[inline(always)]
    fn eat_uint(&mut self) -> Option<u64> {
        // The tag and an 8-byte load masked to the width, as `read_le`
        // reads.
        let &[tag, ref word @ ..] = self.rest().first_chunk::<9>()?;
        if tag <= wire::FIXUINT_MAX {
            self.pos += 1;
            return Some(u64::from(tag));
        }
        if !(wire::UINT1..=wire::UINT_LAST).contains(&tag) {
            return None;
        }
        let width = wire::int_width(tag);
        self.pos += 1 + width;
        let shift = (8 - width) * 8;
        Some((u64::from_le_bytes(*word) << shift) >> shift)
    }

    /// A slice keeps nothing: its kept string is the validated range of
    /// the input itself, which `recall_str` takes again.
    #[inline]
    fn remember_str(&mut self, span: Span) -> Result<Kept> {
        let data: &'de [u8] = self.data;
        kept_utf8(&data[span.start..span.start + span.len], span.start)?;
        Ok(Kept {
            at: span.start,
            len: span.len,
        })
    }

    /// The range of the input that `remember_str` validated, as a string,
    /// without validating it again or checking its bounds: a reference
    /// then costs one table load, where a list of validated `&str` cost a
    /// second dependent load per reference and memory per kept string, and
    /// the checks' panic paths cost every deduplicated decode more
    /// instructions (measured in `docs/spec.md`, design notes).
    #[inline]
    #[allow(unsafe_code)]
    fn recall_str(&self, kept: Kept, _: private::Recall) -> Reference<'de, '_, str> {
        let data: &'de [u8] = self.data;
        let range = kept.at..kept.at + kept.len;
        // Checked again in debug builds (the UTF-8 only when short: a
        // document may reference one long string many times).
        debug_assert!(range.end <= data.len(), "a kept string is in the input");
        debug_assert!(
            kept.len > 64 || core::str::from_utf8(&data[range.clone()]).is_ok(),
            "a kept string is valid UTF-8"
        );
        // SAFETY: `range` is a range of `data` whose bytes are valid UTF-8.
        // A slice decoder's tables hold only the handles its own
        // `remember_str` returned (`de/dedup.rs`, the one caller that fills
        // them from a reader; tables filled elsewhere, a session's, can be
        // lent only to a decoder over a `SessionRead`: `begin_with_tables`
        // exists for no other input, `de/document.rs`); no code outside the
        // crate can call this (`private::Recall`), so none can hand it a
        // handle from another reader; and `remember_str` returns a handle
        // only for a range of `data` that `kept_utf8` accepted. `data` never
        // changes after the reader is made, so that range is still in it
        // and still the same bytes. Tests: `surp-dedup/tests/slice_recall.rs`.
        Reference::Borrowed(unsafe { core::str::from_utf8_unchecked(data.get_unchecked(range)) })
    }

    /// Nothing to drop: a slice's kept strings are the input.
    fn forget(&mut self) {}

    fn skip_probe(&mut self, _len: usize, probe: usize) -> Result<bool> {
        Ok(self.data.len() - self.pos > probe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_short_finds_every_differing_byte_at_every_length() {
        let a: Vec<u8> = (b'a'..).take(40).collect();
        for n in 0..=40 {
            assert!(same_short(&a[..n], &a[..n]), "{n}");
            if n < 40 {
                assert!(
                    !same_short(&a[..n], &a[..n + 1]),
                    "lengths {n} and {}",
                    n + 1
                );
            }
            for i in 0..n {
                let mut b = a[..n].to_vec();
                b[i] ^= 0x80;
                assert!(!same_short(&a[..n], &b), "length {n}, byte {i}");
            }
        }
    }

    #[test]
    fn eat_name_takes_exactly_the_inline_string_of_the_name() {
        let name = "latency_us";
        let mut input = vec![wire::FIXSTR | 10];
        input.extend_from_slice(name.as_bytes());
        input.push(wire::TRUE);
        let mut read = SliceRead::new(&input);
        assert!(read.eat_name(name));
        assert_eq!(read.offset(), 11);
        // Another name, a prefix, a truncated payload, another tag and the
        // end of input consume nothing.
        for (bytes, name) in [
            (&input[..], "latency_ms"),
            (&input[..], "latency"),
            (&input[..8], name),
            (&[wire::FIXARRAY | 1, b'x'][..], "x"),
            (&[][..], ""),
        ] {
            let mut read = SliceRead::new(bytes);
            assert!(!read.eat_name(name), "{bytes:?} {name:?}");
            assert_eq!(read.offset(), 0);
        }
        // The empty name is one byte, and a name too long for the inline
        // form never matches (its string has a length byte).
        let mut read = SliceRead::new(&[wire::FIXSTR]);
        assert!(read.eat_name(""));
        let long = "a_field_name_of_thirty_two_bytes";
        let mut input = vec![wire::STR8, 32];
        input.extend_from_slice(long.as_bytes());
        assert!(!SliceRead::new(&input).eat_name(long));
    }

    #[test]
    fn eat_word_takes_exactly_the_low_bytes_when_sixteen_are_there() {
        // "latency_us" as an inline string: 11 bytes, in both halves.
        let mut input = vec![wire::FIXSTR | 10];
        input.extend_from_slice(b"latency_us");
        let word = input
            .iter()
            .enumerate()
            .fold(0u128, |w, (k, &b)| w | u128::from(b) << (8 * k));
        input.extend_from_slice(&[wire::TRUE; 5]);
        let mut read = SliceRead::new(&input);
        assert!(read.eat_word(word, 11));
        assert_eq!(read.offset(), 11);
        // A difference in any byte of the eleven, in either half, consumes
        // nothing; one in the bytes after them is not looked at.
        for at in 0..16 {
            let mut other = input.clone();
            other[at] ^= 0x20;
            let mut read = SliceRead::new(&other);
            assert_eq!(read.eat_word(word, 11), at >= 11, "{at}");
            assert_eq!(read.offset(), if at >= 11 { 11 } else { 0 });
        }
        // A short word in the low half: the tag and two bytes.
        let mut read = SliceRead::new(&input);
        assert!(read.eat_word(word & 0xff_ffff, 3));
        assert!(!SliceRead::new(&input).eat_word(word & 0xff_ff00, 3));
        // With fewer than sixteen bytes left, nothing is compared.
        let mut read = SliceRead::new(&input[..15]);
        assert!(!read.eat_word(word, 11));
        assert_eq!(read.offset(), 0);
    }
}
