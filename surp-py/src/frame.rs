//! Frames: documents sent one after another over a stream (a socket, a
//! pipe, a file of messages), each preceded by its length, 4 bytes
//! little-endian. This is spec section 10 and Rust's `surp::frame`; the
//! JavaScript module has the same functions.
//!
//! - `frame(document)` is the frame of an encoded document;
//! - `read_frames(data)` iterates over the documents of the frames in a
//!   buffer;
//! - `read_frame(file)` reads the next frame from a binary file object
//!   (`sys.stdin.buffer`, `socket.makefile("rb")`), waiting for its bytes;
//! - `FrameReader` takes a stream's chunks as they arrive (asyncio's
//!   `data_received`) and gives the documents of the frames they complete.
//!
//! Every error is Rust's, from `surp::frame::read_frame`: its kind, and its
//! offset counted from the start of the frame, as the spec's `frames`
//! vectors give them. A frame longer than `max_len` is refused from its
//! prefix, and memory for a frame grows only as its bytes arrive. As
//! everywhere in the module, a panic (a bug) is a `DecodeError` of kind
//! `Internal`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use surp::frame::{DEFAULT_MAX_FRAME_LEN, PREFIX_LEN};

use crate::error::{decode_error, internal_decode_error, type_name};
use crate::module::{NotWhole, guarded, guarded_or_panicked, input_copy, whole_number, with_input};
use crate::output::new_bytes;

/// A buffer kept by a frame reader past the frame that grew it is let go
/// when it is larger than this.
const KEEP_CAPACITY: usize = 64 << 10;

/// `max_len=`: a whole number of at least 0; past what a prefix can state
/// is no limit. Another type is a `TypeError` (a `bool` too), a negative
/// number a `ValueError`.
fn max_len(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<usize> {
    let Some(value) = value else {
        return Ok(DEFAULT_MAX_FRAME_LEN);
    };
    match whole_number(value)? {
        Ok(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        Err(NotWhole::Type) => Err(PyTypeError::new_err(format!(
            "{what}: max_len must be a whole number, not {}",
            type_name(value)
        ))),
        Err(NotWhole::Negative) => Err(PyValueError::new_err(format!(
            "{what}: max_len must be at least 0, not {value}"
        ))),
    }
}

/// The document of the frame at the start of `rest`, if all of it is there
/// and it is at most `max_len` bytes long.
fn whole_frame(rest: &[u8], max_len: usize) -> Option<&[u8]> {
    let len = stated(rest.get(..PREFIX_LEN)?);
    let doc = rest[PREFIX_LEN..].get(..len)?;
    (len <= max_len).then_some(doc)
}

/// The length a frame's prefix states.
fn stated(prefix: &[u8]) -> usize {
    let prefix: [u8; PREFIX_LEN] = prefix[..PREFIX_LEN].try_into().expect("a whole prefix");
    u32::from_le_bytes(prefix) as usize
}

/// The error Rust's `read_frame` gives for the frame at the start of `rest`,
/// which is not a whole frame of at most `max_len` bytes (cut short, or too
/// long); `None` when `rest` is empty.
fn frame_error(py: Python<'_>, rest: &[u8], max_len: usize) -> Option<PyErr> {
    let mut buf = Vec::new();
    match surp::frame::read_frame(rest, max_len, &mut buf) {
        Ok(false) => None,
        Err(err) => Some(decode_error(py, &err)),
        // Not reached: every caller passes a frame that is not whole.
        Ok(true) => Some(PyValueError::new_err("a whole frame taken as broken")),
    }
}

/// `frame(document) -> bytes`: the frame of an encoded document, its
/// length then its bytes.
#[pyfunction]
pub(crate) fn frame<'py>(
    py: Python<'py>,
    document: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    with_input(py, document, "frame()", |doc| {
        let Ok(len) = u32::try_from(doc.len()) else {
            return Err(PyValueError::new_err(format!(
                "a frame holds at most {} bytes, and the document has {}",
                u32::MAX,
                doc.len()
            )));
        };
        PyBytes::new_with(py, PREFIX_LEN + doc.len(), |buf| {
            buf[..PREFIX_LEN].copy_from_slice(&len.to_le_bytes());
            buf[PREFIX_LEN..].copy_from_slice(doc);
            Ok(())
        })
    })
}

/// `read_frames(data, *, max_len=DEFAULT_MAX_FRAME_LEN)`: the documents of
/// the frames in `data`, one after another, as `bytes`.
#[pyfunction]
#[pyo3(signature = (data, *, max_len = None))]
pub(crate) fn read_frames(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    max_len: Option<&Bound<'_, PyAny>>,
) -> PyResult<Frames> {
    let max_len = self::max_len(max_len, "read_frames()")?;
    // bytes are kept as they are; another buffer is copied once, as it
    // could change while the frames are read.
    let input = match data.cast_exact::<PyBytes>() {
        Ok(bytes) => Input::Bytes(bytes.clone().unbind()),
        Err(_) => Input::Copy(input_copy(py, data, "read_frames()")?),
    };
    Ok(Frames {
        input,
        pos: 0,
        max_len,
        done: false,
    })
}

enum Input {
    Bytes(Py<PyBytes>),
    Copy(Vec<u8>),
}

/// The iterator `read_frames` returns. A broken frame raises `DecodeError`
/// after the documents before it; the iteration ends there.
#[pyclass(module = "surp")]
pub(crate) struct Frames {
    input: Input,
    pos: usize,
    max_len: usize,
    done: bool,
}

#[pymethods]
impl Frames {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        if self.done {
            return Ok(None);
        }
        let (next, panicked) = guarded_or_panicked(py, || self.next(py), internal_error(py));
        if panicked {
            self.done = true;
        }
        next
    }
}

