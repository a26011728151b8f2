//! Encoding: `serde::Serialize` for a borrowed Python object, so that
//! `surp::Serializer` and `surp_dedup::to_vec` write it directly, with no
//! intermediate value.
//!
//! A plain `dumps` goes through the fast path of `write.rs` first; this is
//! the path of `dedup=True`, of `default=`, and of every error (the fast path
//! hands those over). It holds strong references, because Python code may
//! run in the middle of it.
//!
//! Each value is dispatched on its exact type first (a pointer comparison
//! per candidate, most common types first); subclasses of the supported
//! types (`IntEnum`, `OrderedDict`, named tuples) take a separate, slower
//! path. Nesting is counted, so a reference cycle or an over-deep object
//! ends in an `EncodeError` at [`MAX_DEPTH`] instead of a stack overflow.
//!
//! serde's error type can only carry a message, so the details of a failure
//! (the reason, the Python exception behind it, the path to the value) are
//! recorded in the [`Encoder`] and turned into the `EncodeError` at the top.
//!
//! An object of any other type goes to the `default=` callable when there
//! is one, and what it returns is encoded in its place (one nesting level
//! deeper, so a callable that keeps returning objects it cannot encode ends
//! at the depth limit). Python code can run while an object is encoded (that
//! callable, or a finalizer run by the garbage collector), so lists and
//! dicts are read in a way that survives them changing: one that changes
//! size is a `RuntimeError`, as in a Python `for` loop.

use std::cell::{Cell, RefCell};
use std::fmt::Write as _;

use pyo3::exceptions::PyRuntimeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};
use serde::ser::{self, Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::error::{encode_error, type_name};

/// The deepest nesting of lists, tuples and dicts that is encoded: the
/// decoder's default limit, so everything `dumps` writes, `loads` reads.
pub(crate) const MAX_DEPTH: usize = surp::DEFAULT_MAX_DEPTH;

/// The state of one `dumps` call: the `default=` callable, the nesting
/// depth, and what went wrong.
pub(crate) struct Encoder<'py> {
    py: Python<'py>,
    default: Option<Bound<'py, PyAny>>,
    depth: Cell<usize>,
    failure: RefCell<Option<Failure>>,
}

/// Why encoding stopped, and where.
struct Failure {
    reason: String,
    /// The Python exception behind the failure, kept as `__cause__`.
    cause: Option<PyErr>,
    /// Raise `cause` itself rather than an `EncodeError`: an exception from
    /// the `default=` callable, or a container changing size.
    raise_cause: bool,
    /// Steps from the failing value up to the root, innermost first.
    path: Vec<Step>,
    /// Whether the failing value is (inside) a dict key.
    in_key: bool,
}

/// One step of a path into the object.
enum Step {
    /// A list or tuple item.
    Index(usize),
    /// The entry of a dict under this key (its `repr`).
    Entry(String),
}

impl<'py> Encoder<'py> {
    /// `default` is called with each object of a type Surp cannot write.
    pub(crate) fn new(py: Python<'py>, default: Option<Bound<'py, PyAny>>) -> Self {
        Encoder {
            py,
            default,
            depth: Cell::new(0),
            failure: RefCell::new(None),
        }
    }

