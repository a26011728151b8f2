//! The two exceptions of the module, and how Rust errors become them.
//!
//! `DecodeError` is a `ValueError` (the bytes are wrong) and carries the byte
//! offset where decoding stopped plus the name of the error kind, the same
//! names `docs/vectors/surp-v2.json` uses. `EncodeError` is a `TypeError`
//! (the object holds something Surp cannot write) and carries where in the
//! object the problem is, as a path such as `$['tags'][2]`: an encoder has no
//! input bytes to point into, so a path says more than an output offset.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::{create_exception, intern};
use surp::ErrorKind;
use surp::error::SessionError;

create_exception!(
    surp,
    DecodeError,
    PyValueError,
    "The input is not a valid Surp document. `offset` is the byte offset where \
     decoding stopped and `kind` names the error (for example `UnexpectedEof`); \
     for `kind` `Session`, `session` names the rule of sessions broken (for \
     example `Sequence`), and is `None` otherwise."
);

create_exception!(
    surp,
    EncodeError,
    PyTypeError,
    "The object cannot be written as Surp. `path` says where in the object the \
     offending value is, for example `$['tags'][2]` (`$` is the object itself)."
);

/// Builds a `DecodeError` from a decoder error: the message is the decoder's
/// sentence, which ends in "at byte N".
pub(crate) fn decode_error(py: Python<'_>, err: &surp::Error) -> PyErr {
    let exc = DecodeError::new_err(err.to_string());
    let value = exc.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of
    // running out of memory; if it does, that error is the one to report.
    let session = match err.kind() {
        ErrorKind::Session(e) => Some(session_name(e)),
        _ => None,
    };
    if let Err(e) = value
        .setattr(intern!(py, "offset"), err.offset())
        .and_then(|()| value.setattr(intern!(py, "kind"), kind_name(err.kind())))
        .and_then(|()| value.setattr(intern!(py, "session"), session))
    {
        return e;
    }
    exc
}

/// Builds the `DecodeError` for a bug (a Rust panic) met while decoding: its
/// `kind` is `Internal` and its `offset` is `None` (the decoder's position is
/// lost with the panic).
pub(crate) fn internal_decode_error(py: Python<'_>, message: &str) -> PyErr {
    let exc = DecodeError::new_err(format!(
        "internal error in the decoder ({message}); please report it"
    ));
    let value = exc.value(py);
    if let Err(e) = value
        .setattr(intern!(py, "offset"), py.None())
        .and_then(|()| value.setattr(intern!(py, "kind"), "Internal"))
        .and_then(|()| value.setattr(intern!(py, "session"), py.None()))
    {
        return e;
    }
    exc
}

/// Builds an `EncodeError` whose message ends in "at PATH".
pub(crate) fn encode_error(py: Python<'_>, reason: &str, path: &str) -> PyErr {
    let exc = EncodeError::new_err(format!("{reason} at {path}"));
    if let Err(e) = exc.value(py).setattr(intern!(py, "path"), path) {
        return e;
    }
    exc
}

/// The name of an error kind, as the test vectors write it.
fn kind_name(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::UnexpectedEof => "UnexpectedEof",
        ErrorKind::ReservedTag(_) => "ReservedTag",
        ErrorKind::InvalidUtf8 => "InvalidUtf8",
        ErrorKind::InvalidWideInteger(_) => "InvalidWideInteger",
        ErrorKind::IntegerOutOfRange => "IntegerOutOfRange",
        ErrorKind::DepthLimitExceeded(_) => "DepthLimitExceeded",
        ErrorKind::LengthExceedsInput { .. } => "LengthExceedsInput",
        ErrorKind::LengthLimitExceeded { .. } => "LengthLimitExceeded",
        ErrorKind::FrameTooLong { .. } => "FrameTooLong",
        ErrorKind::AllocationLimitExceeded(_) => "AllocationLimitExceeded",
        ErrorKind::TrailingBytes => "TrailingBytes",
        ErrorKind::TrailingItems(_) => "TrailingItems",
        ErrorKind::MisplacedDedupMarker => "MisplacedDedupMarker",
        ErrorKind::UnknownStringRef { .. } => "UnknownStringRef",
        ErrorKind::UnknownShapeRef { .. } => "UnknownShapeRef",
        ErrorKind::RefWithoutMarker => "RefWithoutMarker",
        ErrorKind::Io(_) => "Io",
        ErrorKind::OutputFull => "OutputFull",
        ErrorKind::EnumMapLength(_) => "EnumMapLength",
        ErrorKind::NotAnEnum(_) => "NotAnEnum",
        ErrorKind::LengthMismatch { .. } => "LengthMismatch",
        ErrorKind::Message(_) => "Message",
        ErrorKind::Session(_) => "Session",
        _ => "Other",
    }
}

/// The name of a session error, as the test vectors write it inside
/// `Session(...)`.
fn session_name(e: &SessionError) -> &'static str {
    match e {
        SessionError::NotASessionDocument => "NotASessionDocument",
        SessionError::UnknownKind(_) => "UnknownKind",
        SessionError::UnsupportedVersion(_) => "UnsupportedVersion",
        SessionError::InvalidFlag(_) => "InvalidFlag",
        SessionError::MissingHeader => "MissingHeader",
        SessionError::UnexpectedHeader => "UnexpectedHeader",
        SessionError::InvalidSequence(_) => "InvalidSequence",
        SessionError::Sequence { .. } => "Sequence",
        SessionError::Broken => "Broken",
        SessionError::BudgetTooLarge { .. } => "BudgetTooLarge",
        SessionError::WrongDictionary { .. } => "WrongDictionary",
        SessionError::InvalidDictionary(_) => "InvalidDictionary",
        SessionError::SequenceExhausted => "SequenceExhausted",
        _ => "Other",
    }
}

/// The name of `obj`'s type, for an error message (`?` if asking for it
/// fails).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}
