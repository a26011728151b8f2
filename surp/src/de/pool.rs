//! Storage that a thread's decoders pass on from one deduplicated document
//! to the next: the string and shape tables, and the slice reader's list
//! of kept strings.
//!
//! A deduplicated document of a few kilobytes needs tables of a kilobyte
//! or more. Allocated afresh for each document, they cost more than their
//! size suggests: in glibc, the first request of 1 KiB or more after many
//! small blocks were freed (the previous document's decoded value) first
//! merges all of those blocks (`malloc_consolidate`), and the value decoded
//! next then allocates from the merged memory, slower than from the blocks
//! it would have reused. On 9 KB pieces of `mixed_api_events` that made a
//! deduplicated decode 1.8x the time of a plain one; with glibc's fast bins
//! switched off (`GLIBC_TUNABLES=glibc.malloc.mxfast=0`), 1.1x.
//!
//! So ended tables and lists are kept, one of each per thread, emptied, and
//! the next document takes them. Only storage of at most
//! [`MAX_KEPT_ENTRIES`] entries per list is kept, so a thread holds at most
//! a few hundred kilobytes after a large document. Nothing is kept across
//! documents but capacity: every list is empty when it is taken. Without
//! the `std` feature there are no thread locals, and every document
//! allocates its own.

use super::tables::Dictionary;
#[allow(unused_imports)]
use crate::prelude::*;

/// The most entries a kept list may have room for.
pub(crate) const MAX_KEPT_ENTRIES: usize = 4096;

#[cfg(feature = "std")]
mod local {
    use core::cell::Cell;

    use super::Dictionary;

    std::thread_local! {
        pub(super) static DICTIONARY: Cell<Option<Dictionary>> = const { Cell::new(None) };
        pub(super) static KEPT: Cell<Vec<&'static str>> = const { Cell::new(Vec::new()) };
    }
}

/// Tables kept by an earlier document on this thread, emptied.
#[inline]
pub(crate) fn take_dictionary() -> Option<Dictionary> {
    #[cfg(feature = "std")]
    {
        local::DICTIONARY.try_with(|d| d.take()).ok().flatten()
    }
    #[cfg(not(feature = "std"))]
    {
        None
    }
}

/// Whether this thread keeps no tables now: ending tables give theirs.
#[inline]
pub(crate) fn wants_dictionary() -> bool {
    #[cfg(feature = "std")]
    {
        local::DICTIONARY
            .try_with(|d| {
                let kept = d.take();
                let empty = kept.is_none();
                d.set(kept);
                empty
            })
            .unwrap_or(false)
    }
    #[cfg(not(feature = "std"))]
    {
        false
    }
}

/// Keeps emptied tables for the next document on this thread.
pub(crate) fn give_back_dictionary(dict: Dictionary) {
    #[cfg(feature = "std")]
    {
        let _ = local::DICTIONARY.try_with(|d| d.set(Some(dict)));
    }
    #[cfg(not(feature = "std"))]
    drop(dict);
}

/// A list for the slice reader's kept strings: one kept by an earlier
/// document on this thread, emptied, or a new one.
#[inline]
pub(crate) fn take_kept<'de>() -> Vec<&'de str> {
    #[cfg(feature = "std")]
    {
        // `Vec<&'static str>` is a `Vec<&'de str>`.
        local::KEPT
            .try_with(core::cell::Cell::take)
            .unwrap_or_default()
    }
    #[cfg(not(feature = "std"))]
    {
        Vec::new()
    }
}

/// Keeps the slice reader's list, emptied, for the next document.
pub(crate) fn give_back_kept(mut kept: Vec<&str>) {
    if kept.capacity() == 0 || kept.capacity() > MAX_KEPT_ENTRIES {
        return;
    }
    kept.clear();
    // An empty list holds no borrow: collecting it into a list of
    // `'static` strings reuses its allocation (same layout), with no
    // `unsafe` and nothing copied.
    let kept: Vec<&'static str> = kept.into_iter().map(|_| "").collect();
    #[cfg(feature = "std")]
    {
        let _ = local::KEPT.try_with(|k| {
            let old = k.take();
            k.set(if old.capacity() >= kept.capacity() {
                old
            } else {
                kept
            });
        });
    }
    #[cfg(not(feature = "std"))]
    drop(kept);
}
