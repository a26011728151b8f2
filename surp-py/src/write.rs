//! The fast path of `dumps`: a direct walk over the object that writes Surp
//! as it goes, as orjson and ormsgpack do, with no serde in between.
//!
//! - Each object is dispatched on its exact type, a pointer comparison
//!   (`Py_TYPE(obj) == &PyUnicode_Type`, ...), most common types first;
//!   subclasses of the supported types (`IntEnum`, `defaultdict`, named
//!   tuples) are written as their base type after a subtype check, except
//!   a dict subclass with an order of its own (`OrderedDict`), which is
//!   handed over.
//! - Items are read as borrowed references, with no reference counting and
//!   no iterator objects: lists and tuples by index, dicts with
//!   `PyDict_Next`. A `str` is read from its UTF-8 form, which CPython keeps
//!   for ASCII strings and caches for the others; an int of up to two
//!   digits from its digits, in place ([`small_int`], CPython up to 3.11).
//! - Every byte goes through the `surp` crate's own writers
//!   (`surp::__private::wire`), the ones its serializer uses, into the
//!   `bytes` object being built ([`BytesOutput`]): the output is the same,
//!   byte for byte, as the serde path of [`crate::ser`].
//!
//! Borrowed references are sound here because no Python code runs during
//! the walk: nothing it calls runs any (reading a str, an int or a float,
//! `PyDict_Next`), and it allocates nothing the garbage collector tracks, so
//! no collection (and no finalizer) can start. The one call that can make
//! a tracked object is the one that fails, [`PyUnicode_AsUTF8AndSize`] on a
//! lone surrogate (the `UnicodeEncodeError`), and after it the walk only
//! unwinds.
//!
//! Anything else stops the walk with [`Stop::Slow`]: an object of another
//! type (which goes to `default=` or is an error), a dict subclass with an
//! order of its own (`OrderedDict`, whose `items()` only Python can call), a
//! str that is not valid Unicode, an int wider than 64 bits, nesting past
//! the limit. The caller
//! then encodes the whole object again with the serde path, which calls
//! `default=`, reports errors with their path and cause, and holds strong
//! references because Python code may run. A `MemoryError` from growing the
//! output is [`Stop::Python`], raised as it is.
//!
//! [`PyUnicode_AsUTF8AndSize`]: ffi::PyUnicode_AsUTF8AndSize

use std::ptr::addr_of_mut;

use pyo3::ffi;
use pyo3::prelude::*;
use surp::__private::wire;

use crate::output::BytesOutput;
use crate::ser::MAX_DEPTH;

/// Why the fast path stopped.
pub(crate) enum Stop {
    /// Something only the serde path handles (see the module's notes):
    /// encode the object again that way.
    Slow,
    /// The output could not grow: raise this.
    Python(PyErr),
}

/// Why the walk stopped, inside it: the reason is found at the top (the
/// output's Python error, if it has one). Zero-sized, so that a
/// `Result<(), Halt>` is a single byte (its discriminant) and results come
/// back in registers.
struct Halt;

impl From<surp::Error> for Halt {
    /// Every error of the wire writers into a [`BytesOutput`] is the output
    /// failing to grow, whose Python error the output keeps.
    #[inline]
    fn from(_: surp::Error) -> Halt {
        Halt
    }
}

type Result<T = ()> = std::result::Result<T, Halt>;

/// Writes `obj` as a plain Surp document into `out`.
pub(crate) fn write(
    obj: &Bound<'_, PyAny>,
    out: &mut BytesOutput<'_>,
) -> std::result::Result<(), Stop> {
    let mut w = Writer {
        out,
        depth: 0,
        ints_in_place: ints_in_place(obj.py()),
    };
    // SAFETY: `obj` is a live object (a `Bound`) and the GIL is held.
    match unsafe { w.value(obj.as_ptr()) } {
        Ok(()) => Ok(()),
        Err(Halt) => match w.out.take_python_error() {
            Some(err) => Err(Stop::Python(err)),
            None => Err(Stop::Slow),
        },
    }
}

struct Writer<'a, 'py> {
    out: &'a mut BytesOutput<'py>,
    /// Lists, tuples and dicts open around the current value.
    depth: usize,
    /// Whether ints are read in place ([`small_int`]).
    ints_in_place: bool,
}

