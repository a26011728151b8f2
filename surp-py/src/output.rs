//! Where `dumps` writes: straight into the `bytes` object it returns.
//!
//! The document is written into a `bytes` object under construction, which
//! grows in place (`_PyBytes_Resize`, a `realloc`) when a write would not
//! fit and is cut to its length at the end, as orjson and ormsgpack do. No
//! byte is copied after it is written except by a `realloc` that cannot grow
//! in place, and a large payload (a long string, a blob) is copied once,
//! from the object to the output.
//!
//! The document lives only in Python memory, so running out of memory is a
//! `MemoryError`, not an aborted allocation in Rust.

use std::os::raw::c_int;
use std::ptr;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
#[cfg(not(any(PyPy, GraalPy)))]
use surp::__private::wire;
use surp::{Error, Output};

/// The first capacity: most documents of a few hundred bytes fit, and the
/// capacity doubles from there.
const INITIAL: usize = 1024;

unsafe extern "C" {
    /// Resizes a `bytes` object that nothing else refers to yet (CPython's
    /// own API for building one in place, which pyo3's `ffi` declares but
    /// does not export). On failure it frees the object, sets `*bytes` to
    /// NULL and raises `MemoryError`. PyPy exports it under its own prefix
    /// (the link name is pyo3-ffi's, whose `PyBytesWriter` resizes `bytes`
    /// objects this way there too); GraalPy, as pyo3-ffi declares it, under
    /// CPython's name.
    #[cfg_attr(PyPy, link_name = "_PyPyBytes_Resize")]
    fn _PyBytes_Resize(bytes: *mut *mut ffi::PyObject, size: ffi::Py_ssize_t) -> c_int;
}

/// An [`Output`] that fills a `bytes` object under construction.
///
/// Invariants: either `bytes` is NULL (nothing made yet, or a resize failed
/// and freed it), `data` dangling and `cap` 0; or `bytes` is a `bytes`
/// object of size `cap` that only this value refers to, and `data` points
/// at its first byte. `len <= cap`, and the first `len` bytes are written.
/// After a failed resize `failed` holds the error and nothing more is
/// written.
pub(crate) struct BytesOutput<'py> {
    py: Python<'py>,
    bytes: *mut ffi::PyObject,
    data: *mut u8,
    len: usize,
    cap: usize,
    /// The Python error from growing the `bytes` object (out of memory).
    failed: Option<PyErr>,
}

impl<'py> BytesOutput<'py> {
    /// An empty output; the `bytes` object is made by the first write.
    pub(crate) fn new(py: Python<'py>) -> Self {
        BytesOutput {
            py,
            bytes: ptr::null_mut(),
            data: ptr::NonNull::dangling().as_ptr(),
            len: 0,
            cap: 0,
            failed: None,
        }
    }

