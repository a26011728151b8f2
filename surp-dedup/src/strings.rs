//! The encoder's string table: which strings have a slot, and where.
//!
//! It follows the decoder's rule, `surp::__private::dedup::takes_slot` (`docs/spec.md`,
//! section 7.1): a literal takes the next slot when it is at least as long
//! as a reference to that slot would be, until the table is full. Because a string in the table
//! is always written as a reference afterwards, the table never holds a
//! string twice, and lookups need no tie-breaking.
//!
//! serde hands strings over with a short lifetime, so the table copies each
//! string that takes a slot into one arena; lookups hash the candidate once
//! and compare bytes only on a hash match.

use hashbrown::HashTable;
use hashbrown::hash_table::Entry as Slot;
use surp::__private::{dedup, wire};

/// A fixed hash seed: the encoder's output never depends on hash values, but
/// a fixed seed keeps runs reproducible for profiling.
pub(crate) const HASH_SEED: u64 = 0x5375_7270_4465_6475;

/// Byte-string equality without a `memcmp` call for the short strings that
/// keys and enum-like values are: two overlapping word loads cover up to 16
/// bytes.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes"));
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// The hash of a string's bytes: one `write` of the bytes, which mixes in
/// their length itself. `hash_one(bytes)` would also hash the length as a
/// separate number (`Hash for [u8]` writes a length prefix), and that
/// costs foldhash one more multiply per string in `finish`.
#[inline]
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = foldhash::fast::FixedState::with_seed(HASH_SEED).build_hasher();
    hasher.write(bytes);
    hasher.finish()
}

/// A slot: where its string is in the arena, its number, and the high half
/// of its hash (so growing the table rehashes without reading strings).
/// Sixteen bytes, stored in the hash table itself, because the table is
/// probed for every string written and its size decides the cache misses.
#[derive(Clone, Copy)]
struct Entry {
    start: u32,
    len: u32,
    slot: u32,
    hash: u32,
}

/// The 32 bits of a string's hash that an entry keeps.
#[inline]
fn high_half(hash: u64) -> u32 {
    (hash >> 32) as u32
}

