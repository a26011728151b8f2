//! The fast path of `loads`: a direct, recursive reader of plain Surp
//! documents that builds Python objects as it goes, as orjson and ormsgpack
//! do, with no serde in between.
//!
//! - A tag is one `match`; lengths and integers are read from the slice in
//!   place.
//! - An ASCII str is made with `PyUnicode_New` and one copy, others with
//!   CPython's UTF-8 decoder (which checks them); dict keys come from the
//!   process-wide [`KeyCache`].
//! - A list is made at its size and filled in place with `PyList_SET_ITEM`,
//!   out of the garbage collector's sight until it is whole (see
//!   [`crate::de`] for why); a dict is made empty (`PyDict_New`) and grows
//!   as `PyDict_SetItem` fills it, as the serde path's does (see
//!   [`Reader::fill_dict`] for why it is not presized).
//!
//! It reads what the `surp` crate's deserializer reads, and is no more
//! lenient: whatever it is not sure of stops it with [`Stop::Slow`], and the
//! caller decodes the whole document again with [`crate::de`], the serde
//! path, which reports the error with its kind and offset (or decodes what
//! only it handles). That is: a deduplicated document, a tag other than a
//! plain value's (reserved, deduplication references), wide integers,
//! invalid UTF-8, a length the input cannot hold, nesting past the limit,
//! a map used as a map key, and bytes after the document. The limits are
//! the crate's defaults, checked at the same points: the depth counts
//! arrays, maps and `some` markers; an array must have a byte per item
//! left, a map two; a string or byte string no longer than `max_alloc`.
//!
//! Python exceptions from making objects (a `MemoryError`) are
//! [`Stop::Python`], raised as they are; the exception stays set in the
//! interpreter on the way up, where nothing but freeing objects happens.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use surp::wire;

use crate::keys::KeyCache;

/// Why the fast path stopped. (One byte, so that every value comes back in
/// registers.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Decode the document again with the serde path (see the module's
    /// notes).
    Slow,
    /// Making an object failed, and its exception (a `MemoryError`) is set
    /// in the interpreter: raise it (`PyErr::fetch`).
    Python,
}

type Result<T> = std::result::Result<T, Stop>;

/// Decodes one whole plain document.
pub(crate) fn read<'py>(
    py: Python<'py>,
    input: &[u8],
    keys: Option<&mut KeyCache>,
) -> Result<Bound<'py, PyAny>> {
    if input.first() == Some(&wire::DEDUP_MARKER) {
        return Err(Stop::Slow);
    }
    let mut r = Reader {
        py,
        input,
        pos: 0,
        depth: 0,
        budget: input.len(),
        keys,
    };
    let value = r.value()?;
    if r.pos != input.len() {
        return Err(Stop::Slow);
    }
    Ok(value)
}

struct Reader<'a, 'py> {
    py: Python<'py>,
    input: &'a [u8],
    /// The next byte to read.
    pos: usize,
    /// Arrays, maps and `some` markers open around the current value.
    depth: usize,
    /// List slots (and room for a tuple key's items) that may still be made
    /// ahead of their items: the input's length, less those of the lists
    /// and tuples being filled, so that the ones open at once never hold
    /// room for more items than the input has bytes (the serde path's hint
    /// budget). Past it, they grow as they are filled.
    budget: usize,
    keys: Option<&'a mut KeyCache>,
}

/// The object a CPython constructor returned as a new reference, or the
/// exception it set when it returned NULL.
///
/// # Safety
///
/// `ptr` is what a CPython constructor returned: a new (owned) reference,
/// or NULL with an exception set.
#[inline(always)]
unsafe fn made<'py>(py: Python<'py>, ptr: *mut ffi::PyObject) -> Result<Bound<'py, PyAny>> {
    if ptr.is_null() {
        return Err(Stop::Python);
    }
    // SAFETY: the caller's promise: a new reference.
    Ok(unsafe { Bound::from_owned_ptr(py, ptr) })
}

