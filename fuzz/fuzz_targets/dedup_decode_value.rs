//! Arbitrary bytes decoded by `surp_dedup` into a `surp::Value` (a control bit
//! puts a deduplication marker in front, so that random bytes are read with
//! the tables on): `Ok` or a placed `Err`, round trips, slice and reader agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use surp_fuzz::decode::{Decoder, value_target};

fuzz_target!(|data: &[u8]| value_target(Decoder::Dedup, data));