    /// The bytes written so far, as the `bytes` object, cut to their length.
    pub(crate) fn finish(mut self) -> PyResult<Bound<'py, PyBytes>> {
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        if self.bytes.is_null() {
            // Nothing written (an encoder always writes, but be exact).
            return Ok(PyBytes::new(self.py, &[]));
        }
        if self.len != self.cap {
            self.resize(self.len)?;
        }
        let bytes = std::mem::replace(&mut self.bytes, ptr::null_mut());
        // SAFETY: `bytes` is a `bytes` object holding the document (the
        // invariant), owned by this value, whose ownership moves out here
        // (the field is NULL now, so `drop` does not release it).
        Ok(unsafe { Bound::from_owned_ptr(self.py, bytes).cast_into_unchecked() })
    }

    /// The Python error behind a failed write, if that is why it failed.
    pub(crate) fn take_python_error(&mut self) -> Option<PyErr> {
        self.failed.take()
    }

    /// Makes room for `n` more bytes.
    #[inline(always)]
    fn room(&mut self, n: usize) -> surp::Result<()> {
        if self.cap - self.len < n {
            return self.grow(n);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) -> surp::Result<()> {
        if self.failed.is_some() {
            // A write failed before: so does every later one.
            return Err(<Error as serde::ser::Error>::custom(
                "the output could not grow",
            ));
        }
        let Some(needed) = self.len.checked_add(n) else {
            return Err(self.fail(pyo3::exceptions::PyMemoryError::new_err(
                "a document larger than memory",
            )));
        };
        let cap = needed.max(self.cap.saturating_mul(2)).max(INITIAL);
        self.resize(cap).map_err(|e| self.fail(e))
    }

    /// Sets the size of the `bytes` object (making it on the first call).
    fn resize(&mut self, cap: usize) -> PyResult<()> {
        let Ok(size) = ffi::Py_ssize_t::try_from(cap) else {
            return Err(pyo3::exceptions::PyMemoryError::new_err(
                "a document larger than memory",
            ));
        };
        if self.bytes.is_null() {
            // SAFETY: a NULL source makes an uninitialised `bytes` object of
            // `size` bytes (a new reference), or NULL with MemoryError set.
            self.bytes = unsafe { ffi::PyBytes_FromStringAndSize(ptr::null(), size) };
        } else {
            // SAFETY: `bytes` is a `bytes` object that only this value refers
            // to (it is not handed out before `finish`, and `bytes` objects
            // are not tracked by the garbage collector, so no Python code can
            // find it), which is what `_PyBytes_Resize` requires. On failure
            // it frees the object and sets the pointer to NULL.
            unsafe {
                if _PyBytes_Resize(&mut self.bytes, size) != 0 {
                    self.bytes = ptr::null_mut();
                }
            }
        }
        if self.bytes.is_null() {
            // The object is gone. Callers record the error, after which
            // nothing is written again.
            self.data = ptr::NonNull::dangling().as_ptr();
            self.len = 0;
            self.cap = 0;
            return Err(PyErr::fetch(self.py));
        }
        // SAFETY: `bytes` is a live `bytes` object of `size` bytes.
        self.data = unsafe { ffi::PyBytes_AS_STRING(self.bytes) }
            .cast::<u8>()
            .cast_mut();
        self.cap = cap;
        Ok(())
    }

    #[cold]
    fn fail(&mut self, err: PyErr) -> Error {
        let message = err.to_string();
        self.failed = Some(err);
        <Error as serde::ser::Error>::custom(message)
    }

    /// Appends `bytes`, for which [`BytesOutput::room`] made room.
    ///
    /// Up to 32 bytes are copied as two overlapping words (8, 4 or 16 bytes
    /// each), as `memcpy` does inside, without the call: most strings of a
    /// document are keys and short values.
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        debug_assert!(self.cap - self.len >= n);
        // SAFETY: `room` made sure that `len + n <= cap`, so every write
        // below stays inside the `bytes` object's `cap` bytes at `data`,
        // and every read inside `bytes` (each word starts at 0 or ends at
        // `n`, and is only read when `n` is at least its size); the source
        // is a Rust slice, which cannot overlap the Python object.
        unsafe {
            let src = bytes.as_ptr();
            let dst = self.data.add(self.len);
            if n <= 16 {
                if n >= 8 {
                    let head = ptr::read_unaligned(src.cast::<u64>());
                    let tail = ptr::read_unaligned(src.add(n - 8).cast::<u64>());
                    ptr::write_unaligned(dst.cast::<u64>(), head);
                    ptr::write_unaligned(dst.add(n - 8).cast::<u64>(), tail);
                } else if n >= 4 {
                    let head = ptr::read_unaligned(src.cast::<u32>());
                    let tail = ptr::read_unaligned(src.add(n - 4).cast::<u32>());
                    ptr::write_unaligned(dst.cast::<u32>(), head);
                    ptr::write_unaligned(dst.add(n - 4).cast::<u32>(), tail);
                } else if n > 0 {
                    *dst = *src;
                    *dst.add(n / 2) = *src.add(n / 2);
                    *dst.add(n - 1) = *src.add(n - 1);
                }
            } else if n <= 32 {
                let head = ptr::read_unaligned(src.cast::<u128>());
                let tail = ptr::read_unaligned(src.add(n - 16).cast::<u128>());
                ptr::write_unaligned(dst.cast::<u128>(), head);
                ptr::write_unaligned(dst.add(n - 16).cast::<u128>(), tail);
            } else {
                crate::copy::copy(bytes, dst);
            }
        }
        self.len += n;
    }
}

