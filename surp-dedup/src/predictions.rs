//! The encoder's guess of the shape a map will take: the shape last written
//! at the same position in the document (its context hash) with the same
//! number of keys.
//!
//! The guesses live in a direct-mapped cache. A collision only costs a wrong
//! guess, which the encoder repairs (the output never depends on a guess), so
//! no context needs to be remembered exactly: an entry keeps 32 bits of it.
//! The key count is kept exactly, and with it where the shape's keys start,
//! so that a map predicted right is written without a lookup in the shape
//! table (a dependent load less per struct).
//!
//! The cache starts small and grows with the document: a cache of the full
//! size, cleared for every document, would cost a small document more than
//! encoding it, the time going to writing empty entries. A position is a
//! field of a type, not a record, so most documents need few entries. A
//! wrong guess costs a rewrite of the map, far more than growing, so the
//! cache grows early: when more than an eighth of it is in use, or when more
//! than a thirty-second of it has been overwritten by other contexts since
//! it last grew. A smaller first cache, or later growth, would lose more to
//! wrong guesses while the cache is small than it saves in clearing.

/// Entries of a new cache (a power of two).
const FIRST_SLOTS: usize = 64;

/// The most entries: growth stops here (a power of two).
const MAX_SLOTS: usize = 4096;

/// How much larger each growth makes the cache.
const GROWTH: usize = 4;

/// [`Guess::keys`] of a shape that may not be referenced (its reference
/// would not be shorter than its keys), and of an empty entry.
const NOT_REFERABLE: u32 = u32::MAX;

/// One entry: a guess, and what the encoder needs to write it, so that a
/// map predicted right needs no lookup in the shape table.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct Guess {
    /// The high half of the prediction key, whose low bits are also the
    /// entry's index (so that growing can move the entry).
    tag: u32,
    /// The shape's key count, compared exactly: a map of another count is
    /// never written as a reference to this shape, whatever the hash.
    count: u32,
    shape: u32,
    /// Where the shape's keys start in the shape table, or
    /// [`NOT_REFERABLE`].
    keys: u32,
}

/// An empty entry.
const EMPTY: Guess = Guess {
    tag: 0,
    count: 0,
    shape: u32::MAX,
    keys: NOT_REFERABLE,
};

impl Guess {
    fn is_empty(self) -> bool {
        self.shape == EMPTY.shape
    }
}

pub(crate) struct Predictions {
    /// The length is a power of two.
    slots: Vec<Guess>,
    /// Entries in use.
    live: usize,
    /// Guesses overwritten by another context since the last growth.
    evictions: usize,
}

/// The tag of a prediction key.
#[inline]
fn tag(key: u64) -> u32 {
    (key >> 32) as u32
}

impl Predictions {
    pub(crate) fn new() -> Predictions {
        Predictions {
            slots: vec![EMPTY; FIRST_SLOTS],
            live: 0,
            evictions: 0,
        }
    }

    /// Forgets every guess, as a new cache would, keeping the storage of
    /// the first size.
    pub(crate) fn clear(&mut self) {
        // The cache never shrinks below its first size.
        self.slots.truncate(FIRST_SLOTS);
        self.slots.fill(EMPTY);
        self.live = 0;
        self.evictions = 0;
    }

    #[inline]
    fn index(&self, tag: u32) -> usize {
        tag as usize & (self.slots.len() - 1)
    }

    /// The shape last recorded for `key` and a map of `count` keys, and
    /// where its keys start, if it may be referenced and no other key took
    /// its entry since.
    #[inline]
    pub(crate) fn get(&self, key: u64, count: usize) -> Option<(u32, usize)> {
        let g = self.slots[self.index(tag(key))];
        (g.tag == tag(key) && g.count as usize == count && g.keys != NOT_REFERABLE)
            .then_some((g.shape, g.keys as usize))
    }

    /// Records `shape`, of `count` keys starting at `keys` in the shape
    /// table (`None` if it may not be referenced), for `key`. Only an
    /// explicit map that ended calls this, never the path of a correct
    /// guess.
    pub(crate) fn set(&mut self, key: u64, count: usize, shape: u32, keys: Option<usize>) {
        // A count or key position past 32 bits is recorded as no guess.
        let (Ok(count), keys) = (
            u32::try_from(count),
            keys.and_then(|k| u32::try_from(k).ok())
                .filter(|&k| k != NOT_REFERABLE)
                .unwrap_or(NOT_REFERABLE),
        ) else {
            return;
        };
        // See the module documentation for when it grows.
        let len = self.slots.len();
        if (self.live > len / 8 || self.evictions > len / 32) && len < MAX_SLOTS {
            self.grow();
        }
        let at = self.index(tag(key));
        let old = self.slots[at];
        if old.is_empty() {
            self.live += 1;
        } else if old.tag != tag(key) {
            self.evictions += 1;
        }
        self.slots[at] = Guess {
            tag: tag(key),
            count,
            shape,
            keys,
        };
    }

