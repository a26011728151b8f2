//! The encoder's shape table: key sequences of maps, mirroring the decoder's
//! (`docs/spec.md`, section 7.2).
//!
//! A shape is registered when an explicit map ends, by the rules in
//! `surp::__private::dedup` (`may_become_shape`, `becomes_shape`). Only the first shape
//! registered for a key sequence is indexed, so a lookup always finds the
//! lowest-numbered one, which is the shape the spec says to reference.

use hashbrown::HashTable;
use surp::__private::dedup;

use crate::strings::same_bytes;

#[derive(Clone, Copy)]
struct Entry {
    hash: u64,
    /// Range of this shape's keys in `keys`.
    first_key: usize,
    key_count: usize,
    /// Whether a reference to it is shorter than an explicit map with
    /// these keys (its header and keys as references or literals): fixed
    /// once registered, as a key's table state and the shape's number are.
    referable: bool,
}

/// A key of a shape.
#[derive(Clone, Copy)]
struct Key {
    start: usize,
    len: usize,
    /// [`head`] of its text.
    head: u64,
    /// [`tail`] of its text.
    tail: u64,
}

/// A key's first eight bytes (fewer, zero-padded, if it is shorter): with
/// the length, what tells a struct's field names apart in almost every
/// case, and for a name known at compile time, a constant.
#[inline]
fn head(key: &[u8]) -> u64 {
    // Overlapping loads rather than a copy of variable length, which would
    // be a call to `memcpy` for every key not known at compile time.
    let n = key.len();
    let word = |at: usize| u64::from_le_bytes(key[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| {
        u64::from(u32::from_le_bytes(
            key[at..at + 4].try_into().expect("4 bytes"),
        ))
    };
    let byte = |at: usize| u64::from(key[at]) << (8 * at);
    match n {
        0 => 0,
        1..=3 => byte(0) | byte(n / 2) | byte(n - 1),
        4..=7 => half(0) | half(n - 4) << (8 * (n - 4)),
        _ => word(0),
    }
}

/// The body of [`ShapeTable::key_at_is`] (see there for why a macro).
macro_rules! key_at_is {
    ($table:expr, $at:expr, $key:expr) => {{
        let (table, at, key): (&ShapeTable, usize, &[u8]) = ($table, $at, $key);
        match table.keys.get(at) {
            Some(&Key {
                len,
                head: h,
                tail: t,
                ..
            }) => {
                len == key.len()
                    && h == head(key)
                    && (len <= 8
                        || (t == tail(key)
                            && (len <= 16
                                || same_bytes(&table.key_at(at)[8..len - 8], &key[8..len - 8]))))
            }
            None => false,
        }
    }};
}

/// A key's last eight bytes if it is longer than eight, else 0: with
/// [`head`], the whole of a key of up to 16 bytes, so that most field names
/// are checked without reading the table's copy of their text.
#[inline]
fn tail(key: &[u8]) -> u64 {
    match key.len() {
        0..=8 => 0,
        n => u64::from_le_bytes(key[n - 8..].try_into().expect("8 bytes")),
    }
}

pub(crate) struct ShapeTable {
    index: HashTable<u32>,
    entries: Vec<Entry>,
    /// Each key: where its text is in `arena`, and its first and last bytes.
    keys: Vec<Key>,
    arena: Vec<u8>,
    max_dedup_shapes: usize,
}

/// The hash of a key sequence, from the hashes of its keys.
#[inline]
pub(crate) fn combine(seq_hash: u64, key_hash: u64) -> u64 {
    (seq_hash.rotate_left(23) ^ key_hash).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl ShapeTable {
    pub(crate) fn new(max_dedup_shapes: usize) -> ShapeTable {
        // First capacities for a small document, as for the encoder's own.
        ShapeTable {
            index: HashTable::with_capacity(16),
            entries: Vec::with_capacity(16),
            keys: Vec::with_capacity(64),
            arena: Vec::with_capacity(512),
            max_dedup_shapes: dedup::shape_table_limit(max_dedup_shapes),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Empties the table for another document, keeping its storage, with
    /// this limit.
    pub(crate) fn clear(&mut self, max_dedup_shapes: usize) {
        self.index.clear();
        self.entries.clear();
        self.keys.clear();
        self.arena.clear();
        self.max_dedup_shapes = dedup::shape_table_limit(max_dedup_shapes);
    }

    /// Whether the table's storage is small enough to keep for the next
    /// document (see `crate::encoder::pool`).
    pub(crate) fn small(&self, entries: usize, bytes: usize) -> bool {
        self.index.capacity() <= entries
            && self.entries.capacity() <= entries
            && self.keys.capacity() <= entries
            && self.arena.capacity() <= bytes
    }

    /// How many keys all shapes have together, and the bytes of their text.
    pub(crate) fn keys_len(&self) -> (usize, usize) {
        (self.keys.len(), self.arena.len())
    }

    /// Drops every shape from `shapes` on, whose keys start at `keys` (and
    /// their text at `text_len`): the table is then what it was when it had
    /// `shapes` shapes.
    pub(crate) fn truncate(&mut self, shapes: usize, keys: usize, text_len: usize) {
        // The index holds the lowest-numbered shape of each key sequence, so
        // a shape it keeps has no lower duplicate among those dropped.
        self.index.retain(|&mut s| (s as usize) < shapes);
        self.entries.truncate(shapes);
        self.keys.truncate(keys);
        self.arena.truncate(text_len);
    }

    /// How many keys `shape` has, if it exists.
    pub(crate) fn key_count(&self, shape: u32) -> Option<usize> {
        self.entries.get(shape as usize).map(|e| e.key_count)
    }

    /// Whether a map of `count` keys may be written as a reference to
    /// `shape`: the shape has that many keys, and the reference is shorter
    /// than its header and keys. Gives where its keys start (see
    /// [`ShapeTable::key_at`]).
    #[inline]
    pub(crate) fn referable(&self, shape: u32, count: usize) -> Option<usize> {
        let e = self.entries.get(shape as usize)?;
        (e.key_count == count && e.referable).then_some(e.first_key)
    }

    pub(crate) fn key(&self, shape: u32, i: usize) -> &[u8] {
        self.key_at(self.entries[shape as usize].first_key + i)
    }

    /// A key by its position among all shapes' keys.
    #[inline]
    pub(crate) fn key_at(&self, at: usize) -> &[u8] {
        let Key { start, len, .. } = self.keys[at];
        &self.arena[start..start + len]
    }

    /// Whether the key at position `at` among all shapes' keys is `key`:
    /// lengths, first and last eight bytes first, the rest only if they are
    /// equal and the key is longer than 16 bytes.
    #[inline]
    pub(crate) fn key_at_is(&self, at: usize, key: &[u8]) -> bool {
        key_at_is!(self, at, key)
    }

    /// [`ShapeTable::key_at_is`], always inline: for a struct's field name,
    /// whose length, first and last bytes are constants there, so that the
    /// check compares with constants (and reads the table's copy only for
    /// the middle of a name longer than 16 bytes). The body is shared by a macro, not
    /// by a call: with `key_at_is` calling this, the optimizer pushed the
    /// byte comparison of long map keys out of line, a call per key on the
    /// path of every map.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn key_at_is_inline(&self, at: usize, key: &[u8]) -> bool {
        key_at_is!(self, at, key)
    }

    /// The lowest-numbered shape whose keys are `keys`, if it is below `before`.
    pub(crate) fn find<'k>(
        &self,
        keys: impl Fn(usize) -> &'k [u8],
        count: usize,
        hash: u64,
        before: usize,
    ) -> Option<u32> {
        let &shape = self.index.find(hash, |&s| {
            let e = &self.entries[s as usize];
            e.hash == hash
                && e.key_count == count
                && (0..count).all(|i| same_bytes(self.key(s, i), keys(i)))
        })?;
        ((shape as usize) < before).then_some(shape)
    }

    /// Would an explicit map of `explicit_size` bytes of header and keys
    /// become the next shape (given that its keys qualify)?
    pub(crate) fn takes_next(&self, explicit_size: usize) -> bool {
        dedup::becomes_shape(explicit_size, self.entries.len(), self.max_dedup_shapes)
    }

    /// Registers the next shape. `explicit_size` is the size of its header
    /// and keys as they would be written from now on.
    pub(crate) fn register<'k>(
        &mut self,
        keys: impl Fn(usize) -> &'k [u8],
        count: usize,
        hash: u64,
        explicit_size: usize,
    ) -> u32 {
        let shape = self.entries.len() as u32;
        let first_key = self.keys.len();
        for i in 0..count {
            let k = keys(i);
            self.keys.push(Key {
                start: self.arena.len(),
                len: k.len(),
                head: head(k),
                tail: tail(k),
            });
            self.arena.extend_from_slice(k);
        }
        self.entries.push(Entry {
            hash,
            first_key,
            key_count: count,
            referable: dedup::reference_is_shorter(shape as usize, explicit_size),
        });
        let known = self
            .find(|i| self.key(shape, i), count, hash, shape as usize)
            .is_some();
        if !known {
            let entries = &self.entries;
            self.index
                .insert_unique(hash, shape, |&s| entries[s as usize].hash);
        }
        shape
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strings::hash_bytes;

    fn seq_hash(keys: &[&str]) -> u64 {
        keys.iter()
            .fold(0, |h, k| combine(h, hash_bytes(k.as_bytes())))
    }

    fn register(t: &mut ShapeTable, keys: &[&str]) -> u32 {
        t.register(|i| keys[i].as_bytes(), keys.len(), seq_hash(keys), 10)
    }

    #[test]
    fn a_key_matches_exactly_the_bytes_of_the_shapes_key() {
        // Keys of every length to 20, each against itself, against every
        // one-byte change (at every position), against its prefixes and
        // against itself with a byte more.
        let base: Vec<u8> = (b'a'..).take(21).collect();
        let mut t = ShapeTable::new(100);
        let key = |n: usize| &base[..n];
        let first = t.keys.len();
        t.register(key, 1, 0, 10);
        for n in 1..=20 {
            t.register(|_| key(n), 1, n as u64, 10);
        }
        for n in 0..=20 {
            let at = first + n;
            assert_eq!(t.key_at(at), key(n));
            assert!(t.key_at_is(at, key(n)), "length {n}");
            for i in 0..n {
                let mut other = key(n).to_vec();
                other[i] ^= 0x20;
                assert!(!t.key_at_is(at, &other), "length {n}, byte {i}");
            }
            for m in (0..n).chain([n + 1]) {
                assert!(!t.key_at_is(at, key(m)), "length {n} against {m}");
            }
            // A zero byte does not pass for the padding of a shorter key.
            let mut padded = key(n).to_vec();
            padded.push(0);
            assert!(!t.key_at_is(at, &padded));
        }
        assert!(!t.key_at_is(first + 21, b""), "past the last key");
    }

    #[test]
    fn a_key_sequence_is_found_only_among_earlier_shapes() {
        let mut t = ShapeTable::new(100);
        let ab = ["a", "b"];
        let s = register(&mut t, &ab);
        assert_eq!(t.find(|i| ab[i].as_bytes(), 2, seq_hash(&ab), 1), Some(s));
        assert_eq!(t.find(|i| ab[i].as_bytes(), 2, seq_hash(&ab), 0), None);
        let ba = ["b", "a"];
        assert_eq!(t.find(|i| ba[i].as_bytes(), 2, seq_hash(&ba), 1), None);
    }

    #[test]
    fn a_duplicate_shape_is_numbered_but_lookups_find_the_first() {
        let mut t = ShapeTable::new(100);
        let keys = ["id", "name"];
        assert_eq!(register(&mut t, &keys), 0);
        assert_eq!(register(&mut t, &keys), 1);
        assert_eq!(
            t.find(|i| keys[i].as_bytes(), 2, seq_hash(&keys), 2),
            Some(0)
        );
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn small_maps_do_not_become_shapes() {
        let mut t = ShapeTable::new(100);
        // Shapes 0 to 7 have a one-byte reference: any map of 2 bytes or
        // more would be larger.
        assert!(!t.takes_next(1));
        assert!(t.takes_next(2));
        for i in 0..8 {
            let key = format!("k{i}");
            register(&mut t, &[key.as_str()]);
        }
        // Shape 8 has a two-byte reference.
        assert!(!t.takes_next(2));
        assert!(t.takes_next(3));
        assert!(!ShapeTable::new(0).takes_next(100));
    }
}
