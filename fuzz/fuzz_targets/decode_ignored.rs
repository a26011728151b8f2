//! Arbitrary bytes skipped by `surp` as `serde::de::IgnoredAny`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use surp_fuzz::decode::{Decoder, ignored_target};

fuzz_target!(|data: &[u8]| ignored_target(Decoder::Core, data));
