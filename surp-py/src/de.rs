//! Decoding: a `serde::de::DeserializeSeed` whose visitor builds Python
//! objects directly as `surp::Deserializer` walks the document, plain or
//! deduplicated.
//!
//! On CPython, [`Decoder::decode`] tries the fast reader of `read.rs` first;
//! this is the path of deduplicated documents, of the rare values that reader hands
//! over, and of every error, reported with its kind and offset.
//!
//! The deserializer does all the checking (tags, lengths against the input,
//! UTF-8, the depth limit, the deduplication tables); the visitor only
//! turns each value into its Python object. An array's list is created at
//! the size the deserializer hints (its exact count, bounded by the input)
//! and filled in place, as a C extension would ([`ListBuilder`]), out of the
//! garbage collector's sight until it is whole.
//!
//! Every object is made with a constructor that reports failure (out of
//! memory) as the Python exception, which `loads` raises (a `MemoryError`);
//! pyo3's infallible constructors would panic instead.
//!
//! Map keys must be hashable in Python, so a key that is an array becomes a
//! tuple (recursively), and a key that is a map is a `DecodeError`: Python
//! has no hashable mapping type to hold it.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::sync::MutexGuard;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::error::decode_error;
use crate::keys::KeyCache;
#[cfg(not(any(PyPy, GraalPy)))]
use crate::read;

/// The state of one `loads` call: the key cache, and a Python exception
/// raised while building objects (a `MemoryError`), kept because serde's
/// error carries only text.
pub(crate) struct Decoder<'py> {
    py: Python<'py>,
    keys: RefCell<Option<MutexGuard<'static, KeyCache>>>,
    python_error: Cell<Option<PyErr>>,
}

impl<'py> Decoder<'py> {
    pub(crate) fn new(py: Python<'py>) -> Self {
        Decoder {
            py,
            keys: RefCell::new(KeyCache::lock()),
            python_error: Cell::new(None),
        }
    }

    /// Decodes one whole document; bytes after it are an error.
    ///
    /// A plain document goes to the fast path (`crate::read`) first; what
    /// it stops at is decoded again here, with serde, which reports errors
    /// with their kind and offset. (PyPy and GraalPy have only the serde
    /// path: see lib.rs.)
    #[cfg(not(any(PyPy, GraalPy)))]
    pub(crate) fn decode(&self, input: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        let fast = {
            let mut keys = self.keys.borrow_mut();
            read::read(self.py, input, keys.as_deref_mut())
        };
        match fast {
            Ok(value) => Ok(value),
            Err(read::Stop::Python) => Err(PyErr::fetch(self.py)),
            Err(read::Stop::Slow) => self.decode_with_serde(input),
        }
    }

    /// Decodes one whole document; bytes after it are an error. PyPy and
    /// GraalPy have no fast path (see lib.rs): this is the serde path.
    #[cfg(any(PyPy, GraalPy))]
    pub(crate) fn decode(&self, input: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        self.decode_with_serde(input)
    }

    /// Decodes one whole document with serde; bytes after it are an error.
    pub(crate) fn decode_with_serde(&self, input: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        self.with_seed(|seed| {
            let mut de = surp::Deserializer::from_slice(input);
            seed.deserialize(&mut de)
                .and_then(|value| de.end().map(|()| value))
        })
    }

    /// Decodes the next message of a session, with `session`'s checks.
    pub(crate) fn decode_message(
        &self,
        session: &mut surp_dedup::SessionDecoder,
        input: &[u8],
    ) -> PyResult<Bound<'py, PyAny>> {
        self.with_seed(|seed| session.decode_seed(input, seed))
    }

    /// Decodes a dictionary document, with `decoder`'s checks.
    pub(crate) fn decode_dictionary_document(
        &self,
        decoder: &mut surp_dedup::DictionaryDecoder,
        input: &[u8],
    ) -> PyResult<Bound<'py, PyAny>> {
        self.with_seed(|seed| decoder.from_slice_seed(input, seed))
    }

    /// Runs `decode` with the seed of a whole value, and reports its error:
    /// the Python exception kept while building objects (a `MemoryError`),
    /// else a `DecodeError`.
    fn with_seed(
        &self,
        decode: impl FnOnce(Seed<'_, 'py>) -> surp::Result<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seed = Seed {
            dec: self,
            key: false,
        };
        decode(seed).map_err(|err| match self.python_error.take() {
            Some(python_error) => python_error,
            None => decode_error(self.py, &err),
        })
    }

    /// The object a constructor returned as a new reference, or the Python
    /// exception it set (a `MemoryError`) when it returned NULL.
    #[inline]
    fn made<E: de::Error>(&self, ptr: *mut ffi::PyObject) -> Result<Bound<'py, PyAny>, E> {
        // SAFETY: every caller passes what a CPython constructor returned: a
        // new (owned) reference, or NULL with an exception set.
        unsafe { Bound::from_owned_ptr_or_err(self.py, ptr) }.map_err(|e| self.python(e))
    }

    /// Keeps a Python exception and returns serde's error for it.
    #[cold]
    fn python<E: de::Error>(&self, err: PyErr) -> E {
        let message = err.to_string();
        self.python_error.set(Some(err));
        E::custom(message)
    }
}