impl Frames {
    fn next<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let data = match &self.input {
            Input::Bytes(bytes) => bytes.bind(py).as_bytes(),
            Input::Copy(copy) => copy.as_slice(),
        };
        let rest = &data[self.pos..];
        if let Some(doc) = whole_frame(rest, self.max_len) {
            self.pos += PREFIX_LEN + doc.len();
            return new_bytes(py, doc).map(Some);
        }
        self.done = true;
        match frame_error(py, rest, self.max_len) {
            Some(err) => Err(err),
            None => Ok(None),
        }
    }
}

/// `read_frame(file, *, max_len=DEFAULT_MAX_FRAME_LEN) -> bytes | None`:
/// the document of the next frame read from a binary file object, or
/// `None` at the end of the file before a frame. Its `read(n)` is called
/// until the frame is in; an exception it raises comes through as it is.
#[pyfunction]
#[pyo3(signature = (file, *, max_len = None))]
pub(crate) fn read_frame<'py>(
    py: Python<'py>,
    file: &Bound<'py, PyAny>,
    max_len: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let max_len = self::max_len(max_len, "read_frame()")?;
    guarded(
        py,
        || {
            let mut reader = FileReader { file, failed: None };
            let mut doc = Vec::new();
            match surp::frame::read_frame(&mut reader, max_len, &mut doc) {
                Ok(true) => new_bytes(py, &doc).map(Some),
                Ok(false) => Ok(None),
                Err(err) => Err(match reader.failed.take() {
                    Some(failed) => failed,
                    None if is_out_of_memory(&err) => pyo3::exceptions::PyMemoryError::new_err(
                        "no memory for the rest of the frame",
                    ),
                    None => decode_error(py, &err),
                }),
            }
        },
        internal_error(py),
    )
}

/// Whether reading failed for want of memory for the document.
fn is_out_of_memory(err: &surp::Error) -> bool {
    matches!(err.kind(), surp::ErrorKind::Io(e) if e.kind() == std::io::ErrorKind::OutOfMemory)
}

/// The error of a panic (a bug) while reading frames.
fn internal_error(py: Python<'_>) -> impl FnOnce(String) -> PyErr + '_ {
    move |message| internal_decode_error(py, &message)
}

/// A binary file object as an `io::Read`; the Python exception that ended
/// a read is kept for the caller.
struct FileReader<'a, 'py> {
    file: &'a Bound<'py, PyAny>,
    failed: Option<PyErr>,
}

impl std::io::Read for FileReader<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let fail = |this: &mut Self, err: PyErr| {
            this.failed = Some(err);
            Err(std::io::Error::other("the file's read() failed"))
        };
        let got = match self
            .file
            .call_method1(pyo3::intern!(self.file.py(), "read"), (buf.len(),))
        {
            Ok(got) => got,
            Err(err) => return fail(self, err),
        };
        if got.is_none() {
            return fail(
                self,
                PyTypeError::new_err(
                    "read_frame() needs a blocking file: read() returned None (no data yet)",
                ),
            );
        }
        let Ok(bytes) = got.cast::<PyBytes>() else {
            return fail(
                self,
                PyTypeError::new_err(format!(
                    "read_frame() needs a binary file: read() returned {}, not bytes",
                    type_name(&got)
                )),
            );
        };
        let bytes = bytes.as_bytes();
        if bytes.len() > buf.len() {
            return fail(
                self,
                PyValueError::new_err(format!(
                    "read({}) returned {} bytes",
                    buf.len(),
                    bytes.len()
                )),
            );
        }
        buf[..bytes.len()].copy_from_slice(bytes);
        Ok(bytes.len())
    }
}

