//! Arbitrary bytes decoded by `surp_dedup` into derived structs covering the
//! serde data model, owned (slice or reader) and borrowing (slice).
#![no_main]

use libfuzzer_sys::fuzz_target;
use surp_fuzz::decode::{Decoder, typed_target};

fuzz_target!(|data: &[u8]| typed_target(Decoder::Dedup, data));