/// The inline writers of the fast path of `dumps` (`write.rs`), which PyPy
/// and GraalPy do not have (see lib.rs).
#[cfg(not(any(PyPy, GraalPy)))]
impl BytesOutput<'_> {
    /// Writes a signed integer in its shortest form, as
    /// `surp::__private::wire::write_i64` does (a test holds them to the
    /// same bytes), inlined: the wire's own is a call per integer.
    #[inline(always)]
    pub(crate) fn write_i64(&mut self, v: i64) -> surp::Result<()> {
        self.room(wire::MAX_HEADER)?;
        if (wire::FIXNINT_MIN_VALUE..=i64::from(wire::FIXUINT_MAX)).contains(&v) {
            // 0..=127 is its own tag, -8..=-1 its two's complement byte.
            self.put(&[v as u8]);
            return Ok(());
        }
        // A negative v is written as n = -1 - v = !v, after a `nint` tag.
        let (first_tag, n) = if v >= 0 {
            (wire::UINT1, v as u64)
        } else {
            (wire::NINT1, !v as u64)
        };
        let width = wire::byte_width(n);
        let mut buf = [0u8; 9];
        buf[0] = first_tag + (width as u8 - 1);
        buf[1..].copy_from_slice(&n.to_le_bytes());
        self.put(&buf);
        self.len -= 8 - width;
        Ok(())
    }

    /// Writes a float in the shortest form that gives back its bits, as
    /// `surp::__private::wire::write_f64` does (a test holds them to the
    /// same bytes), inlined and without a branch on the form (see
    /// `wire::shortest_f64_bytes`); the rare values it leaves out go to the
    /// wire's own.
    #[inline(always)]
    pub(crate) fn write_f64(&mut self, v: f64) -> surp::Result<()> {
        let Some(b) = wire::shortest_f64_bytes(v) else {
            return self.write_rare_float(v);
        };
        self.room(9)?;
        // SAFETY: `room` made sure that `len + 9 <= cap`, so both stores
        // stay inside the `bytes` object's `cap` bytes at `data`.
        unsafe {
            let dst = self.data.add(self.len);
            ptr::write_unaligned(dst.cast::<u64>(), b.head.to_le());
            *dst.add(8) = b.last;
        }
        self.len += b.len;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn write_rare_float(&mut self, v: f64) -> surp::Result<()> {
        wire::write_f64(self, v)
    }

    /// Writes a string: its header and its UTF-8 bytes, with one check for
    /// room.
    #[inline(always)]
    pub(crate) fn write_str(&mut self, text: &[u8]) -> surp::Result<()> {
        self.room(wire::MAX_HEADER + text.len())?;
        wire::write_header(self, wire::Kind::Str, text.len())?;
        self.put(text);
        Ok(())
    }
}

impl Drop for BytesOutput<'_> {
    fn drop(&mut self) {
        if !self.bytes.is_null() {
            // SAFETY: an unfinished `bytes` object owned by this value.
            unsafe { ffi::Py_DECREF(self.bytes) };
        }
    }
}

impl Output for BytesOutput<'_> {
    #[inline(always)]
    fn write_u8(&mut self, byte: u8) -> surp::Result<()> {
        self.room(1)?;
        self.put(&[byte]);
        Ok(())
    }

    #[inline(always)]
    fn write_all(&mut self, bytes: &[u8]) -> surp::Result<()> {
        self.room(bytes.len())?;
        self.put(bytes);
        Ok(())
    }

    #[inline(always)]
    fn write_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> surp::Result<()> {
        // A fixed-size copy beats a copy of variable length; the bytes past
        // `len` are overwritten by the next write or cut by `finish`.
        self.room(N)?;
        self.put(bytes);
        self.len -= N - len;
        Ok(())
    }
}

