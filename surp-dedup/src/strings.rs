//! The encoder's string table: which strings have a slot, and where.
//!
//! It mirrors the decoder's table exactly (`docs/spec.md`, section 7.1): a
//! literal takes the next slot when it is at least as long as a reference to
//! that slot would be, until the table is full. Because a string in the table
//! is always written as a reference afterwards, the table never holds a
//! string twice, and lookups need no tie-breaking.
//!
//! serde hands strings over with a short lifetime, so the table copies each
//! string that takes a slot into one arena; lookups hash the candidate once
//! and compare bytes only on a hash match.

use hashbrown::HashTable;
use surp::wire;

/// A fixed hash seed: the encoder's output never depends on hash values, but
/// a fixed seed keeps runs reproducible for profiling.
pub(crate) const HASH_SEED: u64 = 0x5375_7270_4465_6475;

pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(HASH_SEED).hash_one(bytes)
}

#[derive(Clone, Copy)]
struct Entry {
    hash: u64,
    start: usize,
    len: usize,
}

/// Strings that have a slot, in slot order.
pub(crate) struct StringTable {
    index: HashTable<u32>,
    entries: Vec<Entry>,
    arena: Vec<u8>,
    capacity: usize,
}

/// The outcome of writing a string through the table.
pub(crate) enum Lookup {
    /// The string has slot `0`: write a reference.
    Slot(usize),
    /// Not in the table; `takes_slot` says whether the literal takes the next
    /// slot (the caller writes the literal, then calls [`StringTable::add`]).
    Literal { takes_slot: bool },
}

impl StringTable {
    pub(crate) fn new(capacity: usize) -> StringTable {
        StringTable {
            index: HashTable::new(),
            entries: Vec::new(),
            arena: Vec::new(),
            capacity: capacity.min(wire::MAX_STRING_SLOTS),
        }
    }

    /// The decoder's rule: the literal takes the next slot when a reference
    /// to it would be strictly shorter than the literal.
    #[inline]
    fn takes_slot(&self, len: usize) -> bool {
        let next = self.entries.len();
        next < self.capacity && len >= wire::str_ref_size(next)
    }

    /// Looks `s` up; `hash` is `hash_bytes(s)`.
    #[inline]
    pub(crate) fn lookup(&self, s: &[u8], hash: u64) -> Lookup {
        // No slot is ever given to a string shorter than the shortest reference.
        if s.len() >= wire::str_ref_size(0) {
            let found = self.index.find(hash, |&i| {
                let e = &self.entries[i as usize];
                e.hash == hash && &self.arena[e.start..e.start + e.len] == s
            });
            if let Some(&i) = found {
                return Lookup::Slot(i as usize);
            }
        }
        Lookup::Literal {
            takes_slot: self.takes_slot(s.len()),
        }
    }

    /// Gives `s` the next slot (after `lookup` said it takes one).
    pub(crate) fn add(&mut self, s: &[u8], hash: u64) {
        let slot = self.entries.len() as u32;
        let start = self.arena.len();
        self.arena.extend_from_slice(s);
        self.entries.push(Entry {
            hash,
            start,
            len: s.len(),
        });
        let entries = &self.entries;
        self.index
            .insert_unique(hash, slot, |&i| entries[i as usize].hash);
    }

    /// Number of slots in use.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(t: &mut StringTable, s: &str) -> Option<usize> {
        let h = hash_bytes(s.as_bytes());
        match t.lookup(s.as_bytes(), h) {
            Lookup::Slot(i) => Some(i),
            Lookup::Literal { takes_slot } => {
                if takes_slot {
                    t.add(s.as_bytes(), h);
                }
                None
            }
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
    fn the_table_stops_at_its_capacity() {
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
