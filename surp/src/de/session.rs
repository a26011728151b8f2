//! Tables that outlive one document (`docs/spec.md` section 9): a
//! session's, which carry over from message to message within a budget,
//! starting from an initial state that a dictionary may fill.
//!
//! A message's value is decoded by the ordinary [`Deserializer`], lent the
//! tables, over an input ([`SessionRead`]) that copies the strings it keeps
//! into the session's own store, so that they outlive the input. When the
//! message ends, the tables tumble back to the initial state if it took them
//! past the budget.

use serde::de::DeserializeSeed;

use super::Deserializer;
use super::tables::{Dictionary, Mark};
use crate::Options;
use crate::error::Result;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::read::{OwnedStrings, SessionRead};
use crate::session::Budget;

/// The tables of a session or of a dictionary's documents, on the
/// decoder's side.
#[derive(Debug)]
pub struct SessionTables {
    /// Always `Some` between calls; lent to the decoder during one.
    dict: Option<Box<Dictionary>>,
    /// The text of every string the tables name.
    owned: OwnedStrings,
    opts: Options,
    /// The tables' initial state (a dictionary's entries, or nothing), and
    /// the bytes of `owned` it takes.
    initial: Mark,
    initial_owned: usize,
    budget: Budget,
    /// What the entries added since the initial state count against the
    /// budget's bytes.
    added: usize,
}

impl SessionTables {
    /// Empty tables that decode with `opts` and tumble past `budget`.
    pub fn new(opts: Options, budget: Budget) -> SessionTables {
        let dict = Dictionary::new(opts.max_dedup_strings, opts.max_dedup_shapes);
        SessionTables {
            initial: dict.mark(),
            dict: Some(Box::new(dict)),
            owned: OwnedStrings::default(),
            opts,
            initial_owned: 0,
            budget,
            added: 0,
        }
    }

    /// Makes these strings and shapes the initial state (a dictionary's,
    /// already checked by `session::check_dictionary`): the tables start
    /// from them, and return to them when they tumble or are reset.
    pub fn set_initial<'k, K: AsRef<[&'k str]>>(&mut self, strings: &[&str], shapes: &[K]) {
        let owned = &mut self.owned;
        owned.truncate(0);
        let dict = self
            .dict
            .as_deref_mut()
            .expect("the tables are back after every call");
        dict.truncate(Mark::default());
        for s in strings {
            dict.push_string(owned.push(s));
        }
        for keys in shapes {
            let keys: Vec<_> = keys.as_ref().iter().map(|k| owned.push(k)).collect();
            dict.push_shape(&keys);
        }
        self.initial = dict.mark();
        self.initial_owned = owned.len();
        self.added = 0;
    }

    /// Returns the tables to their initial state.
    pub fn reset(&mut self) {
        let initial = self.initial;
        self.dict_mut().truncate(initial);
        self.owned.truncate(self.initial_owned);
        self.added = 0;
    }

    fn dict(&self) -> &Dictionary {
        self.dict
            .as_deref()
            .expect("the tables are back after every call")
    }

    fn dict_mut(&mut self) -> &mut Dictionary {
        self.dict
            .as_deref_mut()
            .expect("the tables are back after every call")
    }

    /// Decodes the value at `value_at` in `input` (a session message or a
    /// dictionary document: error offsets count from `input`'s first byte)
    /// through `seed` (`PhantomData::<T>` for a `Deserialize` type) against
    /// the tables, which then keep what it added when `keep` is true (a
    /// session message), tumbling if that takes them past the budget, and
    /// return to their initial state otherwise.
    ///
    /// Returns the value and whether the tables tumbled. After an error the
    /// tables are in no defined state: [`SessionTables::reset`] them.
    pub fn decode<'de, S: DeserializeSeed<'de>>(
        &mut self,
        input: &'de [u8],
        value_at: usize,
        keep: bool,
        seed: S,
    ) -> Result<(S::Value, bool)> {
        let start = self.dict().mark();
        // The tables are lent to the decoder for the message.
        let dict = self
            .dict
            .take()
            .expect("the tables are back after every call");
        let read = SessionRead::new(input, value_at, &mut self.owned);
        let mut de = Deserializer::new(read, self.opts.clone());
        de.begin_with_tables(0, value_at, dict);
        let result = seed
            .deserialize(&mut de)
            .and_then(|value| de.end().map(|()| value));
        self.dict = Some(
            de.dict
                .take()
                .expect("the decoder keeps the tables it was lent"),
        );
        let value = result?;
        if !keep {
            self.reset();
            return Ok((value, false));
        }
        self.added = self.added.saturating_add(self.dict().charge_since(start));
        let now = self.dict().mark();
        let over = self.budget.exceeded_by(
            now.strings - self.initial.strings,
            now.shapes - self.initial.shapes,
            self.added,
        );
        if over {
            self.reset();
        } else {
            self.drop_unnamed();
        }
        Ok((value, over))
    }

    /// The input keeps the keys of every explicit map, though only those of
    /// maps that became shapes stay named. The strings the tables name take
    /// no more bytes than they are charged (`added`), so when the store is
    /// past twice that, it keeps only what is named: its size stays within
    /// three times the charge, and compacting costs no more than the bytes
    /// it drops.
    fn drop_unnamed(&mut self) {
        let from = self.initial_owned;
        if self.owned.len() - from > 2 * self.added + 4096 {
            let dict = self
                .dict
                .as_deref_mut()
                .expect("the tables are back after every call");
            self.owned.compact(from, dict.kept_mut());
        }
    }

    /// How many string slots and shapes the tables hold beyond their
    /// initial state, and what those count against the budget's bytes.
    pub fn usage(&self) -> (usize, usize, usize) {
        let now = self.dict().mark();
        (
            now.strings - self.initial.strings,
            now.shapes - self.initial.shapes,
            self.added,
        )
    }
}