    /// The object, ready to be handed to a serde serializer.
    pub(crate) fn wrap<'a>(&'a self, obj: &'a Bound<'py, PyAny>) -> Object<'a, 'py> {
        Object { obj, enc: self }
    }

    /// Encodes `obj` with `write` (one of surp-dedup's encoders), its error
    /// reported as [`Encoder::into_error`] does.
    pub(crate) fn run(
        self,
        obj: &Bound<'py, PyAny>,
        write: impl FnOnce(&Object<'_, 'py>) -> surp::Result<Vec<u8>>,
    ) -> PyResult<Vec<u8>> {
        let written = write(&self.wrap(obj));
        written.map_err(|err| self.into_error(err))
    }

    /// The `EncodeError` (or the Python exception) for a failed encode.
    pub(crate) fn into_error(self, err: surp::Error) -> PyErr {
        let Some(failure) = self.failure.into_inner() else {
            // The encoder itself refused (it never does for the values this
            // module hands it); report its sentence.
            return encode_error(self.py, &err.to_string(), "$");
        };
        if failure.raise_cause
            && let Some(cause) = failure.cause
        {
            return cause;
        }
        let mut path = String::from("$");
        for step in failure.path.iter().rev() {
            match step {
                Step::Index(i) => write!(path, "[{i}]"),
                Step::Entry(key) => write!(path, "[{key}]"),
            }
            .expect("writing to a String cannot fail");
        }
        let reason = if failure.in_key {
            format!("{} in a dict key", failure.reason)
        } else {
            failure.reason
        };
        let exc = encode_error(self.py, &reason, &path);
        if let Some(cause) = failure.cause {
            exc.set_cause(self.py, Some(cause));
        }
        exc
    }

    /// Records a failure and returns serde's error for it.
    #[cold]
    fn fail<E: ser::Error>(&self, reason: String, cause: Option<PyErr>) -> E {
        let err = E::custom(&reason);
        *self.failure.borrow_mut() = Some(Failure {
            reason,
            cause,
            raise_cause: false,
            path: Vec::new(),
            in_key: false,
        });
        err
    }

    /// Records a Python exception to be raised as it is, and returns serde's
    /// error for it.
    #[cold]
    fn raise<E: ser::Error>(&self, exc: PyErr) -> E {
        let err = E::custom(&exc);
        *self.failure.borrow_mut() = Some(Failure {
            reason: String::new(),
            cause: Some(exc),
            raise_cause: true,
            path: Vec::new(),
            in_key: false,
        });
        err
    }

    /// The `RuntimeError` for a list or dict that changed size while it was
    /// encoded.
    #[cold]
    fn changed_size<E: ser::Error>(&self, what: &str) -> E {
        self.raise(PyRuntimeError::new_err(format!(
            "{what} changed size during dumps()"
        )))
    }

    /// Adds a step to the path of a failure on its way up.
    #[cold]
    fn step<E>(&self, step: Step, in_key: bool, err: E) -> E {
        if let Some(failure) = self.failure.borrow_mut().as_mut() {
            failure.path.push(step);
            failure.in_key |= in_key;
        }
        err
    }

    #[inline]
    fn enter<E: ser::Error>(&self) -> Result<(), E> {
        let depth = self.depth.get();
        if depth >= MAX_DEPTH {
            return Err(self.fail(
                format!(
                    "nesting deeper than the limit of {MAX_DEPTH} \
                     (is there a reference cycle, or a default= that returns \
                     objects it cannot encode?)"
                ),
                None,
            ));
        }
        self.depth.set(depth + 1);
        Ok(())
    }

    #[inline]
    fn leave(&self) {
        self.depth.set(self.depth.get() - 1);
    }
}

/// A Python object seen through `serde::Serialize`.
#[derive(Clone, Copy)]
pub(crate) struct Object<'a, 'py> {
    obj: &'a Bound<'py, PyAny>,
    enc: &'a Encoder<'py>,
}

impl Serialize for Object<'_, '_> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let obj = self.obj;
        if let Ok(v) = obj.cast_exact::<PyString>() {
            return self.str(v, s);
        }
        if let Ok(v) = obj.cast_exact::<PyInt>() {
            return self.int(v, s);
        }
        if let Ok(v) = obj.cast_exact::<PyDict>() {
            return self.dict(v, s);
        }
        if let Ok(v) = obj.cast_exact::<PyFloat>() {
            return s.serialize_f64(v.value());
        }
        if let Ok(v) = obj.cast_exact::<PyList>() {
            return self.list(v, s);
        }
        if obj.is_none() {
            return s.serialize_unit();
        }
        if let Ok(v) = obj.cast_exact::<PyBool>() {
            return s.serialize_bool(v.is_true());
        }
        if let Ok(v) = obj.cast_exact::<PyBytes>() {
            return s.serialize_bytes(v.as_bytes());
        }
        if let Ok(v) = obj.cast_exact::<PyTuple>() {
            return self.seq(v.len(), v.iter(), s);
        }
        self.other(s)
    }
}