    /// Moves every guess into a cache `GROWTH` times as large. Entries at
    /// different indices keep different indices (the new index only adds
    /// bits of the tag), so every guess survives and `live` stays.
    #[cold]
    fn grow(&mut self) {
        let len = (self.slots.len() * GROWTH).min(MAX_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; len]);
        for g in old {
            if !g.is_empty() {
                let at = self.index(g.tag);
                self.slots[at] = g;
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

    /// A prediction key whose tag (and so index) is `i`.
    fn key(i: u64) -> u64 {
        i << 32 | 0x5a5a
    }

    /// Records shape `shape` of one key, its keys at `shape * 10`.
    fn set(p: &mut Predictions, k: u64, shape: u32) {
        p.set(k, 1, shape, Some(shape as usize * 10));
    }

    fn get(p: &Predictions, k: u64) -> Option<u32> {
        p.get(k, 1).map(|(shape, keys)| {
            assert_eq!(keys, shape as usize * 10, "the keys recorded with it");
            shape
        })
    }

    #[test]
    fn a_guess_is_found_until_another_context_takes_its_entry() {
        let mut p = Predictions::new();
        assert_eq!(get(&p, key(5)), None);
        set(&mut p, key(5), 7);
        assert_eq!(get(&p, key(5)), Some(7));
        set(&mut p, key(5), 8);
        assert_eq!(
            get(&p, key(5)),
            Some(8),
            "the same context replaces its guess"
        );
        // Same entry, other context.
        let rival = key(5 + FIRST_SLOTS as u64);
        set(&mut p, rival, 9);
        assert_eq!(get(&p, rival), Some(9));
        assert_eq!(get(&p, key(5)), None);
        assert_eq!(p.len(), FIRST_SLOTS, "one eviction does not grow it");
    }

    #[test]
    fn a_guess_is_only_for_its_key_count_and_a_shape_that_may_be_referenced() {
        let mut p = Predictions::new();
        p.set(key(3), 4, 2, Some(17));
        assert_eq!(p.get(key(3), 4), Some((2, 17)));
        assert_eq!(p.get(key(3), 5), None, "another count, same key");
        assert_eq!(p.get(key(3), 3), None);
        p.set(key(3), 4, 2, None);
        assert_eq!(p.get(key(3), 4), None, "not referable: no guess");
        assert_eq!(p.live, 1, "but the entry stays in use");
        // Positions that do not fit the entry record no guess.
        p.set(key(4), 1, 0, Some(u32::MAX as usize));
        assert_eq!(p.get(key(4), 1), None);
        let live = p.live;
        p.set(key(6), u32::MAX as usize + 1, 0, Some(1));
        assert_eq!(p.get(key(6), u32::MAX as usize + 1), None);
        assert_eq!(p.live, live, "a count past 32 bits records nothing");
        assert_eq!(p.get(key(6), 0), None);
    }

    #[test]
    fn evictions_grow_the_cache_up_to_its_limit() {
        let mut p = Predictions::new();
        // Contexts that all share entry 1 of every size up to the limit.
        let ctx = |i: u64| key(i * MAX_SLOTS as u64 + 1);
        let mut sizes = vec![p.len()];
        for i in 0..2000 {
            set(&mut p, ctx(i), i as u32);
            // The context just recorded is always found.
            assert_eq!(get(&p, ctx(i)), Some(i as u32));
            if *sizes.last().unwrap() != p.len() {
                sizes.push(p.len());
            }
        }
        assert_eq!(sizes, [64, 256, 1024, 4096]);
        // At the largest size, contexts of distinct entries all stay, and
        // evictions no longer grow it.
        for i in 0..MAX_SLOTS as u64 {
            set(&mut p, key(i), i as u32);
        }
        assert_eq!(p.len(), MAX_SLOTS);
        let kept = (0..MAX_SLOTS as u64)
            .filter(|&i| get(&p, key(i)) == Some(i as u32))
            .count();
        assert_eq!(kept, MAX_SLOTS, "no two of them share an entry");
    }

    #[test]
    fn growth_keeps_the_guesses_it_had() {
        let mut p = Predictions::new();
        // Distinct entries of the first size, until the cache grows; tags
        // whose index changes when the cache grows (bit 6 and up are set).
        let tag = |n: u64| key(n * (FIRST_SLOTS as u64 + 1));
        let mut n = 0;
        while p.len() == FIRST_SLOTS {
            set(&mut p, tag(n), 100 + n as u32);
            n += 1;
        }
        // More than an eighth in use: the next guess grows it.
        assert_eq!(n as usize, FIRST_SLOTS / 8 + 2);
        for c in 0..n {
            assert_eq!(get(&p, tag(c)), Some(100 + c as u32), "context {c} moved");
        }
        assert_eq!(p.live, n as usize, "every entry is counted once");
    }

    #[test]
    fn an_empty_cache_guesses_nothing() {
        let p = Predictions::new();
        for k in [0, 1, u64::MAX, key(FIRST_SLOTS as u64)] {
            for count in [0, 1, u32::MAX as usize] {
                assert_eq!(p.get(k, count), None);
            }
        }
    }
}
