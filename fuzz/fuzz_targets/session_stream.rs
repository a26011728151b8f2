//! Sessions (`docs/spec.md` section 9.1): arbitrary headers and session
//! documents read by a `SessionDecoder` within a small budget, and by the
//! tokio codec, which must agree; and arbitrary values, resets and
//! dictionaries encoded by a `SessionEncoder`, which the decoder must give
//! back (see `surp_fuzz::session`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use surp_fuzz::session::session_target;

fuzz_target!(|data: &[u8]| session_target(data));
