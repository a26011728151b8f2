//! # surp-py
//!
//! The `surp` Python module: [Surp](../surp/index.html) for Python, built
//! on the `surp` and `surp-dedup` crates with PyO3. It has two functions,
//! two exceptions, the two classes of sessions (`SessionEncoder`,
//! `SessionDecoder`), `Dictionary`, and the frames of streams (`frame.rs`):
//!
//! ```python
//! import surp
//!
//! data = surp.dumps({"id": 7, "tags": ["a", "b"], "blob": b"\x00\x01"})
//! assert surp.loads(data) == {"id": 7, "tags": ["a", "b"], "blob": b"\x00\x01"}
//! smaller = surp.dumps([{"kind": "push"}] * 100, dedup=True)
//! ```
//!
//! Objects are converted straight to and from the wire. `dumps` walks the
//! object with CPython's C API and writes Surp into the `bytes` object it
//! returns (`write.rs`, `output.rs`); `loads` reads a plain document with a
//! reader that builds the Python objects as it goes (`read.rs`). Both are
//! fast paths over the serde ones, which stay the reference (and are the
//! only paths on PyPy and GraalPy, whose C APIs lack the macros and object
//! layouts the fast paths read): a
//! `serde::Serialize` view of the object (`ser.rs`) handed to
//! `surp::Serializer` or `surp_dedup::to_vec`, and a visitor that builds
//! Python objects (`de.rs`) for `surp::Deserializer`. Whatever a fast path
//! does not handle (`default=`, errors, deduplicated documents, rare
//! values) is done again on the serde path, so the output and the errors
//! are the same either way. The type mapping, the errors and the limits are
//! described in `surp-py/README.md`.
//!
//! ## The `python` feature
//!
//! Everything here needs a Python interpreter to build (PyO3 asks one for
//! its version and where libpython is), so it is behind the `python`
//! feature, which maturin turns on (`pyproject.toml`). Without it the crate
//! is empty, and `cargo test --workspace` passes on a machine with no
//! Python. Build the module with maturin (`maturin develop --release` in
//! `surp-py/`); `cargo test -p surp-py --features python` runs the Rust unit
//! tests, linked to libpython.

//!
//! ## Unsafe code
//!
//! Unsafe code is denied in the crate and allowed by name in the modules
//! that call CPython directly, where the speed is: `write` and `read` (the
//! fast paths of `dumps` and `loads`), `output` (the `bytes` object that
//! `dumps` fills), `de` (lists filled in place) and `ser` (`PyDict_Next`);
//! and in `copy`, which copies long byte runs in pieces.
//! Every unsafe block says why it is sound in a `SAFETY:` comment (clippy's
//! `undocumented_unsafe_blocks` holds it to that).
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

// Copies of long byte runs; not built without the module (it would be
// dead code).
#[cfg(feature = "python")]
#[allow(unsafe_code)]
mod copy;
#[cfg(feature = "python")]
#[allow(unsafe_code)]
mod de;
#[cfg(feature = "python")]
mod dictionary;
#[cfg(feature = "python")]
mod error;
#[cfg(feature = "python")]
mod frame;
#[cfg(feature = "python")]
mod keys;
#[cfg(feature = "python")]
mod module;
#[cfg(feature = "python")]
#[allow(unsafe_code)]
mod output;
// The fast paths read CPython's objects in place (macros and layouts that
// PyPy and GraalPy do not have); there, only the serde paths are built.
#[cfg(all(feature = "python", not(any(PyPy, GraalPy))))]
#[allow(unsafe_code)]
mod read;
#[cfg(feature = "python")]
#[allow(unsafe_code)]
mod ser;
#[cfg(feature = "python")]
mod session;
#[cfg(all(feature = "python", not(any(PyPy, GraalPy))))]
#[allow(unsafe_code)]
mod write;

#[cfg(feature = "python")]
pub use error::{DecodeError, EncodeError};
