//! Copies of long byte runs (blobs, long strings) between the input, the
//! output and Python objects.
//!
//! glibc's `memcpy` on x86-64 copies a run between its `rep movsb` threshold
//! (a few KiB by default; the tunable `glibc.cpu.x86_rep_movsb_threshold`)
//! and its non-temporal threshold with `rep movsb`, whose speed on some
//! processors depends on how the source and the destination are aligned
//! to each other. On the AMD EPYC machine of our benchmarks (glibc 2.36), a
//! copy of a few KiB to some hundreds where the destination sat 1 to 31
//! bytes past the source, modulo 64, took many times as long as one where
//! it sat 32 to 64 bytes past; with the threshold raised past the copy's
//! size, every alignment was fast. Where a blob lands in a document is
//! arbitrary, so a decoder that copies it out paid the slow rate on about
//! half of them, and so did an encoder copying it in. [`copy`] hands
//! `memcpy` pieces shorter than any default threshold instead, which it
//! copies with vector loads and stores, as fast whatever the alignment.

/// Runs of at least this many bytes are copied in pieces: glibc's smallest
/// default `rep movsb` threshold, from which on it is used.
const FROM: usize = 2048;

/// The size of those pieces: below every default threshold, and a
/// multiple of 64.
const PIECE: usize = 1984;

/// Runs of at least this many bytes are handed to `memcpy` whole: past
/// glibc's non-temporal threshold on most machines, where it does not use
/// `rep movsb`, and where its stores that bypass the cache pay off.
const WHOLE: usize = 1 << 20;

/// Whether [`copy`] copies a run of `len` bytes in pieces; `memcpy` takes
/// any other run whole.
#[inline(always)]
pub(crate) fn in_pieces(len: usize) -> bool {
    (FROM..WHOLE).contains(&len)
}

/// Copies `src` to `dst`.
///
/// # Safety
///
/// `dst` is valid for writes of `src.len()` bytes and does not overlap
/// `src`.
#[inline]
pub(crate) unsafe fn copy(src: &[u8], dst: *mut u8) {
    let n = src.len();
    if in_pieces(n) {
        // SAFETY: the caller's promise.
        unsafe { copy_in_pieces(src, dst) };
        return;
    }
    // SAFETY: the caller's promise.
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst, n) };
}

/// [`copy`] in pieces of [`PIECE`] bytes.
///
/// # Safety
///
/// As [`copy`].
#[inline(never)]
unsafe fn copy_in_pieces(src: &[u8], dst: *mut u8) {
    for (i, piece) in src.chunks(PIECE).enumerate() {
        // SAFETY: `piece` is `src[i * PIECE..][..piece.len()]`, and `dst`
        // is valid for writes of `src.len()` bytes that do not overlap
        // `src` (the caller's promise).
        unsafe { std::ptr::copy_nonoverlapping(piece.as_ptr(), dst.add(i * PIECE), piece.len()) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_and_offset_is_copied_whole() {
        let src: Vec<u8> = (0..(WHOLE + 3 * PIECE) as u32)
            .map(|i| (i * 7 + i / 251) as u8)
            .collect();
        let mut dst = vec![0u8; src.len() + 64];
        for len in [
            0,
            1,
            PIECE,
            FROM - 1,
            FROM,
            FROM + 1,
            3 * PIECE + 17,
            WHOLE - 1,
            WHOLE,
            WHOLE + 5,
        ] {
            for (from, to) in [(0, 0), (1, 0), (0, 31), (17, 40)] {
                dst.fill(0xaa);
                // SAFETY: `dst` has room for `len` bytes at `to` (it is 64
                // bytes longer than `src`), and is another allocation.
                unsafe { copy(&src[from..from + len], dst.as_mut_ptr().add(to)) };
                assert_eq!(&dst[to..to + len], &src[from..from + len], "len {len}");
                assert!(
                    dst[..to].iter().chain(&dst[to + len..]).all(|&b| b == 0xaa),
                    "len {len}"
                );
            }
        }
    }
}
