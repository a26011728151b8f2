//! The nesting limit of an encoder: one policy for every serde compound
//! kind, shared by `surp` and `surp-dedup`.
//!
//! An encoder counts exactly the nesting tokens that a decoder counts
//! (`docs/spec.md` section 4): array and map headers, and `some` tags. A
//! tuple, tuple struct and sequence are arrays; a struct and a map are maps;
//! an enum variant with content is a one-entry map around its content, so a
//! tuple or struct variant opens two. Whatever an encoder writes within its
//! limit, a decoder with the same limit reads; and since every level of
//! nesting is also a level of recursion in `Serialize`, the limit is what
//! keeps a deeply nested value from overflowing the stack.

use crate::error::{Error, ErrorKind, Result};

/// How many more nesting tokens may open inside the open ones.
#[derive(Clone, Copy, Debug)]
pub struct Depth {
    left: usize,
    max: usize,
}

impl Depth {
    /// A limit of `max` nesting tokens open at once.
    pub const fn new(max: usize) -> Depth {
        Depth { left: max, max }
    }

    /// Opens one nesting token, or fails past the limit.
    ///
    /// The count is stored before it is tested, so that the common case is
    /// one subtraction in place and a branch; the rare failure puts it back.
    ///
    /// The failure calls out of line with the limit only, never with
    /// `self`: a function of another crate given a pointer into the
    /// serializer counts, for the optimizer, as one that may keep it. Every
    /// byte the encoder stores could then change the serializer, whose
    /// output buffer and length would be loaded again after each write.
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        let (left, past) = self.left.overflowing_sub(1);
        self.left = left;
        if past {
            // Nesting deeper than the limit: no token was opened.
            self.left = 0;
            return Err(too_deep(self.max));
        }
        Ok(())
    }

    /// Closes a nesting token opened by [`enter`](Self::enter).
    #[inline]
    pub fn leave(&mut self) {
        self.left += 1;
    }

    /// Checks that one more `Some` fits in a chain of `pending` whose
    /// markers are not written yet (they are, if the chain ends in null:
    /// each is then a `some` tag, a nesting token).
    #[inline]
    pub fn check_some(&self, pending: usize) -> Result<()> {
        if pending < self.left {
            Ok(())
        } else {
            Err(too_deep(self.max))
        }
    }
}

#[cold]
fn too_deep(max: usize) -> Error {
    Error::without_offset(ErrorKind::DepthLimitExceeded(max))
}