impl<'a, 'py> Reader<'a, 'py> {
    #[inline(always)]
    fn byte(&mut self) -> Result<u8> {
        let Some(&b) = self.input.get(self.pos) else {
            return Err(Stop::Slow);
        };
        self.pos += 1;
        Ok(b)
    }

    /// The next `n` bytes.
    #[inline(always)]
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.input.len() - self.pos {
            return Err(Stop::Slow);
        }
        let bytes = &self.input[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    /// A little-endian integer of `width` bytes (1 to 8): one 8-byte load,
    /// masked, when the input has 8 bytes left.
    #[inline(always)]
    fn le(&mut self, width: usize) -> Result<u64> {
        debug_assert!((1..=8).contains(&width));
        let pos = self.pos;
        if let Some(word) = self.input.get(pos..pos + 8) {
            let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            self.pos = pos + width;
            return Ok(word & (u64::MAX >> (64 - 8 * width)));
        }
        let b = self.take(width)?;
        let mut buf = [0u8; 8];
        buf[..width].copy_from_slice(b);
        Ok(u64::from_le_bytes(buf))
    }

    /// The length after a length-class tag (`STR8..=MAP_LAST`).
    #[inline(always)]
    fn len(&mut self, tag: u8) -> Result<u64> {
        self.le(wire::length_class_width(tag))
    }

    #[inline(always)]
    fn enter(&mut self) -> Result<()> {
        if self.depth >= surp::DEFAULT_MAX_DEPTH {
            return Err(Stop::Slow);
        }
        self.depth += 1;
        Ok(())
    }

    /// Decodes one value.
    fn value(&mut self) -> Result<Bound<'py, PyAny>> {
        let tag = self.byte()?;
        self.value_after(tag)
    }