/// Frames from a stream that arrives in chunks: `push(chunk)` returns the
/// documents of the frames the chunk completes, and `end()` says the stream
/// has ended (an error if it stopped inside a frame).
///
/// A frame longer than `max_len` is refused as soon as its prefix is in,
/// and the reader's memory for a frame grows only as its bytes arrive
/// (`buffered` is what it holds). An error is raised by the `push` that
/// meets it, or, when that `push` has completed documents before it, by the
/// next call; every call after it raises it again (a Python error in the
/// middle of a `push`, such as a `MemoryError`, too).
#[pyclass(module = "surp")]
pub(crate) struct FrameReader {
    max_len: usize,
    /// The frame begun and not yet whole: its prefix, or part of it, then
    /// what has arrived of its document.
    pending: Vec<u8>,
    failed: Option<PyErr>,
}

#[pymethods]
impl FrameReader {
    #[new]
    #[pyo3(signature = (*, max_len = None))]
    fn new(max_len: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(FrameReader {
            max_len: self::max_len(max_len, "FrameReader()")?,
            pending: Vec::new(),
            failed: None,
        })
    }

    /// Adds `chunk`; returns the documents of the frames it completes.
    fn push<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        if let Some(err) = &self.failed {
            return Err(err.clone_ref(py));
        }
        let docs = PyList::empty(py);
        // An argument that is no byte buffer fails here, and the reader
        // goes on.
        let taken = with_input(py, chunk, "FrameReader.push()", |input| {
            Ok(guarded(
                py,
                || self.take(py, input, &docs),
                internal_error(py),
            ))
        })?;
        let broken = match taken {
            Ok(broken) => broken,
            // The chunk was taken in part: the reader cannot go on.
            Err(err) => Some(err),
        };
        if let Some(err) = broken {
            self.failed = Some(err.clone_ref(py));
            if docs.is_empty() {
                return Err(err);
            }
        }
        Ok(docs)
    }

    /// Ends the stream: raises `DecodeError` if it stopped inside a frame
    /// (or a frame was refused).
    fn end(&mut self, py: Python<'_>) -> PyResult<()> {
        if let Some(err) = &self.failed {
            return Err(err.clone_ref(py));
        }
        match frame_error(py, &self.pending, self.max_len) {
            Some(err) => {
                self.failed = Some(err.clone_ref(py));
                Err(err)
            }
            None => Ok(()),
        }
    }

    /// How many bytes of an unfinished frame the reader holds.
    #[getter]
    fn buffered(&self) -> usize {
        self.pending.len()
    }
}

impl FrameReader {
    /// Takes the frames of `input` after those pending, appending their
    /// documents to `docs`; returns the error of a frame over the limit.
    fn take(
        &mut self,
        py: Python<'_>,
        mut input: &[u8],
        docs: &Bound<'_, PyList>,
    ) -> PyResult<Option<PyErr>> {
        while !input.is_empty() {
            // Whole frames straight from the chunk.
            if self.pending.is_empty()
                && let Some(doc) = whole_frame(input, self.max_len)
            {
                docs.append(new_bytes(py, doc)?)?;
                input = &input[PREFIX_LEN + doc.len()..];
                continue;
            }
            // The rest of the chunk goes to the pending frame, up to its end
            // (a frame over the limit is refused once its prefix is in).
            if self.pending.len() < PREFIX_LEN {
                let n = (PREFIX_LEN - self.pending.len()).min(input.len());
                self.keep(&input[..n])?;
                input = &input[n..];
                if self.pending.len() < PREFIX_LEN {
                    break;
                }
                if stated(&self.pending) > self.max_len {
                    let err = frame_error(py, &self.pending, self.max_len);
                    // A refused frame is not kept.
                    self.pending = Vec::new();
                    return Ok(err);
                }
            }
            // Saturating where a usize is 32 bits: such a frame can never
            // be whole.
            let whole = stated(&self.pending).saturating_add(PREFIX_LEN);
            let n = (whole - self.pending.len()).min(input.len());
            self.keep(&input[..n])?;
            input = &input[n..];
            if self.pending.len() == whole {
                docs.append(new_bytes(py, &self.pending[PREFIX_LEN..])?)?;
                self.pending.clear();
                if self.pending.capacity() > KEEP_CAPACITY {
                    self.pending = Vec::new();
                }
            }
        }
        Ok(None)
    }

    /// Appends `bytes` to the pending frame; no memory is a `MemoryError`.
    fn keep(&mut self, bytes: &[u8]) -> PyResult<()> {
        self.pending.try_reserve(bytes.len()).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!(
                "no memory for {} more bytes of a frame",
                bytes.len()
            ))
        })?;
        self.pending.extend_from_slice(bytes);
        Ok(())
    }
}
