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
use pyo3::types::PyString;

use crate::de::new_str;

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
    string: Py<PyString>,
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

    /// The `str` for `text`: the cached object when there is one. Out of
    /// memory is the Python exception.
    #[inline]
    pub(crate) fn get<'py>(
        &mut self,
        py: Python<'py>,
        text: &str,
    ) -> PyResult<Bound<'py, PyString>> {
        if text.len() > MAX_KEY_BYTES {
            return new_str(py, text);
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, || None);
        }
        let index = foldhash::fast::FixedState::default().hash_one(text.as_bytes()) as usize;
        let slot = &mut self.slots[index & (SLOTS - 1)];
        if let Some(cached) = slot
            && *cached.bytes == *text.as_bytes()
        {
            return Ok(cached.string.bind(py).clone());
        }
        let string = new_str(py, text)?;
        *slot = Some(CachedKey {
            bytes: text.as_bytes().into(),
            string: string.clone().unbind(),
        });
        Ok(string)
    }
}