    /// Decodes the value whose tag was just read.
    #[inline(always)]
    fn value_after(&mut self, tag: u8) -> Result<Bound<'py, PyAny>> {
        let py = self.py;
        match tag {
            wire::FIXUINT..=wire::FIXUINT_MAX => self.int(i64::from(tag)),
            wire::FIXSTR..=wire::FIXSTR_LAST => {
                let len = usize::from(tag & wire::FIXSTR_MAX_LEN as u8);
                self.str(len as u64)
            }
            wire::FIXARRAY..=wire::FIXARRAY_LAST => {
                self.array(u64::from(tag & wire::FIXARRAY_MAX_LEN as u8))
            }
            wire::FIXMAP..=wire::FIXMAP_LAST => {
                self.map(u64::from(tag & wire::FIXMAP_MAX_LEN as u8))
            }
            wire::STR8..=wire::STR_LAST => {
                let len = self.len(tag)?;
                self.str(len)
            }
            wire::BIN8..=wire::BIN_LAST => {
                let len = self.len(tag)?;
                self.bytes(len)
            }
            wire::ARRAY8..=wire::ARRAY_LAST => {
                let len = self.len(tag)?;
                self.array(len)
            }
            wire::MAP8..=wire::MAP_LAST => {
                let len = self.len(tag)?;
                self.map(len)
            }
            wire::UINT1..=wire::UINT_LAST => {
                let v = self.le(wire::int_width(tag))?;
                match i64::try_from(v) {
                    Ok(v) => self.int(v),
                    // SAFETY: no precondition; a new reference or NULL with
                    // an exception set.
                    Err(_) => unsafe { made(py, ffi::PyLong_FromUnsignedLongLong(v)) },
                }
            }
            wire::NINT1..=wire::NINT_LAST => {
                let n = self.le(wire::int_width(tag))?;
                match i64::try_from(n) {
                    Ok(n) => self.int(!n),
                    Err(_) => {
                        let Ok(v) = (!i128::from(n)).into_pyobject(py);
                        Ok(v.into_any())
                    }
                }
            }
            wire::NULL => Ok(py.None().into_bound(py)),
            wire::FALSE => Ok(pyo3::types::PyBool::new(py, false).to_owned().into_any()),
            wire::TRUE => Ok(pyo3::types::PyBool::new(py, true).to_owned().into_any()),
            wire::SOME => {
                self.enter()?;
                let v = self.value()?;
                self.depth -= 1;
                Ok(v)
            }
            wire::F32 => self.f32(),
            wire::F16 => self.f16(),
            wire::F64 => {
                let v = f64::from_bits(self.le(8)?);
                // SAFETY: no precondition; a new reference or NULL with an
                // exception set.
                unsafe { made(py, ffi::PyFloat_FromDouble(v)) }
            }
            wire::FIXNINT_MIN..=wire::FIXNINT_LAST => self.int(wire::fixnint_value(tag)),
            // Shape and string references, the deduplication marker, wide
            // integers and the reserved tag.
            _ => Err(Stop::Slow),
        }
    }

    #[inline(always)]
    fn int(&mut self, v: i64) -> Result<Bound<'py, PyAny>> {
        // SAFETY: no precondition; a new reference or NULL with an exception.
        unsafe { made(self.py, ffi::PyLong_FromLongLong(v)) }
    }

    /// A binary32 float, widened on the bits as the serde path widens it
    /// (`surp::Value`), so NaN payloads survive.
    #[inline(always)]
    fn f32(&mut self) -> Result<Bound<'py, PyAny>> {
        let narrow = f32::from_bits(self.le(4)? as u32);
        self.widened(narrow)
    }

    /// A float object for a binary16 or binary32 value: a number widens
    /// exactly with `as`, and a NaN as the crate widens it.
    #[inline(always)]
    fn widened(&mut self, narrow: f32) -> Result<Bound<'py, PyAny>> {
        let wide = if narrow.is_nan() {
            widened_nan(narrow)
        } else {
            f64::from(narrow)
        };
        // SAFETY: no precondition; a new reference or NULL with an exception.
        unsafe { made(self.py, ffi::PyFloat_FromDouble(wide)) }
    }

    /// A binary16 float.
    #[inline(always)]
    fn f16(&mut self) -> Result<Bound<'py, PyAny>> {
        let bits = self.le(2)? as u16;
        match f16_to_f32(bits) {
            Some(narrow) => self.widened(narrow),
            None => self.f16_subnormal(bits),
        }
    }

    /// A subnormal binary16 float, read by the crate's reference decoder of
    /// headers.
    #[cold]
    fn f16_subnormal(&mut self, bits: u16) -> Result<Bound<'py, PyAny>> {
        let [lo, hi] = bits.to_le_bytes();
        match wire::decode_header(&[wire::F16, lo, hi], self.pos) {
            Ok((wire::Header::F16(narrow), _)) => self.widened(narrow),
            _ => Err(Stop::Slow),
        }
    }

    /// The bytes of a string or byte string of `len` bytes, within the
    /// input and the allocation limit.
    #[inline(always)]
    fn literal(&mut self, len: u64) -> Result<&'a [u8]> {
        if len > surp::DEFAULT_MAX_ALLOC as u64 {
            return Err(Stop::Slow);
        }
        self.take(len as usize)
    }

    #[inline(always)]
    fn str(&mut self, len: u64) -> Result<Bound<'py, PyAny>> {
        let py = self.py;
        let text = self.literal(len)?;
        new_str(py, text)
    }

    #[inline]
    fn bytes(&mut self, len: u64) -> Result<Bound<'py, PyAny>> {
        let py = self.py;
        let data = self.literal(len)?;
        if !crate::copy::in_pieces(data.len()) {
            // A run `copy` would take whole, CPython copies itself; and it
            // gives its shared object for an empty or one-byte `bytes`, as
            // ormsgpack's loads does.
            // SAFETY: the pointer and length are those of a live slice,
            // whose length fits an isize (Rust guarantees it); the bytes
            // are copied. A new reference, or NULL with an exception.
            return unsafe {
                made(
                    py,
                    ffi::PyBytes_FromStringAndSize(
                        data.as_ptr().cast(),
                        data.len() as ffi::Py_ssize_t,
                    ),
                )
            };
        }
        // SAFETY: a NULL source makes an uninitialised `bytes` object of
        // `data.len()` bytes (it fits an isize: it is a slice's length), a
        // new reference, or NULL with an exception; its buffer is filled
        // here before anything else sees it.
        unsafe {
            let bytes = made(
                py,
                ffi::PyBytes_FromStringAndSize(std::ptr::null(), data.len() as ffi::Py_ssize_t),
            )?;
            crate::copy::copy(
                data,
                ffi::PyBytes_AS_STRING(bytes.as_ptr())
                    .cast::<u8>()
                    .cast_mut(),
            );
            Ok(bytes)
        }
    }

    /// The count of an array or map, if the input has `per_item` bytes left
    /// for each item.
    #[inline(always)]
    fn count(&self, len: u64, per_item: usize) -> Result<usize> {
        let left = (self.input.len() - self.pos) / per_item;
        if len > left as u64 {
            return Err(Stop::Slow);
        }
        Ok(len as usize)
    }

    fn array(&mut self, len: u64) -> Result<Bound<'py, PyAny>> {
        let len = self.count(len, 1)?;
        self.enter()?;
        let slots = len.min(self.budget);
        self.budget -= slots;
        let list = self.fill_list(len, slots);
        self.budget += slots;
        self.depth -= 1;
        list
    }

    /// A list of `len` items, the first `slots` of them set in place.
    #[inline(always)]
    fn fill_list(&mut self, len: usize, slots: usize) -> Result<Bound<'py, PyAny>> {
        // SAFETY: PyList_New returns a new reference to a list of `slots`
        // NULL slots (`slots` fits an isize: it is at most the input's
        // length), or NULL with an exception. The list is untracked before
        // anything else can run (an untracked list is allowed: list_dealloc
        // untracks only a tracked object, and frees NULL slots as nothing).
        let list = unsafe {
            let list = made(self.py, ffi::PyList_New(slots as ffi::Py_ssize_t))?;
            ffi::PyObject_GC_UnTrack(list.as_ptr().cast());
            list
        };
        for i in 0..len {
            let item = self.value()?;
            if i < slots {
                // SAFETY: slot `i` is inside the list (`i < slots`, its
                // size) and still NULL (each slot is set once, in order);
                // PyList_SET_ITEM steals the reference `into_ptr` gives up.
                unsafe {
                    ffi::PyList_SET_ITEM(list.as_ptr(), i as ffi::Py_ssize_t, item.into_ptr());
                }
            } else {
                // SAFETY: `list` is a list and `item` a live object, which
                // PyList_Append does not steal.
                if unsafe { ffi::PyList_Append(list.as_ptr(), item.as_ptr()) } != 0 {
                    return Err(Stop::Python);
                }
            }
        }
        // SAFETY: every slot is set (`len >= slots` items were), and only
        // this function refers to the list, which was untracked above.
        unsafe { ffi::PyObject_GC_Track(list.as_ptr().cast()) };
        Ok(list)
    }

    fn map(&mut self, len: u64) -> Result<Bound<'py, PyAny>> {
        let len = self.count(len, 2)?;
        self.enter()?;
        let dict = self.fill_dict(len);
        self.depth -= 1;
        dict
    }

    /// A dict of `len` entries.
    ///
    /// It is made empty and grows as it is filled, as the serde path's and
    /// a dict built in Python do. `_PyDict_NewPresized` would save the
    /// resizes, but on CPython 3.11 to 3.13 it makes a table for keys of
    /// any type (`DICT_KEYS_GENERAL`), whose entries keep each key's hash:
    /// a dict of str keys, the common case, was then a third larger than
    /// the serde path's (`sys.getsizeof`, a test holds them equal), slower
    /// to look up, and on 3.11 `dumps` could not read its entries in place
    /// (`write::combined_entries`).
    #[inline(always)]
    fn fill_dict(&mut self, len: usize) -> Result<Bound<'py, PyAny>> {
        // SAFETY: no precondition; a new reference to a dict or NULL with an
        // exception set.
        let dict = unsafe { made(self.py, ffi::PyDict_New())? };
        for _ in 0..len {
            let key = self.key()?;
            let value = self.value()?;
            // SAFETY: `dict` is a dict; `key` is hashable (a str, int,
            // float, bytes, bool, None or a tuple of those: hashing and
            // comparing them runs no Python code) and `value` live; neither
            // reference is stolen.
            if unsafe { ffi::PyDict_SetItem(dict.as_ptr(), key.as_ptr(), value.as_ptr()) } != 0 {
                return Err(Stop::Python);
            }
        }
        Ok(dict)
    }

    /// Decodes a map key: strings come from the key cache, an array is a
    /// tuple (Python keys must be hashable), and a map stops the fast path.
    fn key(&mut self) -> Result<Bound<'py, PyAny>> {
        let tag = self.byte()?;
        match tag {
            wire::FIXSTR..=wire::FIXSTR_LAST => {
                let len = u64::from(tag & wire::FIXSTR_MAX_LEN as u8);
                self.key_str(len)
            }
            wire::STR8..=wire::STR_LAST => {
                let len = self.len(tag)?;
                self.key_str(len)
            }
            wire::FIXARRAY..=wire::FIXARRAY_LAST => {
                self.tuple(u64::from(tag & wire::FIXARRAY_MAX_LEN as u8))
            }
            wire::ARRAY8..=wire::ARRAY_LAST => {
                let len = self.len(tag)?;
                self.tuple(len)
            }
            wire::FIXMAP..=wire::FIXMAP_LAST | wire::MAP8..=wire::MAP_LAST => Err(Stop::Slow),
            wire::SOME => {
                self.enter()?;
                let key = self.key()?;
                self.depth -= 1;
                Ok(key)
            }
            _ => self.value_after(tag),
        }
    }

    #[inline(always)]
    fn key_str(&mut self, len: u64) -> Result<Bound<'py, PyAny>> {
        let py = self.py;
        let text = self.literal(len)?;
        match self.keys.as_deref_mut() {
            Some(keys) => keys.get(py, text, |text| new_str(py, text)),
            None => new_str(py, text),
        }
    }

    /// An array used as a map key, as a tuple of keys.
    #[cold]
    fn tuple(&mut self, len: u64) -> Result<Bound<'py, PyAny>> {
        let len = self.count(len, 1)?;
        self.enter()?;
        let slots = len.min(self.budget);
        self.budget -= slots;
        let mut items = Vec::with_capacity(slots);
        let mut result = Ok(());
        for _ in 0..len {
            match self.key() {
                Ok(item) => items.push(item),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.budget += slots;
        self.depth -= 1;
        result?;
        match PyTuple::new(self.py, items) {
            Ok(tuple) => Ok(tuple.into_any()),
            Err(err) => {
                err.restore(self.py);
                Err(Stop::Python)
            }
        }
    }
}

