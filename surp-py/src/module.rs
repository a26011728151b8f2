//! The module itself: `dumps`, `loads`, and the `surp` module object.
//!
//! Both functions run their body under [`guarded`]: a Rust panic (a bug)
//! becomes a Surp exception, never pyo3's `PanicException`.

use std::panic::{self, AssertUnwindSafe};

use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyModule};

use crate::error::{DecodeError, EncodeError, encode_error, internal_decode_error, type_name};
use crate::{de, dictionary, frame, output, ser, session};

/// Encodes `obj` as a Surp document.
///
/// With `dedup=True`, repeated strings and dict key sets are written as
/// back-references (never larger than without). `default`, if given, is
/// called with each object of a type Surp cannot write, and what it returns
/// is encoded in its place; what it raises, `dumps` raises. Raises
/// `EncodeError` (a `TypeError`) for a value Surp cannot hold, with `.path`
/// naming where it is.
#[pyfunction]
#[pyo3(signature = (obj, /, *, dedup = false, default = None))]
fn dumps<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    dedup: bool,
    default: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    check_default(default.as_ref(), "dumps()")?;
    guarded(
        py,
        || encode(py, obj, dedup, default),
        |message| encode_error(py, &format!("internal error ({message})"), "$"),
    )
}

fn encode<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    dedup: bool,
    default: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    if dedup {
        // The deduplicating encoder builds its document in a Vec of its own
        // (it rewrites maps once it has seen their keys).
        return ser::Encoder::new(py, default)
            .run(obj, |value| surp_dedup::to_vec(value))
            .and_then(|bytes| output::new_bytes(py, &bytes));
    }
    let encoder = ser::Encoder::new(py, default);
    let value = encoder.wrap(obj);
    // The fast path first; what it stops at (another type, for default=
    // or an error, and the rare cases listed in `write`) is encoded again
    // with serde, which reports errors with their path. (PyPy and GraalPy
    // have only the serde path: see lib.rs.)
    #[cfg(not(any(PyPy, GraalPy)))]
    {
        use crate::write;
        let mut out = output::BytesOutput::new(py);
        match write::write(obj, &mut out) {
            Ok(()) => return out.finish(),
            Err(write::Stop::Python(err)) => return Err(err),
            Err(write::Stop::Slow) => drop(out),
        }
    }
    let mut ser = surp::Serializer::new(output::BytesOutput::new(py));
    let encoded = serde::Serialize::serialize(&value, &mut ser);
    let mut out = ser.into_inner();
    match encoded {
        Ok(()) => out.finish(),
        Err(err) => Err(out
            .take_python_error()
            .unwrap_or_else(|| encoder.into_error(err))),
    }
}

/// Decodes a Surp document (plain or deduplicated) from `bytes`,
/// `bytearray`, `memoryview` or any other byte buffer.
///
/// Raises `DecodeError` (a `ValueError`) for malformed input, with
/// `.offset` the byte offset where decoding stopped and `.kind` the kind of
/// error.
#[pyfunction]
#[pyo3(signature = (data, /))]
fn loads<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    guarded(
        py,
        || decode(py, data),
        |message| internal_decode_error(py, &message),
    )
}

fn decode<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let decoder = de::Decoder::new(py);
    with_input(py, data, "loads()", |input| decoder.decode(input))
}

/// Fails unless `default`, given to the function named `what`, is absent
/// or callable.
pub(crate) fn check_default(default: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<()> {
    match default {
        Some(default) if !default.is_callable() => Err(PyTypeError::new_err(format!(
            "{what} default= must be callable"
        ))),
        _ => Ok(()),
    }
}

/// Why an option's value is not a whole number of at least 0.
pub(crate) enum NotWhole {
    /// It is not an `int`, or it is a `bool`.
    Type,
    /// It is below 0.
    Negative,
}

/// An option's value (a budget part, a frame limit) as a whole number of
/// at least 0, saturated at `u64::MAX`; the outer error is one Python
/// raised while comparing it.
pub(crate) fn whole_number(value: &Bound<'_, PyAny>) -> PyResult<Result<u64, NotWhole>> {
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Ok(Err(NotWhole::Type));
    }
    if value.lt(0)? {
        return Ok(Err(NotWhole::Negative));
    }
    Ok(Ok(value.extract::<u64>().unwrap_or(u64::MAX)))
}