impl<'a, 'py> Object<'a, 'py> {
    fn with<'b>(&self, obj: &'b Bound<'py, PyAny>) -> Object<'b, 'py>
    where
        'a: 'b,
    {
        Object { obj, enc: self.enc }
    }

    #[inline]
    fn str<S: Serializer>(&self, v: &Bound<'py, PyString>, s: S) -> Result<S::Ok, S::Error> {
        match v.to_str() {
            Ok(text) => s.serialize_str(text),
            Err(e) => Err(self.enc.fail(
                "cannot encode a str that is not valid Unicode (it holds a lone surrogate)"
                    .to_owned(),
                Some(e),
            )),
        }
    }

    #[inline]
    fn int<S: Serializer>(&self, v: &Bound<'py, PyInt>, s: S) -> Result<S::Ok, S::Error> {
        match v.extract::<i64>() {
            Ok(i) => s.serialize_i64(i),
            Err(_) => self.wide_int(v, s),
        }
    }

    /// An int outside the i64 range: u64, then the wire's wide integers.
    #[cold]
    fn wide_int<S: Serializer>(&self, v: &Bound<'py, PyInt>, s: S) -> Result<S::Ok, S::Error> {
        if let Ok(u) = v.extract::<u64>() {
            return s.serialize_u64(u);
        }
        if let Ok(i) = v.extract::<i128>() {
            return s.serialize_i128(i);
        }
        if let Ok(u) = v.extract::<u128>() {
            return s.serialize_u128(u);
        }
        Err(self.enc.fail(
            "cannot encode an int outside -2**127 to 2**128 - 1, the range of Surp's \
             128-bit integers"
                .to_owned(),
            None,
        ))
    }

    /// A tuple (immutable: its length holds).
    #[inline]
    fn seq<S: Serializer>(
        &self,
        len: usize,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        self.enc.enter()?;
        let mut seq = s.serialize_seq(Some(len))?;
        for (i, item) in items.enumerate() {
            seq.serialize_element(&self.with(&item))
                .map_err(|e| self.enc.step(Step::Index(i), false, e))?;
        }
        self.enc.leave();
        seq.end()
    }

    /// A list, whose header declares its length before the items are
    /// encoded. pyo3's iterator reads each item with a bounds check (it
    /// stops early if the list shrinks), and the count is checked at the end.
    #[inline]
    fn list<S: Serializer>(&self, v: &Bound<'py, PyList>, s: S) -> Result<S::Ok, S::Error> {
        self.enc.enter()?;
        let len = v.len();
        let mut seq = s.serialize_seq(Some(len))?;
        let mut written = 0;
        for item in v.iter().take(len) {
            seq.serialize_element(&self.with(&item))
                .map_err(|e| self.enc.step(Step::Index(written), false, e))?;
            written += 1;
        }
        if written != len || v.len() != len {
            return Err(self.enc.changed_size("list"));
        }
        self.enc.leave();
        seq.end()
    }

    /// A dict, read with `PyDict_Next` rather than pyo3's iterator, which
    /// panics when the dict changes size under it.
    #[inline]
    fn dict<S: Serializer>(&self, d: &Bound<'py, PyDict>, s: S) -> Result<S::Ok, S::Error> {
        self.enc.enter()?;
        let len = d.len();
        let mut map = s.serialize_map(Some(len))?;
        let mut pos: ffi::Py_ssize_t = 0;
        for _ in 0..len {
            let entry = if d.len() == len {
                next_entry(d, &mut pos)
            } else {
                None
            };
            let Some((key, value)) = entry else {
                return Err(self.enc.changed_size("dict"));
            };
            self.entry(&mut map, &key, &value)?;
        }
        if d.len() != len {
            return Err(self.enc.changed_size("dict"));
        }
        self.enc.leave();
        map.end()
    }