/// A binary32 NaN widened on the bits, as `surp::Value` widens it (its
/// payload and sign kept; an `as` cast may quiet a signalling NaN).
#[cold]
fn widened_nan(narrow: f32) -> f64 {
    match surp::Value::from(narrow) {
        surp::Value::Float(wide) => wide,
        _ => f64::from(narrow),
    }
}

/// The binary32 float equal to a binary16 one that is zero, normal,
/// infinite or NaN (with its payload, in the high bits, as the crate
/// widens it); `None` for a subnormal, which the caller widens otherwise.
#[inline(always)]
fn f16_to_f32(h: u16) -> Option<f32> {
    let sign = u32::from(h & 0x8000) << 16;
    let exponent = u32::from(h >> 10) & 0x1f;
    let mantissa = u32::from(h & 0x3ff) << 13;
    let bits = match exponent {
        0 if mantissa == 0 => sign,
        0 => return None,
        0x1f => sign | 0x7f80_0000 | mantissa,
        // Rebias the exponent: 15 in binary16, 127 in binary32.
        _ => sign | ((exponent + 112) << 23) | mantissa,
    };
    Some(f32::from_bits(bits))
}

/// A `str` from bytes that should be UTF-8: ASCII is copied into a new
/// string as it is; other text goes through CPython's strict UTF-8 decoder,
/// and text it refuses stops the fast path (the serde path reports it).
#[inline]
pub(crate) fn new_str<'py>(py: Python<'py>, text: &[u8]) -> Result<Bound<'py, PyAny>> {
    let len = text.len() as ffi::Py_ssize_t;
    if let [c] = *text
        && c.is_ascii()
    {
        // CPython keeps one object for each one-character latin-1 string;
        // PyUnicode_FromOrdinal gives it, where PyUnicode_New would make
        // a new object every time.
        // SAFETY: an ASCII code point is in range. A new reference (to the
        // shared string), or NULL with an exception.
        return unsafe { made(py, ffi::PyUnicode_FromOrdinal(c.into())) };
    }
    if text.is_ascii() {
        // SAFETY: PyUnicode_New gives a new, compact str of `len` code
        // points of at most 127, one byte each, or NULL with an exception;
        // its data (PyUnicode_DATA) has room for `len` bytes, which are
        // filled here before anything else sees the string. `text` is ASCII,
        // as promised by the maximum. (For `len` 0 it is the shared empty
        // string, and nothing is written.)
        unsafe {
            let s = made(py, ffi::PyUnicode_New(len, 127))?;
            crate::copy::copy(text, ffi::PyUnicode_DATA(s.as_ptr()).cast::<u8>());
            return Ok(s);
        }
    }
    // SAFETY: the pointer and length are those of a live slice; NULL errors
    // means strict. The result is a new reference or NULL with an exception.
    let s = unsafe { ffi::PyUnicode_DecodeUTF8(text.as_ptr().cast(), len, std::ptr::null()) };
    if s.is_null() {
        return Err(not_utf8());
    }
    // SAFETY: a new reference to a str.
    Ok(unsafe { Bound::from_owned_ptr(py, s) })
}

