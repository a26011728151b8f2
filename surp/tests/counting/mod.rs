//! A counting global allocator for the allocation tests (`alloc_bound.rs`,
//! `memory_bound.rs`): it counts, per thread, the live heap bytes, their
//! peak, and the total bytes ever requested, so that the tests of one binary
//! can run in parallel.
//!
//! A `realloc` changes the live bytes by the difference of its sizes (as if
//! it grew in place) and adds its whole new size to the total. The total is
//! therefore also a bound on the true peak, including the moment when a
//! copying reallocation holds the old and the new block at once.

#![allow(dead_code)] // Each test binary uses its own subset.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting this thread's heap use.
pub struct Counting;

thread_local! {
    // Const-initialised and without `Drop`: usable from inside the allocator.
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
    static TOTAL: Cell<usize> = const { Cell::new(0) };
}

/// Counts a request for `requested` bytes that grows the live heap by
/// `grow` and shrinks it by `shrink`.
fn track(requested: usize, grow: usize, shrink: usize) {
    let _ = LIVE.try_with(|live| {
        let now = (live.get() + grow).saturating_sub(shrink);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
    let _ = TOTAL.try_with(|total| total.set(total.get() + requested));
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counting touches only thread-local integers and
// never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` are passed on as they are.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            track(layout.size(), layout.size(), 0);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            track(layout.size(), layout.size(), 0);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` through this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        track(0, 0, layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` and `layout` come from this allocator, as the caller guarantees.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            track(new_size, new_size, layout.size());
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What a closure did to the heap, beyond what was live before it ran.
#[derive(Clone, Copy, Debug, Default)]
pub struct Usage {
    /// The most bytes live at once (reallocations counted in place).
    pub peak: usize,
    /// All bytes requested (a reallocation requests its new size).
    pub total: usize,
}

/// Runs `f` and measures its heap use; what it returns counts as live until
/// it is dropped after the measurement.
pub fn usage_of<T>(f: impl FnOnce() -> T) -> Usage {
    usage_with(f).0
}

/// Runs `f` and returns its heap use with its result (whose later drop is
/// not counted).
pub fn usage_with<T>(f: impl FnOnce() -> T) -> (Usage, T) {
    let before = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    let total_before = TOTAL.with(Cell::get);
    let result = f();
    let usage = Usage {
        peak: PEAK.with(Cell::get) - before,
        total: TOTAL.with(Cell::get) - total_before,
    };
    (usage, result)
}

/// Runs `f` and returns the most heap it held live at once.
pub fn peak_heap_during<T>(f: impl FnOnce() -> T) -> usize {
    usage_of(f).peak
}