/// Whether [`small_int`] may read this interpreter's ints: their layout is
/// the one it knows, with 30-bit digits (CPython's default on 64-bit
/// platforms; a build configured otherwise has 15-bit ones), as
/// `sys.int_info` reports. Asked once per process.
fn ints_in_place(py: Python<'_>) -> bool {
    #[cfg(not(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy)))]
    {
        // PyOnceLock, not std's OnceLock: the import may run Python code
        // (an `__import__` of the program's) and let another thread take
        // the interpreter, which would then wait on std's lock while
        // holding it. PyOnceLock lets both compute the same answer.
        static IN_PLACE: pyo3::sync::PyOnceLock<bool> = pyo3::sync::PyOnceLock::new();
        *IN_PLACE.get_or_init(py, || {
            let info = || -> PyResult<(u32, u32)> {
                let info = py.import("sys")?.getattr("int_info")?;
                Ok((
                    info.getattr("bits_per_digit")?.extract()?,
                    info.getattr("sizeof_digit")?.extract()?,
                ))
            };
            info().is_ok_and(|digits| digits == (30, 4))
        })
    }
    #[cfg(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy))]
    {
        let _ = py;
        false
    }
}

/// The value of an int of at most two digits (a magnitude below 2^60),
/// read in place: most ints of a document, without a call into CPython.
/// `None` for the others.
///
/// The layout is that of CPython up to 3.11 (`Include/cpython/longintrepr.h`):
/// the variable-size object header, whose `ob_size` is the count of digits,
/// negative for a negative int and 0 for zero, then the magnitude's digits,
/// least significant first, 30 bits in each `u32` (the caller checked the
/// digit size: [`ints_in_place`]). Other versions do not compile this, and
/// a test compares it with `PyLong_AsLongLongAndOverflow` over the range.
///
/// # Safety
///
/// `obj` is a live int (or subclass) of an interpreter with 30-bit digits.
#[cfg(not(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy)))]
#[inline(always)]
unsafe fn small_int(obj: *mut ffi::PyObject) -> Option<i64> {
    // SAFETY: the caller's promise: an int object has this header, and as
    // many digits after it as `ob_size` counts; only those are read.
    unsafe {
        let header = obj.cast::<ffi::PyVarObject>();
        let size = (*header).ob_size;
        let digits = header.add(1).cast::<u32>();
        let magnitude = match size.unsigned_abs() {
            0 => 0,
            1 => i64::from(*digits),
            2 => i64::from(*digits) | (i64::from(*digits.add(1)) << 30),
            _ => return None,
        };
        Some(if size < 0 { -magnitude } else { magnitude })
    }
}

/// Where the layout of ints is not the one [`small_int`] knows, nothing is
/// read in place ([`ints_in_place`] is false there).
///
/// # Safety
///
/// None; `unsafe` as the other [`small_int`].
#[cfg(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy))]
#[inline(always)]
unsafe fn small_int(_obj: *mut ffi::PyObject) -> Option<i64> {
    None
}

/// The type object of `obj`.
///
/// # Safety
///
/// `obj` must be a live object.
#[inline(always)]
unsafe fn type_of(obj: *mut ffi::PyObject) -> *mut ffi::PyTypeObject {
    // SAFETY: the caller's promise.
    unsafe { ffi::Py_TYPE(obj) }
}