/// The table's hash of a string, from the 32 bits an entry keeps.
#[inline]
fn table_hash(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Entry {
    #[inline]
    fn bytes(self, arena: &[u8]) -> &[u8] {
        &arena[self.start as usize..self.start as usize + self.len as usize]
    }
}

/// Strings that have a slot.
pub(crate) struct StringTable {
    index: HashTable<Entry>,
    arena: Vec<u8>,
    slots: usize,
    max_dedup_strings: usize,
    /// Set when the arena is about to outgrow 32-bit offsets: the table then
    /// counts as full. An encoder may stop adding slots at any point, as long
    /// as it stops for good (`docs/spec.md` section 7.1, "Limits").
    full: bool,
    /// Slots found by the address of the string written (see
    /// [`StringTable::write_by_address`]); empty until first used.
    hints: Vec<Hint>,
    /// The buckets of `hints` written since the table was last cleared (at
    /// most one entry per hint written; `None` once that outgrew the
    /// buckets, when clearing fills them all), so that clearing the table
    /// for a small document does not rewrite all of them.
    hinted: Option<Vec<u16>>,
}

/// A string written by address: where it was, and its slot and text.
#[derive(Clone, Copy)]
struct Hint {
    addr: usize,
    len: u32,
    start: u32,
    slot: u32,
}

/// Entries of the address cache (a power of two), in buckets of two: the
/// last two addresses that fell in a bucket are both kept. A document's
/// unit variants number tens, and with one entry per bucket, two names in
/// the same entry evicted each other on every use: which names collide
/// depends on where the linker put them, so speed changed from one build
/// to the next. With buckets of two, a miss needs three names in one bucket.
const HINTS: usize = 256;

/// An empty hint: no string starts at address 0.
const NO_HINT: Hint = Hint {
    addr: 0,
    len: 0,
    start: 0,
    slot: 0,
};

/// The first entry of the bucket of a string at `addr`.
#[inline]
fn hint_bucket(addr: usize) -> usize {
    let buckets = HINTS / 2;
    2 * ((addr as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - buckets.trailing_zeros()))
        as usize
}

/// Where a string stands in the table.
pub(crate) enum Lookup {
    /// The string has slot `0`: write a reference.
    Slot(usize),
    /// Not in the table: write a literal, which takes the next slot when
    /// `takes_slot` says so.
    Literal { takes_slot: bool },
}

impl StringTable {
    pub(crate) fn new(max_dedup_strings: usize) -> StringTable {
        // First capacities for a small document, as for the encoder's own.
        StringTable {
            index: HashTable::with_capacity(32),
            arena: Vec::with_capacity(512),
            slots: 0,
            max_dedup_strings: dedup::string_table_limit(max_dedup_strings),
            full: false,
            hints: Vec::new(),
            hinted: Some(Vec::new()),
        }
    }

    /// The decoder's rule ([`dedup::takes_slot`]), unless the arena is full.
    #[inline]
    fn takes_slot(&self, len: usize) -> bool {
        !self.full && dedup::takes_slot(len, self.slots, self.max_dedup_strings)
    }

    /// Looks `s` up without changing the table; `hash` is `hash_bytes(s)`.
    #[inline]
    pub(crate) fn lookup(&self, s: &[u8], hash: u64) -> Lookup {
        // No slot is ever given to a string shorter than the shortest reference.
        if s.len() >= wire::str_ref_size(0)
            && let Some(e) = self.index.find(table_hash(high_half(hash)), |e| {
                same_bytes(e.bytes(&self.arena), s)
            })
        {
            return Lookup::Slot(e.slot as usize);
        }
        Lookup::Literal {
            takes_slot: self.takes_slot(s.len()),
        }
    }

    /// Looks `s` up for writing it: the slot it has, or else whether the
    /// literal takes the next slot, which it is then given, in one probe.
    #[inline]
    pub(crate) fn write(&mut self, s: &[u8], hash: u64) -> Lookup {
        self.write_entry(s, hash).0
    }

    /// [`StringTable::write`] for a string that is likely written again
    /// from the same address: the name of a unit variant, which serde hands
    /// over as a `&'static str`. The slot found for an address is cached,
    /// and a later string at that address with the same length and bytes
    /// takes it without hashing. The address is only a hint: the bytes are
    /// always compared, so memory freed and reused for other text (a leaked
    /// name given back with `Box::from_raw`) finds no slot by it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn write_by_address(&mut self, s: &[u8]) -> Lookup {
        let addr = s.as_ptr() as usize;
        let at = hint_bucket(addr);
        if let Some(bucket) = self.hints.get(at..at + 2) {
            for h in bucket {
                if h.addr == addr
                    && h.len as usize == s.len()
                    && let Some(text) = self.arena.get(h.start as usize..h.start as usize + s.len())
                    && same_bytes(text, s)
                {
                    return Lookup::Slot(h.slot as usize);
                }
            }
        }
        self.write_and_hint(s, at)
    }

    /// The slow path of [`StringTable::write_by_address`]: the hashed
    /// lookup, and the string's slot, if it has one, as the newer of its
    /// bucket's two hints.
    #[inline(never)]
    fn write_and_hint(&mut self, s: &[u8], at: usize) -> Lookup {
        if s.len() < wire::str_ref_size(0) {
            // Never takes a slot: not worth a hash.
            return Lookup::Literal { takes_slot: false };
        }
        let (lookup, entry) = self.write_entry(s, hash_bytes(s));
        if let Some(e) = entry {
            if self.hints.is_empty() {
                self.hints = vec![NO_HINT; HINTS];
            }
            if let Some(hinted) = &mut self.hinted {
                if hinted.len() < HINTS / 2 {
                    hinted.push(at as u16);
                } else {
                    self.hinted = None;
                }
            }
            self.hints[at + 1] = self.hints[at];
            self.hints[at] = Hint {
                addr: s.as_ptr() as usize,
                len: e.len,
                start: e.start,
                slot: e.slot,
            };
        }
        lookup
    }

    /// [`StringTable::write`], and the entry of `s` if it has one now
    /// (always inline, so that `write` carries no entry).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn write_entry(&mut self, s: &[u8], hash: u64) -> (Lookup, Option<Entry>) {
        if s.len() < wire::str_ref_size(0) {
            return (Lookup::Literal { takes_slot: false }, None);
        }
        let arena = &self.arena;
        let hash = high_half(hash);
        let found = self.index.entry(
            table_hash(hash),
            |e| same_bytes(e.bytes(arena), s),
            |e| table_hash(e.hash),
        );
        match found {
            Slot::Occupied(o) => {
                let e = *o.get();
                (Lookup::Slot(e.slot as usize), Some(e))
            }
            Slot::Vacant(v) => {
                // `takes_slot`, with the table's fields borrowed one by one.
                let mut takes_slot =
                    !self.full && dedup::takes_slot(s.len(), self.slots, self.max_dedup_strings);
                if takes_slot && self.arena.len() + s.len() > u32::MAX as usize {
                    self.full = true;
                    takes_slot = false;
                }
                let mut entry = None;
                if takes_slot {
                    let e = Entry {
                        start: self.arena.len() as u32,
                        len: s.len() as u32,
                        slot: self.slots as u32,
                        hash,
                    };
                    v.insert(e);
                    entry = Some(e);
                    self.arena.extend_from_slice(s);
                    self.slots += 1;
                }
                (Lookup::Literal { takes_slot }, entry)
            }
        }
    }

    /// Number of slots in use.
    pub(crate) fn len(&self) -> usize {
        self.slots
    }

    /// Empties the table for another document, keeping its storage, with
    /// this limit. Every hint is cleared: a hint names a slot and an arena
    /// offset of the document that set it.
    pub(crate) fn clear(&mut self, max_dedup_strings: usize) {
        self.index.clear();
        self.arena.clear();
        self.slots = 0;
        self.full = false;
        self.max_dedup_strings = dedup::string_table_limit(max_dedup_strings);
        self.forget_hints();
    }

    /// Clears every hint, keeping their storage: only the buckets written
    /// since the last clear, or all of them once those outgrew `hinted`.
    fn forget_hints(&mut self) {
        match &mut self.hinted {
            Some(hinted) => {
                for &at in hinted.iter() {
                    self.hints[at as usize..at as usize + 2].fill(NO_HINT);
                }
                hinted.clear();
            }
            None => {
                self.hints.fill(NO_HINT);
                self.hinted = Some(Vec::new());
            }
        }
    }

    /// Whether the table's storage is small enough to keep for the next
    /// document (see `crate::encoder::pool`).
    pub(crate) fn small(&self, entries: usize, bytes: usize) -> bool {
        self.index.capacity() <= entries && self.arena.capacity() <= bytes
    }

    /// Bytes of the strings that have slots.
    pub(crate) fn text_len(&self) -> usize {
        self.arena.len()
    }

    /// Drops every slot from `slots` on, whose strings start at `text_len`
    /// in the arena: the table is then what it was when it had `slots`
    /// slots (a session's tables returning to their initial state).
    pub(crate) fn truncate(&mut self, slots: usize, text_len: usize) {
        self.index.retain(|e| (e.slot as usize) < slots);
        self.arena.truncate(text_len);
        self.slots = slots;
        self.full = false;
        // Hints name slots and arena offsets that may be gone.
        self.forget_hints();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_agrees_with_slice_equality() {
        let base: Vec<u8> = (0..40).collect();
        for n in 0..40 {
            let a = &base[..n];
            assert!(same_bytes(a, a));
            for at in 0..n {
                let mut b = a.to_vec();
                b[at] ^= 0x40;
                assert_eq!(
                    same_bytes(a, &b),
                    a == b.as_slice(),
                    "n = {n}, changed byte {at}"
                );
            }
            assert!(!same_bytes(a, &base[..n + 1]));
        }
    }

    fn write(t: &mut StringTable, s: &str) -> Option<usize> {
        let h = hash_bytes(s.as_bytes());
        let found = t.lookup(s.as_bytes(), h);
        match t.write(s.as_bytes(), h) {
            Lookup::Slot(i) => {
                assert!(
                    matches!(found, Lookup::Slot(j) if j == i),
                    "lookup and write agree"
                );
                Some(i)
            }
            Lookup::Literal { .. } => None,
        }
    }

    #[test]
    fn a_repeated_string_is_found_in_the_slot_it_took() {
        let mut t = StringTable::new(100);
        assert_eq!(write(&mut t, "alpha"), None);
        assert_eq!(write(&mut t, "x"), None);
        assert_eq!(write(&mut t, "beta"), None);
        assert_eq!(write(&mut t, "beta"), Some(1));
        assert_eq!(write(&mut t, "alpha"), Some(0));
        assert_eq!(write(&mut t, "x"), None, "one byte never takes a slot");
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn a_string_found_by_address_is_checked_by_its_bytes() {
        let mut t = StringTable::new(100);
        let mut text = *b"warning";
        assert!(matches!(
            t.write_by_address(&text),
            Lookup::Literal { takes_slot: true }
        ));
        assert!(matches!(t.write_by_address(&text), Lookup::Slot(0)));
        // Other bytes at the same address (as when memory is reused): not
        // the slot of the old text.
        text[0] = b'W';
        assert!(matches!(
            t.write_by_address(&text),
            Lookup::Literal { takes_slot: true }
        ));
        assert!(matches!(t.write_by_address(&text), Lookup::Slot(1)));
        // The same text at another address, and a prefix at the same one.
        let copy = text;
        assert!(matches!(t.write_by_address(&copy), Lookup::Slot(1)));
        assert!(matches!(
            t.write_by_address(&text[..6]),
            Lookup::Literal { takes_slot: true }
        ));
        assert!(matches!(t.write_by_address(&text[..6]), Lookup::Slot(2)));
        // Found by address or by hash, a string has one slot.
        assert!(matches!(
            t.write(b"Warning", hash_bytes(b"Warning")),
            Lookup::Slot(1)
        ));
        assert!(matches!(
            t.write_by_address(b"x"),
            Lookup::Literal { takes_slot: false }
        ));
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn a_bucket_keeps_the_last_two_strings_found_by_address() {
        // Distinct 4-byte strings at distinct addresses; three of them
        // whose addresses fall in one bucket.
        let text: Vec<u8> = (0..4096u32).flat_map(|i| i.to_le_bytes()).collect();
        let names: Vec<&[u8]> = text.chunks(4).collect();
        let bucket = hint_bucket(names[0].as_ptr() as usize);
        let same: Vec<&[u8]> = names
            .iter()
            .copied()
            .filter(|n| hint_bucket(n.as_ptr() as usize) == bucket)
            .take(3)
            .collect();
        assert_eq!(same.len(), 3, "4,096 addresses over {} buckets", HINTS / 2);
        let hinted = |t: &StringTable| -> Vec<usize> {
            t.hints[bucket..bucket + 2].iter().map(|h| h.addr).collect()
        };
        let addr = |i: usize| same[i].as_ptr() as usize;
        let mut t = StringTable::new(100);
        for (i, name) in same.iter().enumerate() {
            t.write_by_address(name);
            assert!(matches!(t.write_by_address(name), Lookup::Slot(s) if s == i));
        }
        assert_eq!(
            hinted(&t),
            [addr(2), addr(1)],
            "the newest two, newest first"
        );
        // The oldest is found by hash, and is hinted again.
        assert!(matches!(t.write_by_address(same[0]), Lookup::Slot(0)));
        assert_eq!(hinted(&t), [addr(0), addr(2)]);
    }

    #[test]
    fn a_cleared_table_forgets_its_hints() {
        // In the second document the name lands at the arena offset it had
        // in the first, with another slot: a hint kept across `clear` would
        // answer with the first document's slot.
        let name: &'static str = "VariantName";
        let slot_of_name = |t: &mut StringTable| match t.write_by_address(name.as_bytes()) {
            Lookup::Slot(s) => s,
            Lookup::Literal { .. } => panic!("the name has a slot"),
        };
        let mut t = StringTable::new(100);
        write(&mut t, "abcdefghij");
        t.write_by_address(name.as_bytes());
        assert_eq!(slot_of_name(&mut t), 1);
        t.clear(100);
        write(&mut t, "abcde");
        write(&mut t, "fghij");
        let copy = String::from(name);
        write(&mut t, &copy);
        assert_eq!(slot_of_name(&mut t), 2);
    }

    #[test]
    fn the_table_stops_at_max_dedup_strings() {
        let mut t = StringTable::new(1);
        write(&mut t, "first");
        write(&mut t, "second");
        assert_eq!(write(&mut t, "second"), None);
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn two_byte_strings_stop_taking_slots_once_references_need_three_bytes() {
        let mut t = StringTable::new(usize::MAX);
        for i in 0..256 {
            write(&mut t, &format!("{i:03}"));
        }
        assert_eq!(write(&mut t, "ab"), None);
        assert_eq!(write(&mut t, "ab"), None, "did not take slot 256");
        assert_eq!(write(&mut t, "abc"), None);
        assert_eq!(write(&mut t, "abc"), Some(256));
    }
}