    /// One map entry, with the key as the path's step of an error in it.
    #[inline]
    fn entry<M: SerializeMap>(
        &self,
        map: &mut M,
        key: &Bound<'py, PyAny>,
        value: &Bound<'py, PyAny>,
    ) -> Result<(), M::Error> {
        map.serialize_key(&self.with(key))
            .map_err(|e| self.enc.step(Step::Entry(repr(key)), true, e))?;
        map.serialize_value(&self.with(value))
            .map_err(|e| self.enc.step(Step::Entry(repr(key)), false, e))
    }

    /// A dict subclass with an order of its own (see [`iterates_as_dict`]),
    /// in the order of its `items()`, as `json` writes it. The entries are
    /// taken first, as a list, since Python code runs while they are read:
    /// what `default=` does to the dict afterwards is not seen (a plain
    /// dict that changes size is an error instead).
    #[cold]
    fn dict_items<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.enc.enter()?;
        let items = self
            .obj
            .call_method0("items")
            .and_then(|items| items.try_iter().map(|i| i.collect::<PyResult<Vec<_>>>()))
            .map_err(|e| self.enc.raise(e))?
            .map_err(|e| self.enc.raise(e))?;
        let mut entries = Vec::with_capacity(items.len());
        for item in items {
            let entry = item
                .extract::<(Bound<'py, PyAny>, Bound<'py, PyAny>)>()
                .map_err(|e| {
                    self.enc.fail(
                        format!(
                            "items() of a '{}' must give (key, value) pairs",
                            type_name(self.obj)
                        ),
                        Some(e),
                    )
                })?;
            entries.push(entry);
        }
        let mut map = s.serialize_map(Some(entries.len()))?;
        for (key, value) in &entries {
            self.entry(&mut map, key, value)?;
        }
        self.enc.leave();
        map.end()
    }

    /// An object of a type Surp cannot write, given to `default=`: what it
    /// returns is encoded instead, one nesting level deeper; what it raises
    /// is raised by `dumps`.
    #[cold]
    fn default<S: Serializer>(&self, default: &Bound<'py, PyAny>, s: S) -> Result<S::Ok, S::Error> {
        self.enc.enter()?;
        let replacement = default.call1((self.obj,)).map_err(|e| self.enc.raise(e))?;
        let ok = self.with(&replacement).serialize(s)?;
        self.enc.leave();
        Ok(ok)
    }

    /// Subclasses of the supported types, bytearray, and the error for
    /// everything else.
    #[cold]
    fn other<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let obj = self.obj;
        // bool cannot be subclassed, so an int here is never a bool.
        if let Ok(v) = obj.cast::<PyInt>() {
            return self.int(v, s);
        }
        if let Ok(v) = obj.cast::<PyFloat>() {
            return s.serialize_f64(v.value());
        }
        if let Ok(v) = obj.cast::<PyString>() {
            return self.str(v, s);
        }
        if let Ok(v) = obj.cast::<PyBytes>() {
            return s.serialize_bytes(v.as_bytes());
        }
        if let Ok(v) = obj.cast::<PyByteArray>() {
            // A copy: the bytearray's buffer belongs to Python.
            return s.serialize_bytes(&v.to_vec());
        }
        if let Ok(v) = obj.cast::<PyDict>() {
            if iterates_as_dict(obj) {
                return self.dict(v, s);
            }
            return self.dict_items(s);
        }
        if let Ok(v) = obj.cast::<PyList>() {
            return self.list(v, s);
        }
        if let Ok(v) = obj.cast::<PyTuple>() {
            return self.seq(v.len(), v.iter(), s);
        }
        if let Some(default) = &self.enc.default {
            return self.default(default, s);
        }
        Err(self.enc.fail(
            format!("cannot encode an object of type '{}'", type_name(obj)),
            None,
        ))
    }
}