/// What a failed UTF-8 decode means: invalid text (the serde path reports
/// it; the exception is cleared) or a Python error (out of memory, left
/// set).
#[cold]
fn not_utf8() -> Stop {
    // SAFETY: the GIL is held and an exception is set; the exception type
    // is a static of the interpreter.
    unsafe {
        if ffi::PyErr_ExceptionMatches(ffi::PyExc_UnicodeDecodeError) != 0 {
            ffi::PyErr_Clear();
            return Stop::Slow;
        }
    }
    Stop::Python
}

#[cfg(test)]
mod tests {
    use pyo3::types::{PyDict, PyList};

    use super::*;
    use crate::de::Decoder;
    use crate::ser::Encoder;

    /// Values of every kind, whose documents the serde encoder writes.
    const VALUES: &std::ffi::CStr = cr#"
VALUES = [
    "", "a", "\x7f", "\xe9", "ascii", "x" * 40, "na\u00efve \U0001f600", "\u4e2d" * 50, 0, 127, 128, -8, -9,
    2**63 - 1, -2**63, 2**63, 2**64 - 1, -2**64,
    0.5, -0.0, 0.1, 1.5, 1e300, float("nan"), float("inf"), True, False, None, b"", b"\x00", b"\xff",
    b"ab", b"\xab" * 2047, b"\xab" * 3000, [], {}, [1, [2, [3]]],
    {"a": 1, 2: "b", (1, (2, ())): None, b"k": 1.5, None: True, 0.5: [1], "k" * 100: 0},
    {str(i): i for i in range(40)},
    [{"id": i, "name": "n" * (i % 70), "tags": ["a", "b"], "score": i / 7} for i in range(3000)],
]
"#;

