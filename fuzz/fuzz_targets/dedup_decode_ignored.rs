//! Arbitrary bytes skipped by `surp_dedup` as `serde::de::IgnoredAny`: a
//! deduplicated document must be walked, since skipped strings take slots.
#![no_main]

use libfuzzer_sys::fuzz_target;
use surp_fuzz::decode::{Decoder, ignored_target};

fuzz_target!(|data: &[u8]| ignored_target(Decoder::Dedup, data));