/// Decodes one value; `key` says it is a dict key and must be hashable.
#[derive(Clone, Copy)]
struct Seed<'a, 'py> {
    dec: &'a Decoder<'py>,
    key: bool,
}

impl<'de, 'py> DeserializeSeed<'de> for Seed<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, 'py> Visitor<'de> for Seed<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any Surp value")
    }

    #[inline]
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(pyo3::types::PyBool::new(self.dec.py, v)
            .to_owned()
            .into_any())
    }

    #[inline]
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        // SAFETY: no precondition; a new reference or NULL with an exception.
        self.dec.made(unsafe { ffi::PyLong_FromLongLong(v) })
    }

    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        // SAFETY: no precondition; a new reference or NULL with an exception.
        self.dec
            .made(unsafe { ffi::PyLong_FromUnsignedLongLong(v) })
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Self::Value, E> {
        let Ok(obj) = v.into_pyobject(self.dec.py);
        Ok(obj.into_any())
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Self::Value, E> {
        let Ok(obj) = v.into_pyobject(self.dec.py);
        Ok(obj.into_any())
    }

    #[inline]
    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Self::Value, E> {
        // Widened on the bits by `surp::Value`, so NaN payloads survive
        // (an `as` cast may quiet a signalling NaN).
        let surp::Value::Float(wide) = surp::Value::from(v) else {
            unreachable!("a float converts to Value::Float")
        };
        self.visit_f64(wide)
    }

    #[inline]
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        // SAFETY: no precondition; a new reference or NULL with an exception.
        self.dec.made(unsafe { ffi::PyFloat_FromDouble(v) })
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        let py = self.dec.py;
        if self.key
            && let Some(keys) = self.dec.keys.borrow_mut().as_mut()
        {
            return keys
                .get(py, v.as_bytes(), |_| new_str(py, v).map(Bound::into_any))
                .map_err(|e| self.dec.python(e));
        }
        new_str(py, v)
            .map(Bound::into_any)
            .map_err(|e| self.dec.python(e))
    }

    #[inline]
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        // SAFETY: the pointer and length are those of a live slice, whose
        // length fits an isize (Rust guarantees it); the bytes are copied.
        self.dec.made(unsafe {
            ffi::PyBytes_FromStringAndSize(v.as_ptr().cast(), v.len() as ffi::Py_ssize_t)
        })
    }

    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(self.dec.py.None().into_bound(self.dec.py))
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.visit_unit()
    }

    /// A `some` marker: a dynamic value has no `Option`, so it is its content.
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let py = self.dec.py;
        // The hint is bounded by the input: surp's deserializer hands out no
        // more items in hints, over all open collections, than it has bytes.
        let hint = seq.size_hint().unwrap_or(0);
        if self.key {
            let mut items = Vec::with_capacity(hint);
            while let Some(item) = seq.next_element_seed(self)? {
                items.push(item);
            }
            return PyTuple::new(py, items)
                .map(Bound::into_any)
                .map_err(|e| self.dec.python(e));
        }
        let mut list = ListBuilder::new(py, hint).map_err(|e| self.dec.python(e))?;
        while let Some(item) = seq.next_element_seed(self)? {
            list.push(item).map_err(|e| self.dec.python(e))?;
        }
        list.finish()
            .map(Bound::into_any)
            .map_err(|e| self.dec.python(e))
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        if self.key {
            return Err(de::Error::custom(
                "a map used as a map key cannot be decoded: Python dict keys must be \
                 hashable, and no hashable Python type holds a map",
            ));
        }
        // SAFETY: PyDict_New has no precondition and returns a new reference
        // or NULL with an exception; what it returns is a dict.
        let dict: Bound<'py, PyDict> =
            unsafe { self.dec.made(ffi::PyDict_New())?.cast_into_unchecked() };
        let key_seed = Seed {
            dec: self.dec,
            key: true,
        };
        while let Some(key) = map.next_key_seed(key_seed)? {
            let value = map.next_value_seed(self)?;
            dict.set_item(key, value).map_err(|e| self.dec.python(e))?;
        }
        Ok(dict.into_any())
    }
}

/// A `str` from UTF-8 text; out of memory is the Python exception.
#[inline]
pub(crate) fn new_str<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    // SAFETY: the pointer and length are those of a live `str` (valid UTF-8,
    // a length that fits an isize), which is copied. The result is a new
    // reference to a str, or NULL with an exception set.
    unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyUnicode_FromStringAndSize(text.as_ptr().cast(), text.len() as ffi::Py_ssize_t),
        )
        .map(|obj| obj.cast_into_unchecked())
    }
}

