//! Sessions (`docs/spec.md` section 9.1): `SessionEncoder` and
//! `SessionDecoder`, the bytes of `surp_dedup`'s, so that a Python program
//! reads and writes the session streams of Rust and JavaScript.
//!
//! Each call runs under [`guarded`], like `dumps` and `loads`. A panic (a
//! bug) leaves a session in no known state: the encoder then refuses every
//! later message (a new session must start), and the decoder forgets its
//! header, so every later message is refused until a header is read again.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use surp_dedup::{Budget, SessionOptions};

use crate::dictionary::Dictionary;
use crate::error::{decode_error, encode_error, internal_decode_error, type_name};
use crate::module::{NotWhole, check_default, guarded_or_panicked, whole_number, with_input};
use crate::output::new_bytes;
use crate::{de, ser};

/// `surp_dedup::DEFAULT_BUDGET`, as the `(strings, shapes, bytes)` tuple the
/// classes take.
pub(crate) fn default_budget() -> (u32, u32, u32) {
    let b = surp_dedup::DEFAULT_BUDGET;
    (b.strings, b.shapes, b.bytes)
}

/// The options of a session with `budget`: a tuple of three whole numbers
/// of at least 0, each capped at what a header can state (2^24 string
/// slots, 2^16 shapes, 2^32 − 1 bytes), as `SessionOptions::budget` and the
/// JavaScript classes cap them. Another type is a `TypeError` (a `bool`
/// too, as in JavaScript), a negative number a `ValueError`.
fn options(
    budget: Option<&Bound<'_, PyAny>>,
    dictionary: Option<PyRef<'_, Dictionary>>,
) -> PyResult<SessionOptions> {
    let options = match dictionary {
        Some(dictionary) => SessionOptions::new().dictionary(dictionary.inner.clone()),
        None => SessionOptions::new(),
    };
    let Some(budget) = budget else {
        return Ok(options);
    };
    let what = "budget must be a tuple of three whole numbers (strings, shapes, bytes)";
    let parts = budget
        .cast::<PyTuple>()
        .ok()
        .filter(|t| t.len() == 3)
        .ok_or_else(|| PyTypeError::new_err(format!("{what}, not {}", type_name(budget))))?;
    let mut numbers = [0u32; 3];
    let most = [Budget::MAX.strings, Budget::MAX.shapes, u32::MAX];
    for ((n, part), most) in numbers.iter_mut().zip(parts.iter()).zip(most) {
        // Past u64 is past every cap.
        let wide = match whole_number(&part)? {
            Ok(wide) => wide,
            Err(NotWhole::Type) => {
                return Err(PyTypeError::new_err(format!(
                    "{what}, not one holding {}",
                    type_name(&part)
                )));
            }
            Err(NotWhole::Negative) => {
                return Err(PyValueError::new_err(format!(
                    "{what} of at least 0, not {part}"
                )));
            }
        };
        *n = u32::try_from(wide).unwrap_or(u32::MAX).min(most);
    }
    let [strings, shapes, bytes] = numbers;
    Ok(options.budget(strings, shapes, bytes))
}

fn usage(u: surp_dedup::TableUsage) -> (usize, usize, usize) {
    (u.strings, u.shapes, u.bytes)
}

/// Writes the messages of one session: first `header()`, then each
/// `encode(obj)`, which refers to the strings and dict key sets of the
/// messages before it, so the decoder must read every message, in order.
///
/// `budget` is `(strings, shapes, bytes)`, what the tables may hold before
/// they start again (default `DEFAULT_BUDGET`); `dictionary`, a
/// `Dictionary` the tables start from (and return to); `default` is as for
/// `dumps`. An object that cannot be encoded raises `EncodeError`, uses no
/// message number, and the next message starts from the tables' initial
/// state and says so.
#[pyclass(module = "surp")]
pub(crate) struct SessionEncoder {
    /// `None` after a panic: the session cannot go on.
    inner: Option<surp_dedup::SessionEncoder>,
    header: Vec<u8>,
    default: Option<Py<PyAny>>,
}

impl SessionEncoder {
    /// The encoder, unless a call of its own is using it: `default=` runs
    /// inside `encode`, and what it calls on the same encoder would find
    /// the message half written.
    fn borrow<'a>(slf: &'a Bound<'_, Self>) -> PyResult<PyRefMut<'a, Self>> {
        slf.try_borrow_mut().map_err(|_| {
            PyRuntimeError::new_err(
                "the session encoder is in use by its own encode() (called from default=?): \
                 it writes one message at a time",
            )
        })
    }