impl Writer<'_, '_> {
    /// Writes one value.
    ///
    /// # Safety
    ///
    /// `obj` is a live object, kept alive by its container (or the caller)
    /// for the whole call, which holds because no Python code runs.
    #[inline]
    unsafe fn value(&mut self, obj: *mut ffi::PyObject) -> Result {
        // SAFETY: `obj` is live, the GIL is held, and each branch calls the functions of the type
        // it compared `obj`'s type to; the type objects are statics of the
        // interpreter, read only for their address.
        unsafe {
            let ty = type_of(obj);
            if ty == addr_of_mut!(ffi::PyUnicode_Type) {
                return self.str(obj);
            }
            if ty == addr_of_mut!(ffi::PyLong_Type) {
                return self.int(obj);
            }
            if ty == addr_of_mut!(ffi::PyDict_Type) {
                return self.dict(obj);
            }
            if ty == addr_of_mut!(ffi::PyFloat_Type) {
                return Ok(self.out.write_f64(ffi::PyFloat_AS_DOUBLE(obj))?);
            }
            if ty == addr_of_mut!(ffi::PyList_Type) {
                return self.list(obj);
            }
            if obj == ffi::Py_None() {
                return Ok(surp::Output::write_u8(self.out, wire::NULL)?);
            }
            if ty == addr_of_mut!(ffi::PyBool_Type) {
                return Ok(wire::write_bool(self.out, obj == ffi::Py_True())?);
            }
            if ty == addr_of_mut!(ffi::PyBytes_Type) {
                return self.bytes(obj);
            }
            if ty == addr_of_mut!(ffi::PyTuple_Type) {
                return self.tuple(obj);
            }
            self.subclass(obj)
        }
    }

    /// Subclasses of the supported types, written as their base type, as
    /// the serde path does; bytearray and everything else go to the serde
    /// path.
    ///
    /// # Safety
    ///
    /// As [`Writer::value`].
    #[cold]
    #[inline(never)]
    unsafe fn subclass(&mut self, obj: *mut ffi::PyObject) -> Result {
        // SAFETY: `obj` is live; the type checks read its type's flags and
        // base classes, and each branch calls what works on any subtype of
        // the type it checked (they read the object's base-type storage and
        // call no Python method).
        unsafe {
            // bool cannot be subclassed, so an int here is never a bool.
            if ffi::PyLong_Check(obj) != 0 {
                return self.int(obj);
            }
            if ffi::PyFloat_Check(obj) != 0 {
                return Ok(self.out.write_f64(ffi::PyFloat_AS_DOUBLE(obj))?);
            }
            if ffi::PyUnicode_Check(obj) != 0 {
                return self.str(obj);
            }
            if ffi::PyBytes_Check(obj) != 0 {
                return self.bytes(obj);
            }
            if ffi::PyDict_Check(obj) != 0 {
                // A subclass with an order of its own (`OrderedDict`) is
                // written in the order of its `items()`, which only the
                // serde path can call.
                if !crate::ser::keeps_dict_order(obj) {
                    return Err(Halt);
                }
                return self.dict(obj);
            }
            if ffi::PyList_Check(obj) != 0 {
                return self.list(obj);
            }
            if ffi::PyTuple_Check(obj) != 0 {
                return self.tuple(obj);
            }
        }
        Err(Halt)
    }

    /// A str (or subclass), as UTF-8.
    ///
    /// # Safety
    ///
    /// `obj` is a live str.
    #[inline(always)]
    unsafe fn str(&mut self, obj: *mut ffi::PyObject) -> Result {
        // SAFETY: `obj` is a live str, and the slice lives as long as it.
        let text = unsafe { utf8(obj) }.ok_or(Halt)?;
        Ok(self.out.write_str(text)?)
    }

    /// An int (or subclass, never a bool): the 64-bit forms here, wider ones
    /// on the serde path.
    ///
    /// # Safety
    ///
    /// `obj` is a live int.
    #[inline(always)]
    unsafe fn int(&mut self, obj: *mut ffi::PyObject) -> Result {
        if self.ints_in_place {
            // SAFETY: `obj` is a live int, and `ints_in_place` says the
            // digits are 30-bit.
            if let Some(v) = unsafe { small_int(obj) } {
                return Ok(self.out.write_i64(v)?);
            }
        }
        let mut overflow = 0;
        // SAFETY: `obj` is an int, so no `__index__` is called; out of range
        // sets `overflow` rather than an exception.
        let v = unsafe { ffi::PyLong_AsLongLongAndOverflow(obj, &mut overflow) };
        if overflow != 0 {
            return self.wide_int(obj, overflow);
        }
        Ok(self.out.write_i64(v)?)
    }

