//! Hostile input: every malformed, truncated or oversized document gives an
//! `Err` with a byte offset inside the input, and never a panic, a stack
//! overflow or a hang. (Truncation of every test vector is in `vectors.rs`,
//! next to the vectors; allocation bounds are in `alloc_bound.rs`.)
//!
//! One module per kind of hostile input; the two checks every module makes
//! are here.

#[path = "../common/mod.rs"]
mod common;

mod corruption;
mod dedup;
mod lengths;
mod limits;
mod nesting;
mod trailing;
mod utf8;

use serde::de::DeserializeOwned;
use surp::{Error, Options};

/// Unwraps the error and checks it points inside the input (the end of the
/// input counts: that is where a missing byte was expected).
#[track_caller]
fn error_within<T: std::fmt::Debug>(result: surp::Result<T>, input: &[u8]) -> Error {
    let err = result.expect_err("hostile input was accepted");
    let offset = err.offset().unwrap_or_else(|| panic!("no offset: {err}"));
    assert!(
        offset <= input.len(),
        "offset {offset} past the input's {} bytes: {err}",
        input.len()
    );
    err
}

/// Decodes `input` with `opts` from a slice and from a reader, as `T`.
fn both<T: DeserializeOwned>(opts: &Options, input: &[u8]) -> [surp::Result<T>; 2] {
    [opts.from_slice(input), opts.from_reader(input)]
}
