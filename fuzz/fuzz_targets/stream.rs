//! Arbitrary bytes read by `surp` as a stream of documents: slice and
//! reader agree document by document, errors are placed, and what decodes
//! round-trips as a stream and as frames (see `surp_fuzz::stream`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use surp_fuzz::stream::stream_target;

fuzz_target!(|data: &[u8]| stream_target(data));
