//! The encoder's guess of the shape a map will take: the shape last written
//! at the same position in the document (its context hash) with the same
//! number of keys.
//!
//! The guesses live in a direct-mapped cache. A collision only costs a wrong
//! guess, which the encoder repairs (the output never depends on a guess), so
//! no context needs to be remembered exactly.
//!
//! The cache starts small and grows with the document. A fixed cache of
//! 4,096 entries was filled anew for every document, and that dominated the
//! encoding of small ones: a single log record took 23x the time of plain
//! Surp, most of it writing 64 KiB of empty entries. A position is a field
//! of a type, not a record, so most documents need few entries. A wrong
//! guess costs a rewrite of the map, far more than growing, so the cache
//! grows early: when more than an eighth of it is in use, or when more than
//! a thirty-second of it has been overwritten by other contexts since it
//! last grew. Starting at 16 entries and growing at a quarter in use made
//! twitter's deduplicated encoding 1.8% more instructions than the fixed
//! cache (wrong guesses while it was small); with these settings the
//! benchmark's encode cells are at most 0.2% above it (citm_catalog), and
//! most are below.

/// Entries of a new cache (a power of two).
const FIRST_SLOTS: usize = 64;

/// The most entries: growth stops here (a power of two).
const MAX_SLOTS: usize = 4096;

/// How much larger each growth makes the cache.
const GROWTH: usize = 4;

/// An empty entry: no shape has this number.
const EMPTY: (u64, u32) = (0, u32::MAX);

pub(crate) struct Predictions {
    /// `(context, shape)`; the length is a power of two.
    slots: Vec<(u64, u32)>,
    /// Entries in use.
    live: usize,
    /// Guesses overwritten by another context since the last growth.
    evictions: usize,
}

impl Predictions {
    pub(crate) fn new() -> Predictions {
        Predictions {
            slots: vec![EMPTY; FIRST_SLOTS],
            live: 0,
            evictions: 0,
        }
    }

    #[inline]
    fn index(&self, ctx: u64) -> usize {
        ctx as usize & (self.slots.len() - 1)
    }

    /// The shape last recorded for `ctx`, unless another context took its
    /// entry since.
    #[inline]
    pub(crate) fn get(&self, ctx: u64) -> Option<u32> {
        let (tag, shape) = self.slots[self.index(ctx)];
        (tag == ctx && shape != EMPTY.1).then_some(shape)
    }

    /// Records `shape` for `ctx`. Only an explicit map that ended calls this,
    /// never the path of a correct guess.
    pub(crate) fn set(&mut self, ctx: u64, shape: u32) {
        // See the module documentation for when it grows.
        let len = self.slots.len();
        if (self.live > len / 8 || self.evictions > len / 32) && len < MAX_SLOTS {
            self.grow();
        }
        let at = self.index(ctx);
        let (tag, old) = self.slots[at];
        if old == EMPTY.1 {
            self.live += 1;
        } else if tag != ctx {
            self.evictions += 1;
        }
        self.slots[at] = (ctx, shape);
    }

    /// Moves every guess into a cache `GROWTH` times as large. Entries at
    /// different indices keep different indices (the new index only adds
    /// bits of the context), so every guess survives and `live` stays.
    #[cold]
    fn grow(&mut self) {
        let len = (self.slots.len() * GROWTH).min(MAX_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; len]);
        for (tag, shape) in old {
            if shape != EMPTY.1 {
                let at = self.index(tag);
                self.slots[at] = (tag, shape);
            }
        }
        self.evictions = 0;
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guess_is_found_until_another_context_takes_its_entry() {
        let mut p = Predictions::new();
        assert_eq!(p.get(5), None);
        p.set(5, 7);
        assert_eq!(p.get(5), Some(7));
        p.set(5, 8);
        assert_eq!(p.get(5), Some(8), "the same context replaces its guess");
        // Same entry, other context.
        let rival = 5 + FIRST_SLOTS as u64;
        p.set(rival, 9);
        assert_eq!(p.get(rival), Some(9));
        assert_eq!(p.get(5), None);
        assert_eq!(p.len(), FIRST_SLOTS, "one eviction does not grow it");
    }

    #[test]
    fn evictions_grow_the_cache_up_to_its_limit() {
        let mut p = Predictions::new();
        // Contexts that all share entry 1 of every size up to the limit.
        let ctx = |i: u64| i * MAX_SLOTS as u64 + 1;
        let mut sizes = vec![p.len()];
        for i in 0..2000 {
            p.set(ctx(i), i as u32);
            // The context just recorded is always found.
            assert_eq!(p.get(ctx(i)), Some(i as u32));
            if *sizes.last().unwrap() != p.len() {
                sizes.push(p.len());
            }
        }
        assert_eq!(sizes, [64, 256, 1024, 4096]);
        // At the largest size, contexts of distinct entries all stay, and
        // evictions no longer grow it.
        for i in 0..MAX_SLOTS as u64 {
            p.set(i, i as u32);
        }
        assert_eq!(p.len(), MAX_SLOTS);
        let kept = (0..MAX_SLOTS as u64)
            .filter(|&i| p.get(i) == Some(i as u32))
            .count();
        assert_eq!(kept, MAX_SLOTS, "no two of them share an entry");
    }

    #[test]
    fn growth_keeps_the_guesses_it_had() {
        let mut p = Predictions::new();
        // Distinct entries of the first size, until the cache grows.
        let mut n = 0;
        while p.len() == FIRST_SLOTS {
            p.set(n, 100 + n as u32);
            n += 1;
        }
        // More than an eighth in use: the next guess grows it.
        assert_eq!(n as usize, FIRST_SLOTS / 8 + 2);
        for c in 0..n {
            assert_eq!(p.get(c), Some(100 + c as u32), "context {c} moved");
        }
        assert_eq!(p.live, n as usize, "every entry is counted once");
    }

    #[test]
    fn an_empty_cache_guesses_nothing() {
        let p = Predictions::new();
        for ctx in [0, 1, u64::MAX, FIRST_SLOTS as u64] {
            assert_eq!(p.get(ctx), None);
        }
    }
}