/// Runs `decode` on the bytes of `data`, which the function named `what`
/// was given: `bytes` in place, any other byte buffer as a copy.
pub(crate) fn with_input<T>(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    what: &str,
    decode: impl FnOnce(&[u8]) -> PyResult<T>,
) -> PyResult<T> {
    if let Ok(bytes) = data.cast_exact::<PyBytes>() {
        // bytes are immutable and `data` keeps them alive: decode in place.
        return decode(bytes.as_bytes());
    }
    // Other buffers are mutable: a finalizer run by the garbage collector
    // while objects are built could change them, so decode a copy.
    decode(&input_copy(py, data, what)?)
}

/// A copy of the bytes of `data`, a byte buffer other than `bytes` (a
/// `TypeError` naming the function `what` for anything else).
pub(crate) fn input_copy(py: Python<'_>, data: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    let buffer = pyo3::buffer::PyBuffer::<u8>::get(data).map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} takes bytes, bytearray or memoryview, not '{}'",
            type_name(data)
        ))
    })?;
    // Reserved fallibly: a copy that does not fit in memory is a MemoryError
    // (PyBuffer::to_vec would abort the process).
    let len = buffer.item_count();
    let mut copy = Vec::new();
    copy.try_reserve_exact(len).map_err(|_| {
        PyMemoryError::new_err(format!("no memory for a copy of the {len}-byte input"))
    })?;
    copy.resize(len, 0);
    buffer.copy_to_slice(py, &mut copy)?;
    Ok(copy)
}

/// Runs `body`; if it panics, returns `error` of the panic's message, or
/// the `MemoryError` the panic left pending (pyo3's compatibility
/// `PyBytesWriter` asserts after a failed resize).
///
/// A panic is a bug, but it must reach Python as one of the module's
/// exceptions: pyo3 would raise `PanicException`, a `BaseException` that
/// `except Exception` does not catch. Unwinding drops what the call made
/// (Python references, the key cache's lock, which `KeyCache::lock`
/// accepts poisoned), so nothing is left half-done that a later call sees.
pub(crate) fn guarded<T>(
    py: Python<'_>,
    body: impl FnOnce() -> PyResult<T>,
    error: impl FnOnce(String) -> PyErr,
) -> PyResult<T> {
    guarded_or_panicked(py, body, error).0
}

/// [`guarded`], saying also whether `body` panicked: a caller that keeps
/// state from one call to the next (a session's tables) must then not
/// trust it.
pub(crate) fn guarded_or_panicked<T>(
    py: Python<'_>,
    body: impl FnOnce() -> PyResult<T>,
    error: impl FnOnce(String) -> PyErr,
) -> (PyResult<T>, bool) {
    match panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => (result, false),
        Err(payload) => {
            if let Some(pending) = PyErr::take(py)
                && pending.is_instance_of::<PyMemoryError>(py)
            {
                return (Err(pending), true);
            }
            let message = if let Some(text) = payload.downcast_ref::<&str>() {
                (*text).to_owned()
            } else if let Some(text) = payload.downcast_ref::<String>() {
                text.clone()
            } else {
                "a panic".to_owned()
            };
            (Err(error(message)), true)
        }
    }
}