/// A list filled in place: created with as many slots as the array's size
/// hint, which are set one by one; items past the hint are appended.
///
/// While it has unset (NULL) slots, the list is not tracked by the garbage
/// collector: making its items can run a collection, and Python code that
/// runs then (a `gc.callbacks` entry, a finalizer calling `gc.get_objects()`
/// or `gc.get_referrers()`) must not find a list with NULL slots, which
/// crashes the interpreter when read. Nothing else refers to the list until
/// [`ListBuilder::finish`] tracks it, whole.
///
/// This is what C extensions do, and saves collecting the items first (the
/// safe `PyList::new` needs them all up front). Measured with callgrind,
/// one `loads` of the canada dataset (mostly [lon, lat] pairs) and the
/// freeing of its result take 57.1M instructions, against 64.7M when the
/// items are first pushed on a stack shared by the document, and 56.5M with
/// msgpack's C unpacker.
struct ListBuilder<'py> {
    list: Bound<'py, PyList>,
    /// Slots set so far.
    filled: usize,
    /// Slots the list was created with.
    slots: usize,
}

impl<'py> ListBuilder<'py> {
    #[inline]
    fn new(py: Python<'py>, slots: usize) -> PyResult<Self> {
        let size = ffi::Py_ssize_t::try_from(slots)
            .map_err(|_| pyo3::exceptions::PyMemoryError::new_err("array too large"))?;
        // SAFETY: PyList_New returns a new reference to a list of `size`
        // NULL slots, or NULL with an exception set, which
        // `from_owned_ptr_or_err` turns into the error. The pointer is a
        // list, so the unchecked cast holds. PyList_New tracks the list; it
        // is untracked before anything else can run, and a list is allowed
        // to be untracked (list_dealloc untracks only a tracked object).
        let list: Bound<'py, PyList> = unsafe {
            let list =
                Bound::from_owned_ptr_or_err(py, ffi::PyList_New(size))?.cast_into_unchecked();
            ffi::PyObject_GC_UnTrack(list.as_ptr().cast());
            list
        };
        Ok(ListBuilder {
            list,
            filled: 0,
            slots,
        })
    }

    #[inline]
    fn push(&mut self, item: Bound<'py, PyAny>) -> PyResult<()> {
        if self.filled < self.slots {
            // SAFETY: slot `filled` is inside the list (`filled < slots`, the
            // size it was created with) and still NULL, because each slot is
            // set once, in order. PyList_SET_ITEM steals the reference that
            // `into_ptr` gives up, so nothing leaks or is freed twice.
            unsafe {
                ffi::PyList_SET_ITEM(
                    self.list.as_ptr(),
                    self.filled as ffi::Py_ssize_t,
                    item.into_ptr(),
                );
            }
            self.filled += 1;
            Ok(())
        } else {
            self.list.append(item)
        }
    }

    /// The list, tracked by the garbage collector again. A hint is never
    /// more than the array's items, so every slot is set by now; if not, the
    /// unset (NULL) slots are removed rather than handed to Python.
    #[inline]
    fn finish(self) -> PyResult<Bound<'py, PyList>> {
        if self.filled < self.slots {
            self.list.del_slice(self.filled, self.slots)?;
        }
        // SAFETY: the list was untracked in `new` and nothing tracks it since
        // (only this builder refers to it); every slot is set, so the
        // collector may traverse it.
        unsafe { ffi::PyObject_GC_Track(self.list.as_ptr().cast()) };
        Ok(self.list)
    }
}

// The tests run an embedded interpreter, which pyo3 offers for CPython only.
#[cfg(all(test, not(any(PyPy, GraalPy))))]
mod tests {
    use super::*;

    /// A builder of `slots` slots given the integers 0 to `items` - 1.
    fn filled(py: Python<'_>, slots: usize, items: usize) -> ListBuilder<'_> {
        let mut list = ListBuilder::new(py, slots).unwrap();
        for i in 0..items {
            let Ok(int) = i.into_pyobject(py);
            list.push(int.into_any()).unwrap();
        }
        list
    }

    fn finished(list: ListBuilder<'_>) -> Vec<usize> {
        list.finish().unwrap().extract().unwrap()
    }

    #[test]
    fn a_list_builder_fills_exactly_its_slots() {
        Python::initialize();
        Python::attach(|py| assert_eq!(finished(filled(py, 3, 3)), [0, 1, 2]));
    }

    #[test]
    fn a_list_builder_appends_items_past_its_slots() {
        Python::initialize();
        Python::attach(|py| assert_eq!(finished(filled(py, 2, 5)), [0, 1, 2, 3, 4]));
    }

    #[test]
    fn a_list_is_out_of_the_collectors_sight_until_it_is_whole() {
        Python::initialize();
        Python::attach(|py| {
            let tracked = |list: &Bound<'_, PyList>| {
                // SAFETY: a live object.
                unsafe { ffi::PyObject_GC_IsTracked(list.as_ptr()) == 1 }
            };
            let builder = filled(py, 3, 2);
            assert!(!tracked(&builder.list));
            let list = builder.finish().unwrap();
            assert!(tracked(&list));
        });
    }

    #[test]
    fn a_list_builder_drops_slots_that_were_never_set() {
        Python::initialize();
        Python::attach(|py| {
            assert_eq!(finished(filled(py, 4, 1)), [0]);
            assert_eq!(finished(filled(py, 4, 0)), Vec::<usize>::new());
            // A builder dropped half filled (after a decode error) frees its
            // items and its unset slots without touching them.
            drop(filled(py, 4, 2));
        });
    }
}