    /// An int outside the i64 range: a positive one up to u64::MAX here,
    /// the others (the wire's wide integers) on the serde path.
    #[cold]
    fn wide_int(&mut self, obj: *mut ffi::PyObject, overflow: i32) -> Result {
        if overflow > 0 {
            // SAFETY: `obj` is an int; out of range is -1 with an
            // OverflowError set, which is cleared.
            let v = unsafe { ffi::PyLong_AsUnsignedLongLong(obj) };
            // SAFETY: the GIL is held.
            if v != u64::MAX || unsafe { ffi::PyErr_Occurred() }.is_null() {
                return Ok(wire::write_uint(self.out, v)?);
            }
            // SAFETY: the GIL is held; the OverflowError is dropped.
            unsafe { ffi::PyErr_Clear() };
        }
        Err(Halt)
    }

    /// A bytes object (or subclass).
    ///
    /// # Safety
    ///
    /// `obj` is a live bytes object.
    #[inline]
    unsafe fn bytes(&mut self, obj: *mut ffi::PyObject) -> Result {
        // SAFETY: `obj` is a bytes object: its buffer holds its size in
        // bytes and lives as long as it does, which is this call.
        let data = unsafe {
            std::slice::from_raw_parts(
                ffi::PyBytes_AS_STRING(obj).cast::<u8>(),
                ffi::Py_SIZE(obj) as usize,
            )
        };
        Ok(wire::write_bytes(self.out, data)?)
    }

    #[inline(always)]
    fn enter(&mut self) -> Result {
        if self.depth >= MAX_DEPTH {
            return Err(Halt);
        }
        self.depth += 1;
        Ok(())
    }