/// Whether the dict (or subclass) `obj` iterates in the order of its
/// storage, which `PyDict_Next` reads: its type keeps `dict`'s own
/// iterator, as `defaultdict`, `Counter` and most subclasses do.
/// `OrderedDict` does not (`move_to_end` reorders it without moving its
/// storage), nor does a class with its own `__iter__`: those are written in
/// the order of their `items()`, on both paths of `dumps`. (The test is the
/// iterator, which the fast path can read without running Python code: a
/// class that overrides `items()` alone is still read as a dict.)
fn iterates_as_dict(obj: &Bound<'_, PyAny>) -> bool {
    // SAFETY: `obj` is live.
    unsafe { keeps_dict_order(obj.as_ptr()) }
}

/// [`iterates_as_dict`] for a pointer, as the fast path of `dumps` holds
/// its objects.
///
/// # Safety
///
/// `obj` is a live object.
#[cfg(not(any(PyPy, GraalPy)))]
pub(crate) unsafe fn keeps_dict_order(obj: *mut ffi::PyObject) -> bool {
    // The slots hold the interpreter's C functions, and a subtype inherits
    // `dict`'s by copying the pointer, so equal addresses mean the same
    // iterator (the caveats of comparing Rust function pointers, merged or
    // duplicated across codegen units, do not apply to them).
    let iterator = |ty: *const ffi::PyTypeObject| {
        // SAFETY: `ty` is a live type object; reading a slot runs no code.
        unsafe { (*ty).tp_iter }.map(|f| f as usize)
    };
    // SAFETY: `obj` is live, so its type object is; `PyDict_Type` is the
    // interpreter's static `dict` type.
    unsafe { iterator(ffi::Py_TYPE(obj)) == iterator(std::ptr::addr_of!(ffi::PyDict_Type)) }
}

/// On PyPy and GraalPy, where type slots are filled by their C API layers
/// and may not point at one shared `dict` iterator, every dict subclass is
/// written in the order of its `items()`, which is always right.
///
/// # Safety
///
/// None; `unsafe` only to match the CPython version.
#[cfg(any(PyPy, GraalPy))]
unsafe fn keeps_dict_order(_obj: *mut ffi::PyObject) -> bool {
    false
}

/// The next entry of `d` after `pos` (0 for the first), as new references.
///
/// `PyDict_Next` is memory safe whatever happened to the dict since the last
/// call (it checks `pos` against the current table); the caller checks the
/// size, so that a dict that changed is an error rather than an entry seen
/// twice or missed.
#[inline]
fn next_entry<'py>(
    d: &Bound<'py, PyDict>,
    pos: &mut ffi::Py_ssize_t,
) -> Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let mut key = std::ptr::null_mut();
    let mut value = std::ptr::null_mut();
    // SAFETY: `d` is a dict (or a subclass, which PyDict_Next accepts), and
    // `pos` was 0 or set by the previous call. On success PyDict_Next gives
    // borrowed, non-NULL references, which `from_borrowed_ptr` turns into new
    // ones before any Python code can run and change the dict.
    unsafe {
        if ffi::PyDict_Next(d.as_ptr(), pos, &mut key, &mut value) == 0 {
            return None;
        }
        Some((
            Bound::from_borrowed_ptr(d.py(), key),
            Bound::from_borrowed_ptr(d.py(), value),
        ))
    }
}

/// The `repr` of a dict key, for error paths.
#[cold]
fn repr(key: &Bound<'_, PyAny>) -> String {
    key.repr()
        .map_or_else(|_| "<key>".to_owned(), |r| r.to_string())
}
