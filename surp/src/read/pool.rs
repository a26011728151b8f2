//! The slice reader's list of kept strings, passed on, emptied, from one
//! deduplicated document to the next on a thread, like the decoder's tables
//! (see `de::tables`, where the reason is measured).

#[allow(unused_imports)]
use crate::prelude::*;

/// The most entries a kept list may have room for.
pub(crate) const MAX_KEPT_ENTRIES: usize = 4096;

#[cfg(feature = "std")]
std::thread_local! {
    static KEPT: core::cell::Cell<Vec<&'static str>> = const { core::cell::Cell::new(Vec::new()) };
}

/// The slice reader's kept strings. Its storage comes from the thread's
/// list when the first string is kept, and goes back to it when the reader
/// is dropped.
#[derive(Default)]
pub(crate) struct KeptList<'de>(Vec<&'de str>);

impl<'de> KeptList<'de> {
    /// Keeps `text`; gives its index.
    #[inline]
    pub(crate) fn push(&mut self, text: &'de str) -> usize {
        if self.0.capacity() == 0 {
            self.0 = take_kept();
        }
        self.0.push(text);
        self.0.len() - 1
    }

    /// Forgets every string, keeping the storage.
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }
}

impl<'de> core::ops::Deref for KeptList<'de> {
    type Target = [&'de str];
    fn deref(&self) -> &[&'de str] {
        &self.0
    }
}

impl Drop for KeptList<'_> {
    fn drop(&mut self) {
        give_back_kept(core::mem::take(&mut self.0));
    }
}

/// A list for the slice reader's kept strings: one kept by an earlier
/// document on this thread, emptied, or a new one.
#[inline]
fn take_kept<'de>() -> Vec<&'de str> {
    #[cfg(feature = "std")]
    {
        // `Vec<&'static str>` is a `Vec<&'de str>`.
        KEPT.try_with(core::cell::Cell::take).unwrap_or_default()
    }
    #[cfg(not(feature = "std"))]
    {
        Vec::new()
    }
}

/// Keeps the slice reader's list, emptied, for the next document.
fn give_back_kept(mut kept: Vec<&str>) {
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
        let _ = KEPT.try_with(|k| {
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