    fn encode_message<'py>(
        &mut self,
        py: Python<'py>,
        obj: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let default = self.default.as_ref().map(|d| d.bind(py).clone());
        let inner = self.inner()?;
        let (result, panicked) = guarded_or_panicked(
            py,
            || {
                let message = ser::Encoder::new(py, default).run(obj, |value| {
                    let mut out = Vec::new();
                    inner.append_to_vec(&mut out, value).map(|()| out)
                })?;
                new_bytes(py, &message)
            },
            |message| encode_error(py, &format!("internal error ({message})"), "$"),
        );
        if panicked {
            // A panic: the tables, and the encoder's state within the
            // message, are in no known state.
            self.inner = None;
        }
        result
    }

    fn inner(&mut self) -> PyResult<&mut surp_dedup::SessionEncoder> {
        self.inner.as_mut().ok_or_else(|| {
            Python::attach(|py| {
                encode_error(
                    py,
                    "internal error earlier in this session, which cannot go on: start a new \
                     one",
                    "$",
                )
            })
        })
    }
}

#[pymethods]
impl SessionEncoder {
    #[new]
    #[pyo3(signature = (*, budget = None, dictionary = None, default = None))]
    fn new(
        budget: Option<&Bound<'_, PyAny>>,
        dictionary: Option<PyRef<'_, Dictionary>>,
        default: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        check_default(default.as_ref(), "SessionEncoder()")?;
        let inner = options(budget, dictionary)?.encoder();
        Ok(SessionEncoder {
            header: inner.header(),
            inner: Some(inner),
            default: default.map(Bound::unbind),
        })
    }

    /// The session's header, which the decoder reads first.
    fn header<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        new_bytes(slf.py(), &Self::borrow(slf)?.header)
    }

    /// Encodes `obj` as the next message.
    fn encode<'py>(
        slf: &Bound<'py, Self>,
        obj: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        Self::borrow(slf)?.encode_message(slf.py(), obj)
    }

    /// Returns the tables to their initial state; the next message tells
    /// the decoder to do the same.
    fn reset(slf: &Bound<'_, Self>) -> PyResult<()> {
        Self::borrow(slf)?.inner()?.reset();
        Ok(())
    }

    /// How many messages have been encoded.
    #[getter]
    fn messages(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(Self::borrow(slf)?.inner()?.messages())
    }

    /// What the tables hold beyond their initial state: `(strings, shapes,
    /// bytes)`, the bytes as the budget counts them.
    #[getter]
    fn usage(slf: &Bound<'_, Self>) -> PyResult<(usize, usize, usize)> {
        Ok(usage(Self::borrow(slf)?.inner()?.usage()))
    }

    // The garbage collector's view of `default`, which may refer back to
    // the encoder (a bound method of the object that holds it).
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Some(default) = &self.default {
            visit.call(default)?;
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        self.default = None;
    }
}

/// Reads the messages of one session: `read_header(data)` first, then
/// `decode(data)` for every message, in order.
///
/// `budget` is the most a header may ask for (default `DEFAULT_BUDGET`);
/// `dictionary`, the one the header must name (none by default). A
/// message lost, reordered or replayed raises `DecodeError` of kind
/// `Session` (`.session` is `Sequence`); after a message fails, every later
/// one is refused until the encoder sends a reset. That includes a valid
/// message Python cannot hold (a map used as a map key).
#[pyclass(module = "surp")]
pub(crate) struct SessionDecoder {
    options: SessionOptions,
    inner: surp_dedup::SessionDecoder,
}

#[pymethods]
impl SessionDecoder {
    #[new]
    #[pyo3(signature = (*, budget = None, dictionary = None))]
    fn new(
        budget: Option<&Bound<'_, PyAny>>,
        dictionary: Option<PyRef<'_, Dictionary>>,
    ) -> PyResult<Self> {
        let options = options(budget, dictionary)?;
        let inner = options.decoder();
        Ok(SessionDecoder { options, inner })
    }

    /// Reads a session's header, which starts the session afresh.
    fn read_header(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        self.guarded(py, |inner| {
            with_input(py, data, "SessionDecoder.read_header()", |input| {
                inner
                    .read_header(input)
                    .map_err(|err| decode_error(py, &err))
            })
        })
    }

    /// Decodes the next message.
    fn decode<'py>(
        &mut self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.guarded(py, |inner| {
            let decoder = de::Decoder::new(py);
            with_input(py, data, "SessionDecoder.decode()", |input| {
                decoder.decode_message(inner, input)
            })
        })
    }

    /// What the tables hold beyond their initial state: `(strings, shapes,
    /// bytes)`, the bytes as the budget counts them.
    #[getter]
    fn usage(&self) -> (usize, usize, usize) {
        usage(self.inner.usage())
    }
}

impl SessionDecoder {
    /// Runs `body` on the Rust decoder under [`guarded`]. After a panic the
    /// tables are in no known state, so the header is forgotten: no message
    /// is decoded against them until a header is read again.
    fn guarded<T>(
        &mut self,
        py: Python<'_>,
        body: impl FnOnce(&mut surp_dedup::SessionDecoder) -> PyResult<T>,
    ) -> PyResult<T> {
        let inner = &mut self.inner;
        let (result, panicked) = guarded_or_panicked(
            py,
            || body(inner),
            |message| internal_decode_error(py, &message),
        );
        if panicked {
            self.inner = self.options.decoder();
        }
        result
    }
}
