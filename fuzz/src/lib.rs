//! Shared pieces of the Surp fuzz targets.
//!
//! Every decode target reads one [`Control`] byte and then a document: the
//! control byte chooses the limits, the input path (slice, reader, a reader
//! that returns one byte per call) and whether a deduplication marker is put
//! in front, so that one corpus exercises the limit paths and both inputs.
//! The structured targets build a [`surp::Value`] or a [`Record`] from the
//! fuzzer's bytes with the `arbitrary` crate instead.
//!
//! The library does not use libFuzzer, so `examples/write_seeds.rs` builds on
//! the pinned stable toolchain; the targets in `fuzz_targets/` need nightly.

pub mod control;
pub mod decode;
pub mod record;
pub mod session;
pub mod stream;
pub mod value;

pub use control::Control;
pub use record::{Borrowing, Record};
pub use value::{ArbValue, UnknownLengths, same_bits};
