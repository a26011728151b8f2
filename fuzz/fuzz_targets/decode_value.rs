//! Arbitrary bytes decoded by `surp` into a `surp::Value`: ends in `Ok` or a
//! placed `Err`; a value re-encodes and round-trips; slice and reader agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use surp_fuzz::decode::{Decoder, value_target};

fuzz_target!(|data: &[u8]| value_target(Decoder::Core, data));
