//! Tables that outlive one document (`docs/spec.md` section 9): a
//! session's, which carry over from message to message within a budget,
//! starting from an initial state that a dictionary may fill.
//!
//! A message's value is decoded by the ordinary [`Deserializer`], lent the
//! tables. During the message, new strings are kept by the input, as in
//! any deduplicated document; when it ends, the tables copy them
//! ([`Dictionary::own_since`]), so that they outlive the input, and tumble
//! back to the initial state if the message took them past the budget.

use serde::de::Deserialize;

use super::Deserializer;
use super::tables::{Dictionary, Mark};
use crate::Options;
use crate::error::Result;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::read::{Read, Reference, SliceRead};
use crate::session::Budget;

/// The tables of a session or of a dictionary's documents, on the
/// decoder's side.
#[derive(Debug)]
pub struct SessionTables {
    dict: Box<Dictionary>,
    opts: Options,
    /// The tables' initial state (a dictionary's entries, or nothing).
    initial: Mark,
    budget: Budget,
    /// What the entries added since the initial state count against the
    /// budget's bytes.
    added: usize,
}

impl SessionTables {
    /// Empty tables that decode with `opts` and tumble past `budget`.
    pub fn new(opts: Options, budget: Budget) -> SessionTables {
        let dict = Box::new(Dictionary::new(
            opts.max_dedup_strings,
            opts.max_dedup_shapes,
        ));
        let initial = dict.mark();
        SessionTables {
            dict,
            opts,
            initial,
            budget,
            added: 0,
        }
    }

    /// Makes these strings and shapes the initial state (a dictionary's,
    /// already checked by `session::check_dictionary`): the tables start
    /// from them, and return to them when they tumble or are reset.
    pub fn set_initial<'k, K: AsRef<[&'k str]>>(&mut self, strings: &[&str], shapes: &[K]) {
        self.dict.truncate(Mark::default());
        for s in strings {
            self.dict.push_owned_string(s);
        }
        for keys in shapes {
            self.dict.push_owned_shape(keys.as_ref().iter().copied());
        }
        self.initial = self.dict.mark();
        self.added = 0;
    }

    /// Returns the tables to their initial state.
    pub fn reset(&mut self) {
        self.dict.truncate(self.initial);
        self.added = 0;
    }

    /// Decodes the value at `value_at` in `input` (a session message or a
    /// dictionary document: error offsets count from `input`'s first byte)
    /// against the tables, which then keep what it added when `keep` is
    /// true (a session message), tumbling if that takes them past the
    /// budget, and return to their initial state otherwise.
    ///
    /// Returns the value and whether the tables tumbled. After an error the
    /// tables are in no defined state: [`SessionTables::reset`] them.
    pub fn decode<'de, T: Deserialize<'de>>(
        &mut self,
        input: &'de [u8],
        value_at: usize,
        keep: bool,
    ) -> Result<(T, bool)> {
        let start = self.dict.mark();
        // The tables are lent to the decoder for the message; an empty
        // dictionary (which allocates nothing) stands in for them meanwhile.
        let dict = core::mem::take(&mut self.dict);
        let mut de = Deserializer::with_tables(input, value_at, self.opts.clone(), dict);
        let result = T::deserialize(&mut de).and_then(|value| de.end().map(|()| value));
        let Deserializer { read, dict, .. } = de;
        self.dict = dict.expect("the decoder keeps the tables it was lent");
        let value = result?;
        if !keep {
            self.dict.truncate(self.initial);
            return Ok((value, false));
        }
        let charge = self
            .dict
            .own_since(start, |kept| match read.recall_str(kept) {
                Reference::Borrowed(s) => s,
                Reference::Copied(_) => unreachable!("a slice lends its own strings"),
            });
        self.added = self.added.saturating_add(charge);
        let now = self.dict.mark();
        let over = now.strings - self.initial.strings > self.budget.strings as usize
            || now.shapes - self.initial.shapes > self.budget.shapes as usize
            || self.added > self.budget.bytes as usize;
        if over {
            self.reset();
        }
        Ok((value, over))
    }

    /// How many string slots and shapes the tables hold beyond their
    /// initial state, and what those count against the budget's bytes.
    pub fn usage(&self) -> (usize, usize, usize) {
        let now = self.dict.mark();
        (
            now.strings - self.initial.strings,
            now.shapes - self.initial.shapes,
            self.added,
        )
    }
}

impl<'de> Deserializer<SliceRead<'de>> {
    /// Decodes the value at `value_at` in `input` against `dict`, which the
    /// document's first byte (offset 0, its prefix) does not reset.
    fn with_tables(
        input: &'de [u8],
        value_at: usize,
        opts: Options,
        dict: Box<Dictionary>,
    ) -> Self {
        let mut de = Deserializer::new(SliceRead::at(input, value_at), opts);
        de.begin_with_tables(0, value_at, dict);
        de
    }
}