    /// A list (or subclass), item by item.
    ///
    /// # Safety
    ///
    /// `obj` is a live list.
    #[inline]
    unsafe fn list(&mut self, obj: *mut ffi::PyObject) -> Result {
        self.enter()?;
        // SAFETY: `obj` is a list; no Python code runs, so its size and
        // items stay as they are for the loop, and each item is live.
        unsafe {
            let len = ffi::PyList_GET_SIZE(obj);
            wire::write_header(self.out, wire::Kind::Array, len as usize)?;
            for i in 0..len {
                self.value(ffi::PyList_GET_ITEM(obj, i))?;
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// A tuple (or subclass), item by item.
    ///
    /// # Safety
    ///
    /// `obj` is a live tuple.
    #[inline]
    unsafe fn tuple(&mut self, obj: *mut ffi::PyObject) -> Result {
        self.enter()?;
        // SAFETY: `obj` is a tuple, whose items are set and live.
        unsafe {
            let len = ffi::PyTuple_GET_SIZE(obj);
            wire::write_header(self.out, wire::Kind::Array, len as usize)?;
            for i in 0..len {
                self.value(ffi::PyTuple_GET_ITEM(obj, i))?;
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// A dict (or subclass), in its order, with `PyDict_Next`.
    ///
    /// # Safety
    ///
    /// `obj` is a live dict.
    #[inline]
    unsafe fn dict(&mut self, obj: *mut ffi::PyObject) -> Result {
        self.enter()?;
        // SAFETY: `obj` is a dict; no Python code runs, so it does not
        // change during the loop: its entries are borrowed, live references.
        unsafe {
            let len = ffi::PyDict_Size(obj);
            wire::write_header(self.out, wire::Kind::Map, len as usize)?;
            #[cfg(all(Py_3_11, not(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy))))]
            if let Some(entries) = combined_entries(obj) {
                for entry in entries {
                    if !entry.value.is_null() {
                        self.value(entry.key)?;
                        self.value(entry.value)?;
                    }
                }
                self.depth -= 1;
                return Ok(());
            }
            let mut pos: ffi::Py_ssize_t = 0;
            let mut key = std::ptr::null_mut();
            let mut value = std::ptr::null_mut();
            while ffi::PyDict_Next(obj, &mut pos, &mut key, &mut value) != 0 {
                self.value(key)?;
                self.value(value)?;
            }
        }
        self.depth -= 1;
        Ok(())
    }
}

/// The UTF-8 bytes of a str, or `None` for a str that is not valid Unicode
/// (a lone surrogate).
///
/// A compact ASCII string (most strings) is read in place, from the data
/// that follows its header; the others through `PyUnicode_AsUTF8AndSize`,
/// which makes their UTF-8 form once and keeps it with the string. (From
/// Python 3.14 on, whose string header pyo3 does not describe, every string
/// goes that way; for ASCII it is CPython reading the data in place.)
///
/// # Safety
///
/// `obj` is a live str (or subclass); the slice is valid while it lives.
#[inline(always)]
unsafe fn utf8<'a>(obj: *mut ffi::PyObject) -> Option<&'a [u8]> {
    #[cfg(not(any(Py_LIMITED_API, PyPy, GraalPy, Py_3_14)))]
    // SAFETY: `obj` is a str: its header is a PyASCIIObject, and a compact
    // ASCII one has its `length` bytes of data right after that header.
    unsafe {
        if ffi::PyUnicode_IS_COMPACT_ASCII(obj) != 0 {
            let header = obj.cast::<ffi::PyASCIIObject>();
            let len = (*header).length as usize;
            return Some(std::slice::from_raw_parts(header.add(1).cast::<u8>(), len));
        }
    }
    let mut len: ffi::Py_ssize_t = 0;
    // SAFETY: `obj` is a str. The UTF-8 form stays valid while the string
    // lives. A lone surrogate gives NULL with a UnicodeEncodeError set,
    // which is cleared: the serde path raises it again, with the path.
    unsafe {
        let data = ffi::PyUnicode_AsUTF8AndSize(obj, &mut len);
        if data.is_null() {
            ffi::PyErr_Clear();
            return None;
        }
        Some(std::slice::from_raw_parts(data.cast::<u8>(), len as usize))
    }
}

/// An entry of a string-keyed dict's table on CPython 3.11,
/// `PyDictUnicodeEntry` (`Include/internal/pycore_dict.h`): a key and a
/// value pointer, in that order. `repr(C)` gives it that layout (a Rust
/// tuple's layout is unspecified).
#[cfg(all(Py_3_11, not(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy))))]
#[repr(C)]
struct UnicodeEntry {
    key: *mut ffi::PyObject,
    /// NULL for a removed entry.
    value: *mut ffi::PyObject,
}

/// The entry table of a dict whose keys are all strings and whose values
/// are in that table (a "combined" table: most dicts), as CPython 3.11 lays
/// it out: key and value pairs in insertion order, where a removed entry
/// has a NULL value. Reading it in place saves a call to `PyDict_Next` per
/// entry. Other dicts (keys of other types, the split tables of instance
/// dicts) give `None`, and are read with `PyDict_Next`.
///
/// The layout is CPython 3.11's (`Include/cpython/dictobject.h` and
/// `Include/internal/pycore_dict.h`); other versions do not compile this,
/// and a test reads dicts of every kind both ways.
///
/// # Safety
///
/// `obj` is a live dict (or subclass), not changed while the slice is used.
#[cfg(all(Py_3_11, not(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy))))]
#[inline(always)]
unsafe fn combined_entries<'a>(obj: *mut ffi::PyObject) -> Option<&'a [UnicodeEntry]> {
    /// `struct _dictkeysobject` up to its index table.
    #[repr(C)]
    struct DictKeys {
        dk_refcnt: ffi::Py_ssize_t,
        dk_log2_size: u8,
        dk_log2_index_bytes: u8,
        dk_kind: u8,
        dk_version: u32,
        dk_usable: ffi::Py_ssize_t,
        dk_nentries: ffi::Py_ssize_t,
    }
    /// `DICT_KEYS_UNICODE`: string keys, entries of a key and a value.
    const UNICODE: u8 = 1;
    // SAFETY: `obj` is a dict, whose object starts with `PyDictObject`. Its
    // key table starts with `DictKeys`, followed by the index table of
    // `1 << dk_log2_index_bytes` bytes and then `dk_nentries` entries; for
    // a table of kind UNICODE with the values in it (`ma_values` NULL),
    // each entry is a `PyDictUnicodeEntry`, a key and a value pointer, which
    // is the layout of `UnicodeEntry` (`repr(C)`: two pointers in that
    // order, no padding). A table with entries has at least 8 index slots
    // (`PyDict_MINSIZE`) of at least a byte each, so its entries, after
    // the 8-byte-aligned header and that power of two of bytes, are aligned
    // for pointers. The table of an empty dict may be the shared
    // `Py_EMPTY_KEYS`, whose index table is 1 byte: its entries would be
    // misaligned, so no slice is made at that address.
    unsafe {
        let dict = obj.cast::<ffi::PyDictObject>();
        if !(*dict).ma_values.is_null() {
            return None;
        }
        let keys = (*dict).ma_keys.cast::<DictKeys>();
        if (*keys).dk_kind != UNICODE {
            return None;
        }
        if (*keys).dk_nentries == 0 {
            return Some(&[]);
        }
        let indices = keys.add(1).cast::<u8>();
        let entries = indices.add(1 << (*keys).dk_log2_index_bytes);
        Some(std::slice::from_raw_parts(
            entries.cast(),
            (*keys).dk_nentries as usize,
        ))
    }
}

#[cfg(test)]
mod tests {
    use pyo3::types::{PyDict, PyList};

    use super::*;
    use crate::ser::Encoder;

    /// Objects of every kind the fast path writes, and of the kinds it hands
    /// to the serde path, built by Python code.
    const CASES: &std::ffi::CStr = cr#"
import collections, enum

class Colour(enum.IntEnum):
    RED = 300

class Real(float): pass
class Text(str): pass
class Blob(bytes): pass
class Items(list): pass
class Mapping(dict): pass
class Reordered(dict):
    def __iter__(self):
        return reversed(list(super().__iter__()))
Point = collections.namedtuple("Point", "x y")

def nested(depth):
    obj = 0
    for _ in range(depth):
        obj = [obj]
    return obj

FAST = [
    "", "ascii", "x" * 40, "na\u00efve \U0001f600", "\u00e9" * 100, "\u4e2d" * 50,
    "\U0001f600" * 20, 0, 127, 128, -8, -9, 2**31, 2**63 - 1, -2**63, 2**63, 2**64 - 1,
    0.5, -0.0, 0.1, 1.5, 65504.0, 1e300, float("nan"), float("inf"), float("-inf"),
    True, False, None, b"", b"\x00\x01", b"\xab" * 3000, [], (), {}, [1, [2, [3]]],
    (1, "two", 3.0), {"a": 1, 2: "b", (1, (2, 3)): None, b"k": 1.5, None: True, 0.5: [1]},
    Colour.RED, Real(2.5), Text("sub"), Blob(b"sub"), collections.defaultdict(int, a=1),
    collections.Counter("abca"), Mapping({"m": 1}), Items([1, 2]), Point(1, 2), nested(128),
    [{"id": i, "name": "n" * (i % 70), "tags": ["a", "b"], "score": i / 7} for i in range(3000)],
]
SLOW = [
    2**64, -2**63 - 1, bytearray(b"ab"), "\ud800", object(), [1, object()],
    collections.OrderedDict(a=1), Reordered({"r": 1}),
    {"k": object()}, {object(): 1}, nested(129), [1, "\udfff"],
]
"#;

    fn fast(obj: &Bound<'_, PyAny>) -> Option<Vec<u8>> {
        let mut out = BytesOutput::new(obj.py());
        match write(obj, &mut out) {
            Ok(()) => Some(out.finish().unwrap().as_bytes().to_vec()),
            Err(Stop::Slow) => None,
            Err(Stop::Python(e)) => panic!("{e}"),
        }
    }

    fn serde(obj: &Bound<'_, PyAny>) -> surp::Result<Vec<u8>> {
        let encoder = Encoder::new(obj.py(), None);
        surp::to_vec(&encoder.wrap(obj))
    }

    fn cases<'py>(py: Python<'py>, name: &str) -> Bound<'py, PyList> {
        let globals = PyDict::new(py);
        py.run(CASES, Some(&globals), None).unwrap();
        globals
            .get_item(name)
            .unwrap()
            .unwrap()
            .cast_into()
            .unwrap()
    }

    #[cfg(not(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy)))]
    #[test]
    fn ints_read_in_place_are_the_values_cpython_gives() {
        Python::initialize();
        Python::attach(|py| {
            assert!(
                ints_in_place(py),
                "CPython's default build has 30-bit digits"
            );
            // Around every power of two up to 2^70, both signs, and the
            // small ints CPython shares, and an IntEnum.
            let ints = py
                .eval(
                    cr#"([s * (2**k + d) for k in range(71) for d in (-2, -1, 0, 1) for s in (1, -1)]
                       + list(range(-300, 300)) + [__import__("enum").IntEnum("E", {"A": 2**40}).A])"#,
                    None,
                    None,
                )
                .unwrap();
            let mut read = 0;
            for int in ints.cast::<PyList>().unwrap().iter() {
                let mut overflow = 0;
                // SAFETY: `int` is a live int.
                let expected =
                    unsafe { ffi::PyLong_AsLongLongAndOverflow(int.as_ptr(), &mut overflow) };
                // SAFETY: `int` is a live int, and the digits are 30-bit.
                match unsafe { small_int(int.as_ptr()) } {
                    Some(v) => {
                        assert_eq!((v, overflow), (expected, 0), "{int}");
                        read += 1;
                    }
                    // Only magnitudes of 2^60 and more are left to CPython.
                    None => assert!(overflow != 0 || expected.unsigned_abs() >= 1 << 60, "{int}"),
                }
            }
            assert!(read > 1000);
        });
    }

    #[test]
    fn the_fast_path_writes_what_the_serde_path_writes() {
        Python::initialize();
        Python::attach(|py| {
            for obj in cases(py, "FAST").iter() {
                let expected = serde(&obj).unwrap();
                assert_eq!(fast(&obj).as_deref(), Some(&expected[..]), "{obj:?}");
            }
        });
    }

    /// Dicts of every layout: string keys, other keys, removed entries,
    /// instance dicts (split tables), large and empty ones.
    const DICTS: &std::ffi::CStr = cr#"
class Obj:
    def __init__(self, i):
        self.a, self.b, self.c = i, str(i), [i]

removed = {str(i): i for i in range(100)}
for i in range(0, 100, 3):
    del removed[str(i)]
removed["new"] = -1
mixed = {"a": 1, 2: "b"}
del mixed[2]
DICTS = [
    {}, {"a": 1}, {str(i): i for i in range(1000)}, removed, mixed, {1: 2, (3,): 4},
    {"x": None, b"y": 1}, vars(Obj(1)), vars(Obj(2)), dict(vars(Obj(3))),
]
"#;

    #[test]
    fn dicts_of_every_layout_are_written_in_their_order() {
        Python::initialize();
        Python::attach(|py| {
            let globals = PyDict::new(py);
            py.run(DICTS, Some(&globals), None).unwrap();
            let dicts: Bound<'_, PyList> = globals
                .get_item("DICTS")
                .unwrap()
                .unwrap()
                .cast_into()
                .unwrap();
            for dict in dicts.iter() {
                let expected = serde(&dict).unwrap();
                assert_eq!(fast(&dict).as_deref(), Some(&expected[..]), "{dict:?}");
            }
            // On 3.11 a dict of string keys is read in place.
            #[cfg(all(Py_3_11, not(any(Py_3_12, Py_LIMITED_API, PyPy, GraalPy))))]
            {
                let empty = dicts.get_item(0).unwrap();
                let strings = dicts.get_item(2).unwrap();
                let others = dicts.get_item(5).unwrap();
                // SAFETY: live dicts, unchanged while the slices are used.
                unsafe {
                    assert_eq!(
                        combined_entries(strings.as_ptr()).map(<[_]>::len),
                        Some(1000)
                    );
                    assert!(combined_entries(others.as_ptr()).is_none());
                    // `{}` shares CPython's empty table, whose entries would
                    // be misaligned (debug builds check slices for that).
                    assert_eq!(combined_entries(empty.as_ptr()).map(<[_]>::len), Some(0));
                }
            }
        });
    }

    #[test]
    fn the_fast_path_hands_over_what_it_does_not_write() {
        Python::initialize();
        Python::attach(|py| {
            for obj in cases(py, "SLOW").iter() {
                assert_eq!(fast(&obj), None, "{obj:?}");
                // A lone surrogate's UnicodeEncodeError was cleared.
                assert!(PyErr::take(py).is_none());
            }
        });
    }
}
