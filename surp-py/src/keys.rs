//! A cache of the `str` objects made for dict keys while decoding.
//!
//! Documents repeat their keys: every record of an array of objects carries
//! the same few names. Making a new `str` for each costs an allocation, a
//! UTF-8 decode, and a siphash when the dict is filled; handing out the same
//! object again costs a reference count, and its hash is already cached.
//! Python strings are immutable, so sharing them is invisible to callers.
//! Measured with callgrind when it was added, one `loads` of the ci-scale
//! small_objects dataset and the freeing of its result went from 38.3M
//! instructions to 27.0M (msgpack's C unpacker, which interns keys: 43.7M).
//!
//! The cache is direct-mapped (each key has one slot, chosen by a hash of
//! its bytes; a newcomer replaces the slot's old key), holds short keys
//! only, and lives for the whole process, so keys are shared across `loads`
//! calls too. It is bounded: [`SLOTS`] strings of at most [`MAX_KEY_BYTES`]
//! bytes.

use std::hash::BuildHasher;
use std::sync::{Mutex, MutexGuard, TryLockError};

use pyo3::prelude::*;

/// The number of slots (a power of two).
const SLOTS: usize = 2048;

/// Longer keys are not cached: they rarely repeat, and comparing them costs
/// more than it saves.
const MAX_KEY_BYTES: usize = 64;

/// The process-wide cache; empty until the first `loads`.
static CACHE: Mutex<KeyCache> = Mutex::new(KeyCache { slots: Vec::new() });

/// Cached key strings, with their UTF-8 bytes for the comparison.
pub(crate) struct KeyCache {
    slots: Vec<Option<CachedKey>>,
}

struct CachedKey {
    bytes: Box<[u8]>,
    string: Py<PyAny>,
}

impl KeyCache {
    /// The cache, unless it is in use: a `loads` called again while one is
    /// running (from a finalizer run by the garbage collector) decodes
    /// without it rather than wait for itself.
    pub(crate) fn lock() -> Option<MutexGuard<'static, KeyCache>> {
        match CACHE.try_lock() {
            Ok(guard) => Some(guard),
            // A panic while the cache was held leaves nothing half-written
            // that matters: every slot is a whole key or empty.
            Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    /// The `str` for the UTF-8 bytes `text`: the cached object when there
    /// is one, else what `make` makes of them (a `str`, or the error), which
    /// is cached when it is short.
    #[inline]
    pub(crate) fn get<'py, E>(
        &mut self,
        py: Python<'py>,
        text: &[u8],
        make: impl FnOnce(&[u8]) -> Result<Bound<'py, PyAny>, E>,
    ) -> Result<Bound<'py, PyAny>, E> {
        if text.len() > MAX_KEY_BYTES {
            return make(text);
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, || None);
        }
        let index = foldhash::fast::FixedState::default().hash_one(text) as usize;
        let slot = &mut self.slots[index & (SLOTS - 1)];
        if let Some(cached) = slot
            && same_bytes(&cached.bytes, text)
        {
            return Ok(cached.string.bind(py).clone());
        }
        let string = make(text)?;
        *slot = Some(CachedKey {
            bytes: text.into(),
            string: string.clone().unbind(),
        });
        Ok(string)
    }
}

/// Whether two short byte strings are equal: compared in 8-byte words
/// (the last one overlapping), which for keys beats a call to `memcmp`.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap());
    if n >= 8 {
        let mut at = 0;
        while at + 8 < n {
            if word(a, at) != word(b, at) {
                return false;
            }
            at += 8;
        }
        return word(a, n - 8) == word(b, n - 8);
    }
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap());
    if n >= 4 {
        return half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::same_bytes;

    #[test]
    fn same_bytes_is_slice_equality_at_every_length() {
        let text: Vec<u8> = (0..70u8).collect();
        for n in 0..=text.len() {
            let a = &text[..n];
            assert!(same_bytes(a, a));
            assert!(!same_bytes(a, &text[..n.saturating_sub(1)]) || n == 0);
            for flip in 0..n {
                let mut b = a.to_vec();
                b[flip] ^= 0x20;
                assert!(!same_bytes(a, &b), "length {n}, byte {flip}");
            }
        }
    }
}
