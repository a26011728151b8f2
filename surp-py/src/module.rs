//! The module itself: `dumps`, `loads`, and the `surp` module object.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyModule};

use crate::error::{DecodeError, EncodeError};
use crate::{de, output, ser};

/// Encodes `obj` as a Surp document.
///
/// With `dedup=True`, repeated strings and dict key sets are written as
/// back-references (never larger than without). Raises `EncodeError` (a
/// `TypeError`) for a value Surp cannot hold, with `.path` naming where it
/// is.
#[pyfunction]
#[pyo3(signature = (obj, /, *, dedup = false))]
fn dumps<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    dedup: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let encoder = ser::Encoder::new(py);
    let value = encoder.wrap(obj);
    if dedup {
        // The deduplicating encoder builds its document in a Vec of its own
        // (it rewrites maps once it has seen their keys).
        return match surp_dedup::to_vec(&value) {
            Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
            Err(err) => Err(encoder.into_error(err)),
        };
    }
    let mut failure = None;
    let result = PyBytes::new_with_writer(py, 0, |writer| {
        let mut ser = surp::Serializer::new(output::BytesOutput::new(writer));
        let encoded = serde::Serialize::serialize(&value, &mut ser);
        let mut out = ser.into_inner();
        let encoded = encoded.and_then(|()| out.flush());
        encoded.map_err(|err| {
            out.take_python_error().unwrap_or_else(|| {
                failure = Some(err);
                // Replaced by the EncodeError below.
                PyTypeError::new_err("")
            })
        })
    });
    match failure {
        Some(err) => Err(encoder.into_error(err)),
        None => result,
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
    let decoder = de::Decoder::new(py);
    if let Ok(bytes) = data.cast_exact::<PyBytes>() {
        // bytes are immutable and `data` keeps them alive: decode in place.
        return decoder.decode(bytes.as_bytes());
    }
    // Other buffers are mutable: a finalizer run by the garbage collector
    // while objects are built could change them, so decode a copy.
    let copy = pyo3::buffer::PyBuffer::<u8>::get(data)
        .and_then(|buffer| buffer.to_vec(py))
        .map_err(|_| {
            let type_name = data
                .get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string());
            PyTypeError::new_err(format!(
                "loads() takes bytes, bytearray or memoryview, not '{type_name}'"
            ))
        })?;
    decoder.decode(&copy)
}

/// Surp: a compact, fast, self-describing binary serialization format.
///
/// `dumps(obj, *, dedup=False) -> bytes` and `loads(data) -> object`;
/// errors are `DecodeError` (a `ValueError`) and `EncodeError` (a
/// `TypeError`).
#[pymodule]
#[pyo3(name = "surp")]
fn surp_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(dumps, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("EncodeError", py.get_type::<EncodeError>())?;
    m.add("FORMAT_VERSION", surp::FORMAT_VERSION)?;
    m.add("MAX_DEPTH", ser::MAX_DEPTH)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
