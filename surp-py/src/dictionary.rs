//! Dictionaries (`docs/spec.md` section 9.2): `surp.Dictionary`, the bytes
//! of `surp_dedup::Dictionary`'s, for documents that must stand alone yet
//! refer to strings and key sets agreed out of band, and for sessions that
//! start from them.
//!
//! Like the session classes, each call runs under [`guarded`]. A panic (a
//! bug) in the middle of a document leaves the kept encoder and decoder in
//! no known state, so both are then built again from the dictionary.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use surp_dedup::{DictionaryDecoder, DictionaryEncoder};

use crate::error::{decode_error, encode_error, internal_decode_error};
use crate::module::{check_default, guarded, guarded_or_panicked, with_input};
use crate::output::new_bytes;
use crate::{de, ser};

/// Strings and dict key sets agreed out of band: a document written with
/// one refers to them without writing them, and names the dictionary by
/// its `id`, so only a reader with the same dictionary reads it.
///
/// `Dictionary(strings, shapes)` checks them by the rules of the spec;
/// `Dictionary.from_bytes(stored)` reads what `to_bytes()` wrote, and
/// `Dictionary.from_samples(values)` learns one from sample objects (the
/// strings and key sets that occur at least twice, as Rust's
/// `Dictionary::from_samples`). `encode(obj)` and `decode(data)` write and
/// read dictionary documents; `SessionEncoder(dictionary=...)` and
/// `SessionDecoder(dictionary=...)` start a session from it.
#[pyclass(module = "surp", frozen)]
pub(crate) struct Dictionary {
    pub(crate) inner: surp_dedup::Dictionary,
    /// The encoder and decoder kept for `encode` and `decode`, so that the
    /// tables are built once.
    kept: std::sync::Mutex<Kept>,
}

struct Kept {
    encoder: DictionaryEncoder,
    decoder: DictionaryDecoder,
}

impl Dictionary {
    fn new_from(inner: surp_dedup::Dictionary) -> Dictionary {
        Dictionary {
            kept: std::sync::Mutex::new(Kept::of(&inner)),
            inner,
        }
    }
}

impl Kept {
    fn of(dictionary: &surp_dedup::Dictionary) -> Kept {
        Kept {
            encoder: dictionary.encoder(),
            decoder: dictionary.decoder(surp::Options::new()),
        }
    }
}

#[pymethods]
impl Dictionary {
    /// An invalid dictionary is a `DecodeError` of kind `Session`
    /// (`.session` is `InvalidDictionary`), as the vectors name it; so is
    /// stored bytes that hold none (`from_bytes`).
    #[new]
    fn new(py: Python<'_>, strings: Vec<String>, shapes: Vec<Vec<String>>) -> PyResult<Self> {
        surp_dedup::Dictionary::new(&strings, &shapes)
            .map(Dictionary::new_from)
            .map_err(|e| decode_error(py, &e))
    }

    /// Reads a dictionary stored by `to_bytes()` (exactly those bytes: the
    /// id is their hash).
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        with_input(py, data, "Dictionary.from_bytes()", |input| {
            surp_dedup::Dictionary::from_bytes(input).map_err(|e| decode_error(py, &e))
        })
        .map(Dictionary::new_from)
    }

    /// Learns a dictionary from a list of sample objects.
    #[staticmethod]
    #[pyo3(signature = (samples, /, *, default = None))]
    fn from_samples(
        py: Python<'_>,
        samples: &Bound<'_, PyList>,
        default: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        check_default(default.as_ref(), "Dictionary.from_samples()")?;
        let items: Vec<Bound<'_, PyAny>> = samples.iter().collect();
        guarded(
            py,
            || {
                let encoder = ser::Encoder::new(py, default);
                let wrapped: Vec<_> = items.iter().map(|item| encoder.wrap(item)).collect();
                match surp_dedup::Dictionary::from_samples(&wrapped) {
                    Ok(inner) => Ok(Dictionary::new_from(inner)),
                    Err(err) => {
                        drop(wrapped);
                        Err(encoder.into_error(err))
                    }
                }
            },
            |message| encode_error(py, &format!("internal error ({message})"), "$"),
        )
    }

    /// The stored form: a plain Surp document (`surp.loads` reads it).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        new_bytes(py, self.inner.to_bytes())
    }

    /// The id: the 64-bit FNV-1a hash of `to_bytes()`.
    #[getter]
    fn id(&self) -> u64 {
        self.inner.id()
    }

    /// The strings, which take string slots 0, 1, … in order.
    #[getter]
    fn strings(&self) -> Vec<&str> {
        self.inner.strings().collect()
    }

    /// The key sets, shapes 0, 1, … in order.
    #[getter]
    fn shapes(&self) -> Vec<Vec<String>> {
        self.inner.shapes().map(<[String]>::to_vec).collect()
    }

    /// Encodes `obj` as a dictionary document.
    #[pyo3(signature = (obj, /, *, default = None))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        obj: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        check_default(default.as_ref(), "encode()")?;
        let mut kept = self.lock()?;
        let (result, panicked) = guarded_or_panicked(
            py,
            || {
                let document =
                    ser::Encoder::new(py, default).run(obj, |value| kept.encoder.to_vec(value))?;
                new_bytes(py, &document)
            },
            |message| encode_error(py, &format!("internal error ({message})"), "$"),
        );
        if panicked {
            *kept = Kept::of(&self.inner);
        }
        result
    }

    /// Decodes a dictionary document written with this dictionary.
    fn decode<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut kept = self.lock()?;
        let (result, panicked) = guarded_or_panicked(
            py,
            || {
                let decoder = de::Decoder::new(py);
                with_input(py, data, "Dictionary.decode()", |input| {
                    decoder.decode_dictionary_document(&mut kept.decoder, input)
                })
            },
            |message| internal_decode_error(py, &message),
        );
        if panicked {
            *kept = Kept::of(&self.inner);
        }
        result
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Dictionary>()
            .is_ok_and(|other| other.get().inner.id() == self.inner.id())
    }

    fn __hash__(&self) -> u64 {
        self.inner.id()
    }

    fn __repr__(&self) -> String {
        format!(
            "surp.Dictionary(id={:#018x}, {} strings, {} shapes)",
            self.inner.id(),
            self.inner.strings().len(),
            self.inner.shapes().len()
        )
    }
}

impl Dictionary {
    /// The kept encoder and decoder. A call that uses the dictionary again
    /// from inside one of its own (from `default=`) finds them taken.
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Kept>> {
        self.kept.try_lock().map_err(|_| {
            pyo3::exceptions::PyRuntimeError::new_err(
                "the dictionary is in use by another call of its own (from default=?)",
            )
        })
    }
}