/// Surp: a compact, fast, self-describing binary serialization format.
///
/// `dumps(obj, *, dedup=False, default=None) -> bytes` and
/// `loads(data) -> object`; sessions (`SessionEncoder`, `SessionDecoder`),
/// `Dictionary`, and frames for streams (`frame`, `read_frames`,
/// `read_frame`, `FrameReader`); errors are `DecodeError` (a `ValueError`)
/// and `EncodeError` (a `TypeError`).
//
// `gil_used = true`: the module needs the GIL, and asks a free-threaded
// interpreter to turn it back on when it is imported. Since PyO3 0.28 a
// plain `#[pymodule]` declares the opposite. The fast path of `dumps`
// (`write.rs`) reads list items, tuple items and dict entries as borrowed
// references, and the serde path (`ser.rs`) takes `PyDict_Next`'s borrowed
// entries before it increfs them: both are sound only because no other
// code runs meanwhile, which is what the GIL guarantees and free threading
// does not (another thread could shrink the list or clear the dict, and
// free an item in between).
#[pymodule(gil_used = true)]
#[pyo3(name = "surp")]
fn surp_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(dumps, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_class::<session::SessionEncoder>()?;
    m.add_class::<session::SessionDecoder>()?;
    m.add_class::<dictionary::Dictionary>()?;
    m.add_function(wrap_pyfunction!(frame::frame, m)?)?;
    m.add_function(wrap_pyfunction!(frame::read_frames, m)?)?;
    m.add_function(wrap_pyfunction!(frame::read_frame, m)?)?;
    m.add_class::<frame::FrameReader>()?;
    m.add("DEFAULT_MAX_FRAME_LEN", surp::frame::DEFAULT_MAX_FRAME_LEN)?;
    m.add("DEFAULT_BUDGET", session::default_budget())?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("EncodeError", py.get_type::<EncodeError>())?;
    m.add("FORMAT_VERSION", surp::FORMAT_VERSION)?;
    m.add("MAX_DEPTH", ser::MAX_DEPTH)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

// The tests run an embedded interpreter, which pyo3 offers for CPython only.
#[cfg(all(test, not(any(PyPy, GraalPy))))]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_the_given_exception() {
        Python::initialize();
        Python::attach(|py| {
            let err = guarded(
                py,
                || -> PyResult<()> { panic!("index {} out of range", 3) },
                |message| internal_decode_error(py, &message),
            )
            .unwrap_err();
            assert!(err.is_instance_of::<DecodeError>(py));
            assert_eq!(
                err.value(py).to_string(),
                "internal error in the decoder (index 3 out of range); please report it"
            );
            let kind: String = err.value(py).getattr("kind").unwrap().extract().unwrap();
            assert_eq!(kind, "Internal");

            let err = guarded(
                py,
                || -> PyResult<()> { panic!("static text") },
                |message| encode_error(py, &format!("internal error ({message})"), "$"),
            )
            .unwrap_err();
            assert!(err.is_instance_of::<EncodeError>(py));
            assert_eq!(
                err.value(py).to_string(),
                "internal error (static text) at $"
            );
        });
    }

    #[test]
    fn a_panic_with_a_memory_error_pending_is_that_memory_error() {
        Python::initialize();
        Python::attach(|py| {
            let err = guarded(
                py,
                || -> PyResult<()> {
                    PyMemoryError::new_err("no room").restore(py);
                    panic!("assertion failed: !obj.is_null()")
                },
                |message| internal_decode_error(py, &message),
            )
            .unwrap_err();
            assert!(err.is_instance_of::<PyMemoryError>(py));
            assert_eq!(err.value(py).to_string(), "no room");
            assert!(PyErr::take(py).is_none());
        });
    }

    #[test]
    fn without_a_panic_the_result_passes_through() {
        Python::initialize();
        Python::attach(|py| {
            let ok = guarded(py, || Ok(7), |message| internal_decode_error(py, &message));
            assert_eq!(ok.unwrap(), 7);
            let err = guarded(
                py,
                || -> PyResult<()> { Err(PyTypeError::new_err("kept")) },
                |message| internal_decode_error(py, &message),
            )
            .unwrap_err();
            assert!(err.is_instance_of::<PyTypeError>(py));
        });
    }
}