// Tests of the fast path's writers, in an embedded CPython.
#[cfg(all(test, not(any(PyPy, GraalPy))))]
mod tests {
    use super::*;

    #[test]
    fn integers_are_written_as_the_crate_writes_them() {
        Python::initialize();
        Python::attach(|py| {
            let mut values = vec![i64::MIN, i64::MAX, 0, -1];
            for shift in 0..64 {
                let p = 1i64 << shift;
                values.extend([p, p.wrapping_sub(1), p.wrapping_add(1), p.wrapping_neg()]);
                values.extend([p.wrapping_neg().wrapping_sub(1), 1i64.wrapping_sub(p)]);
            }
            for v in -300..300 {
                values.push(v);
            }
            for v in values {
                let mut out = BytesOutput::new(py);
                out.write_i64(v).unwrap();
                let mut expected = Vec::new();
                wire::write_i64(&mut expected, v).unwrap();
                assert_eq!(out.finish().unwrap().as_bytes(), &expected[..], "{v}");
            }
        });
    }

    #[test]
    fn floats_are_written_as_the_crate_writes_them() {
        Python::initialize();
        Python::attach(|py| {
            let mut values = vec![
                0.0,
                -0.0,
                0.1,
                1.5,
                65504.0,
                65505.0,
                1e-8,
                6e-8,
                1e300,
                f64::MIN_POSITIVE,
                f64::MAX,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::from(f32::MAX),
                f64::from(f32::MIN_POSITIVE),
                f64::from(f32::from_bits(1)),
            ];
            // Every binary16 and a spread of binary32 and binary64 bit
            // patterns, NaNs with payloads among them.
            values.extend((0..=u16::MAX).map(|h| f64::from(crate_f16(h))));
            values.extend(
                (0..=u32::MAX)
                    .step_by(65_537)
                    .map(|b| f64::from(f32::from_bits(b))),
            );
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..100_000 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                values.push(f64::from_bits(x));
            }
            values.push(f64::from_bits(0x7ff0_0000_2000_0000));
            values.push(f64::from_bits(0xfff8_0000_0000_0001));
            // Each alone, and all in one output (where each write's spare
            // bytes land where the next value goes).
            let mut all = BytesOutput::new(py);
            let mut all_expected = Vec::new();
            for v in values {
                let mut out = BytesOutput::new(py);
                out.write_f64(v).unwrap();
                all.write_f64(v).unwrap();
                let mut expected = Vec::new();
                wire::write_f64(&mut expected, v).unwrap();
                wire::write_f64(&mut all_expected, v).unwrap();
                let out = out.finish().unwrap();
                assert_eq!(out.as_bytes(), &expected[..], "{:#018x}", v.to_bits());
            }
            assert_eq!(all.finish().unwrap().as_bytes(), &all_expected[..]);
        });
    }

    /// A binary16 value widened by the crate's reference decoder.
    fn crate_f16(h: u16) -> f32 {
        let [lo, hi] = h.to_le_bytes();
        match wire::decode_header(&[wire::F16, lo, hi], 0) {
            Ok((wire::Header::F16(v), _)) => v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn short_and_long_payloads_are_copied_whole() {
        Python::initialize();
        Python::attach(|py| {
            let text: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
            for n in (0..=70).chain([255, 256, 1000, 4999, 5000]) {
                let mut out = BytesOutput::new(py);
                out.write_str(&text[..n]).unwrap();
                out.write_all(&text[..n]).unwrap();
                let mut expected = Vec::new();
                wire::write_header(&mut expected, wire::Kind::Str, n).unwrap();
                expected.extend_from_slice(&text[..n]);
                expected.extend_from_slice(&text[..n]);
                assert_eq!(out.finish().unwrap().as_bytes(), &expected[..], "{n}");
            }
        });
    }
}

/// `bytes` holding `data`, or the `MemoryError` of a failed allocation.
pub(crate) fn new_bytes<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, data.len(), |buf| {
        buf.copy_from_slice(data);
        Ok(())
    })
}