    /// What the fast path makes of `doc`, as the repr of the value and its
    /// serde encoding (which keeps types, float bits and order); `None` when
    /// it hands the document over.
    fn fast(py: Python<'_>, doc: &[u8], budget: Option<usize>) -> Option<(String, Vec<u8>)> {
        let mut keys = KeyCache::lock();
        let mut r = Reader {
            py,
            input: doc,
            pos: 0,
            depth: 0,
            budget: budget.unwrap_or(doc.len()),
            keys: keys.as_deref_mut(),
        };
        let value = match budget {
            Some(_) => r.value(),
            None => read(py, doc, keys.as_deref_mut()),
        };
        match value {
            Ok(value) => Some(described(&value)),
            Err(Stop::Slow) => {
                assert!(PyErr::take(py).is_none(), "an exception left set");
                None
            }
            Err(Stop::Python) => panic!("{}", PyErr::fetch(py)),
        }
    }

    fn described(value: &Bound<'_, PyAny>) -> (String, Vec<u8>) {
        let encoder = Encoder::new(value.py(), None);
        let bytes = surp::to_vec(&encoder.wrap(value)).unwrap();
        (value.repr().unwrap().to_string(), bytes)
    }

    fn serde(py: Python<'_>, doc: &[u8]) -> PyResult<(String, Vec<u8>)> {
        Decoder::new(py)
            .decode_with_serde(doc)
            .map(|value| described(&value))
    }

