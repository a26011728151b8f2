//! # surp-py
//!
//! The `surp` Python module: [Surp](../surp/index.html) for Python, built
//! on the `surp` and `surp-dedup` crates with PyO3. It has two functions
//! and two exceptions:
//!
//! ```python
//! import surp
//!
//! data = surp.dumps({"id": 7, "tags": ["a", "b"], "blob": b"\x00\x01"})
//! assert surp.loads(data) == {"id": 7, "tags": ["a", "b"], "blob": b"\x00\x01"}
//! smaller = surp.dumps([{"kind": "push"}] * 100, dedup=True)
//! ```
//!
//! Objects are converted straight to and from the wire: `dumps` hands a
//! `serde::Serialize` view of the object (`ser.rs`) to `surp::Serializer`
//! or `surp_dedup::to_vec`, and `loads` drives a visitor that builds Python
//! objects (`de.rs`) with `surp::Deserializer`. The type mapping, the errors
//! and the limits are described in `surp-py/README.md`.
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

#[cfg(feature = "python")]
mod de;
#[cfg(feature = "python")]
mod error;
#[cfg(feature = "python")]
mod keys;
#[cfg(feature = "python")]
mod module;
#[cfg(feature = "python")]
mod output;
#[cfg(feature = "python")]
mod ser;

#[cfg(feature = "python")]
pub use error::{DecodeError, EncodeError};
