//! The keys of a plain document's struct: each compared first with the
//! name of the field expected next.

use serde::de::DeserializeSeed;

use super::{KeyStr, Keys, Name, any_key};
use crate::de::Deserializer;
use crate::error::Result;
use crate::read::Read;
use crate::wire;

/// Keys of a struct in a plain document, read by `deserialize_struct`.
///
/// A derived struct is written with its fields in the order of `fields`
/// (some may be left out), so each key is first compared with the name
/// after the last one matched: a key with exactly those bytes is that name,
/// taken without decoding a string header or checking UTF-8, and the
/// visitor gets the struct's own `&'static str`. Any other key (another
/// order, an unknown field, a long or non-string key, a reader's input) is
/// read like any value, so what the visitor sees is the same either way.
///
/// The comparison: one of the first sixteen fields whose name has at most
/// fifteen bytes is compared as a number, its inline string
/// ([`word`](Self::word)), with the input's next sixteen bytes masked to
/// its length ([`Read::eat_word`]); any other name byte by byte
/// ([`Read::eat_name`]).
pub(super) struct FieldKeys {
    fields: &'static [&'static str],
    /// Where in `fields` the next key is expected.
    next: usize,
}

impl FieldKeys {
    #[inline(always)]
    pub(super) fn new(fields: &'static [&'static str]) -> Self {
        FieldKeys { fields, next: 0 }
    }

    /// The inline string (tag, then text) of field `i` as a little-endian
    /// number, when `i` is one of the first sixteen and the string fits in
    /// sixteen bytes; else 0 (no tag is 0). A derived struct's `fields` is
    /// a constant: each arm folds to a number and the match to a table.
    #[inline(always)]
    fn word(&self, i: usize) -> u128 {
        let w = |k: usize| self.fields.get(k).map_or(0, |name| name_word(name));
        match i {
            0 => w(0),
            1 => w(1),
            2 => w(2),
            3 => w(3),
            4 => w(4),
            5 => w(5),
            6 => w(6),
            7 => w(7),
            8 => w(8),
            9 => w(9),
            10 => w(10),
            11 => w(11),
            12 => w(12),
            13 => w(13),
            14 => w(14),
            15 => w(15),
            _ => 0,
        }
    }
}

/// `name` as an inline string, tag then text, in a little-endian number;
/// 0 when that takes more than sixteen bytes.
#[inline(always)]
fn name_word(name: &str) -> u128 {
    let text = name.as_bytes();
    if text.len() >= 16 {
        return 0;
    }
    let mut word = u128::from(wire::FIXSTR | text.len() as u8);
    for (k, &b) in text.iter().enumerate() {
        word |= u128::from(b) << (8 * (k + 1));
    }
    word
}

impl Keys for FieldKeys {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_key<'de, R: Read<'de>, S: DeserializeSeed<'de>>(
        &mut self,
        de: &mut Deserializer<R>,
        seed: S,
    ) -> Result<S::Value> {
        // A matched name skips the length checks of a string literal, as
        // only strings shorter than `plain_str_bound` may (`max_len`,
        // `max_alloc`).
        let at = de.read.offset();
        if let Some(&name) = self.fields.get(self.next)
            && (name.len() as u64) < de.plain_str_bound
            && match self.word(self.next) {
                0 => de.read.eat_name(name),
                word => de.read.eat_word(word, name.len() + 1),
            }
        {
            self.next += 1;
            let key = KeyStr::new(Name(name), de.opts.max_depth);
            // An error (an unknown field, where the type denies them) is
            // placed at the key's tag.
            return seed.deserialize(key).map_err(|e| e.at(at));
        }
        any_key(de, seed)
    }
}