    /// Checks that the fast path decodes `doc` as the serde path does.
    fn agrees(py: Python<'_>, doc: &[u8]) {
        let expected = serde(py, doc).unwrap();
        assert_eq!(fast(py, doc, None), Some(expected), "{doc:02x?}");
    }

    #[test]
    fn the_fast_path_reads_what_the_serde_path_reads() {
        Python::initialize();
        Python::attach(|py| {
            let globals = PyDict::new(py);
            py.run(VALUES, Some(&globals), None).unwrap();
            let values: Bound<'_, PyList> = globals
                .get_item("VALUES")
                .unwrap()
                .unwrap()
                .cast_into()
                .unwrap();
            for value in values.iter() {
                let doc = surp::to_vec(&Encoder::new(py, None).wrap(&value)).unwrap();
                agrees(py, &doc);
            }
            let mut documents: Vec<Vec<u8>> = vec![
                // u64 above i64::MAX, and -1 - n for n above i64::MAX.
                vec![0xdf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                vec![0xe7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                // Integers of every width, as the last bytes of the input.
                vec![0xda, 1, 2, 3],
                vec![0xe4, 1, 2, 3, 4, 5],
                // A binary32 NaN with a payload, and a signalling one.
                vec![0xed, 0x01, 0x00, 0xc0, 0x7f],
                vec![0xed, 0x01, 0x00, 0x80, 0xff],
                // Lengths in their longer forms than needed.
                vec![0xc8, 3, b'a', b'b', b'c'],
                vec![0xd1, 1, 0, 0x05],
                vec![0xd7, 1, 0, 0, 0, 0, 0, 0, 0, 0x81, b'k', 0x00],
                // `some` markers, as values and as keys.
                vec![0xeb, 0xeb, 0x00],
                vec![0xb1, 0xeb, 0x81, b'k', 0x00],
                vec![0xb1, 0xeb, 0xa1, 0x01, 0x00],
                // Keys: an array (a tuple), nested, empty; int, bytes, null.
                vec![0xb1, 0xa2, 0x01, 0xa1, 0xa0, 0x00],
                vec![0xb2, 0x05, 0x01, 0xe8, 0x02],
                vec![0xb1, 0xcc, 2, b'h', b'i', 0x03],
                // A repeated key: the last value wins.
                vec![0xb2, 0x81, b'k', 0x01, 0x81, b'k', 0x02],
                // Not ASCII, in a key and a value.
                vec![0xb1, 0x82, 0xc3, 0xa9, 0x82, 0xc3, 0xa9],
            ];
            // Every binary16 value, subnormals included.
            for h in (0..=u16::MAX)
                .step_by(7)
                .chain([1, 0x3ff, 0x8001, 0x7c01, 0xfe00])
            {
                let [lo, hi] = h.to_le_bytes();
                documents.push(vec![wire::F16, lo, hi]);
            }
            // Nesting at the depth limit, of every kind that counts.
            for level in [&[0xa1][..], &[0xb1, 0x00], &[0xeb]] {
                let mut doc = level.repeat(surp::DEFAULT_MAX_DEPTH);
                doc.push(0x00);
                documents.push(doc);
            }
            for doc in documents {
                agrees(py, &doc);
            }
        });
    }

    #[test]
    fn the_fast_path_hands_over_what_it_does_not_read() {
        Python::initialize();
        Python::attach(|py| {
            let mut documents: Vec<Vec<u8>> = vec![
                vec![],
                // Trailing bytes, truncations, counts beyond the input.
                vec![0x00, 0x00],
                vec![0xc8],
                vec![0x83, b'a'],
                vec![0xa2, 0x00],
                vec![0xb1, 0x00],
                vec![0xee, 0, 0, 0],
                // The reserved tag, wide integers, deduplication tags.
                vec![0xf1],
                vec![0xef, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9],
                vec![0xf0, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9],
                vec![0xc0],
                vec![0xf3, 0x00],
                vec![0xf6, 0x00],
                vec![0xf2, 0xa0, 0xa0],
                // A map as a map key; invalid UTF-8 in a value and a key.
                vec![0xb1, 0xb0, 0x00],
                vec![0x82, 0xc0, 0xaf],
                vec![0xb1, 0x81, 0xff, 0x00],
                vec![0x83, 0xed, 0xa0, 0x80],
            ];
            for level in [&[0xa1][..], &[0xb1, 0x00], &[0xeb]] {
                let mut doc = level.repeat(surp::DEFAULT_MAX_DEPTH + 1);
                doc.push(0x00);
                documents.push(doc);
            }
            for doc in documents {
                assert_eq!(fast(py, &doc, None), None, "{doc:02x?}");
                // The serde path gives the error (or, for a deduplicated
                // document, the value).
                let _ = serde(py, &doc);
            }
        });
    }

    #[test]
    fn lists_past_the_budget_grow_as_they_are_filled() {
        Python::initialize();
        Python::attach(|py| {
            // [1, 2, 3], {"a": 1, ..., "f": 6} and a list of them, with no
            // slots to make ahead (dicts take none: they always grow).
            let mut map = vec![0xb6];
            for (i, k) in (b'a'..=b'f').enumerate() {
                map.extend([0x81, k, i as u8 + 1]);
            }
            let mut both = vec![0xa2, 0xa3, 1, 2, 3];
            both.extend(&map);
            for doc in [vec![0xa3, 1, 2, 3], map, both] {
                for budget in [0, 1, 2] {
                    let expected = serde(py, &doc).unwrap();
                    assert_eq!(fast(py, &doc, Some(budget)), Some(expected), "{doc:02x?}");
                }
            }
            // An array that claims the rest of the input under one that does
            // too: the inner one runs out of budget, then of input.
            let mut doc = vec![0xd0, 200, 0xd0, 190];
            doc.extend([0u8; 200]);
            assert_eq!(fast(py, &doc, None), None);
        });
    }

    #[test]
    fn binary16_widens_as_the_crate_widens_it() {
        for h in 0..=u16::MAX {
            let [lo, hi] = h.to_le_bytes();
            let Ok((wire::Header::F16(expected), 3)) = wire::decode_header(&[wire::F16, lo, hi], 0)
            else {
                panic!("{h:#06x} is not a binary16 header");
            };
            match f16_to_f32(h) {
                Some(v) => assert_eq!(v.to_bits(), expected.to_bits(), "{h:#06x}"),
                None => assert!(h & 0x7c00 == 0 && h & 0x3ff != 0, "{h:#06x}"),
            }
        }
    }
}
