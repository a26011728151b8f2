//! What can make a command fail, and the exit code each failure gives.

use std::fmt::{self, Display};
use std::io;

/// Exit code for invalid input and failed reads or writes.
pub const EXIT_FAILURE: u8 = 1;
/// Exit code for usage errors (clap exits with the same code).
pub const EXIT_USAGE: u8 = 2;

/// The first byte of a dictionary document and of a session's documents.
const SESSION_TAG: u8 = 0xf1;

/// A command's failure.
#[derive(Debug)]
pub enum Error {
    /// The input is not a valid Surp document.
    Surp(surp::Error),
    /// The input is not a valid Surp document, and it is JSON text.
    JsonGivenAsSurp(surp::Error),
    /// The input is a dictionary document or a session document, given
    /// where a plain one was expected.
    SessionDocumentAsSurp(surp::Error),
    /// The document is valid Surp but has no JSON form (a NaN, a float map key).
    NotJson(surp::Error),
    /// The input is not valid JSON; `offset` is the byte it points at.
    Json {
        /// serde_json's error, which gives the line and column.
        error: serde_json::Error,
        /// The byte offset of that line and column.
        offset: usize,
    },
    /// Encoding a value failed.
    Encode(surp::Error),
    /// Reading or writing a file or a standard stream failed.
    Io {
        /// "read" or "write".
        action: &'static str,
        /// The path, or "standard input" / "standard output".
        target: String,
        /// What the system said.
        error: io::Error,
    },
    /// Binary output would go to a terminal.
    BinaryToTerminal,
    /// `encode --session` or `dictionary` was given JSON other than an
    /// array (of messages, of samples): what it takes.
    NotAnArray(&'static str),
    /// A session stream that cannot be read, or a message of it that has
    /// no JSON form.
    Session(SessionFailure),
    /// The file given as `--dictionary` holds no valid stored dictionary.
    Dictionary {
        /// The file.
        path: String,
        /// What `Dictionary::from_bytes` found.
        error: surp::Error,
    },
    /// A dictionary document's value has no JSON form: what it is.
    ValueNotJson(String),
    /// `decode --session` was given no frame at all.
    EmptySession,
    /// `--dictionary -` and the input both asked for standard input.
    StdinTwice,
}

impl Error {
    /// `error`, found decoding `input` as Surp. When `input` is JSON text,
    /// the message says so: the decoder alone would only report trailing
    /// bytes after the first character, read as a small integer.
    ///
    /// Likewise for a document that starts with `f1`, the tag that starts
    /// a dictionary document or a session's header and messages (spec
    /// section 9), which a plain decoder refuses at its first byte.
    pub fn invalid_surp(error: surp::Error, input: &[u8]) -> Error {
        if crate::json::is_json_text(input) {
            Error::JsonGivenAsSurp(error)
        } else if input.first() == Some(&SESSION_TAG) && error.offset() == Some(0) {
            Error::SessionDocumentAsSurp(error)
        } else {
            Error::Surp(error)
        }
    }

    /// The process exit code for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::BinaryToTerminal | Error::StdinTwice => EXIT_USAGE,
            _ => EXIT_FAILURE,
        }
    }

    /// Whether the reader of our output went away (`surp inspect | head`):
    /// not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { error, .. } if error.kind() == io::ErrorKind::BrokenPipe)
    }

    /// A failed write to standard output.
    pub fn stdout(error: io::Error) -> Error {
        Error::Io {
            action: "write",
            target: "standard output".to_owned(),
            error,
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Surp(e) => write!(f, "invalid Surp document: {e}"),
            Error::JsonGivenAsSurp(e) => write!(
                f,
                "invalid Surp document: {e} (the input is JSON text; `surp encode` converts \
                 JSON to Surp)"
            ),
            Error::SessionDocumentAsSurp(e) => write!(
                f,
                "invalid Surp document: {e} (a document that starts with f1 was written with \
                 a dictionary or in a session: `surp decode --dictionary DICT` reads the first, \
                 `surp decode --session` a stream of the second)"
            ),
            Error::NotJson(e) => write!(f, "cannot convert to JSON: {e}"),
            Error::Json { error, offset } => write!(f, "invalid JSON: {error} (byte {offset})"),
            Error::Encode(e) => write!(f, "cannot encode: {e}"),
            Error::Io {
                action,
                target,
                error,
            } => write!(f, "cannot {action} {target}: {error}"),
            Error::BinaryToTerminal => f.write_str(
                "refusing to write binary Surp to a terminal: use -o FILE or redirect the output",
            ),
            Error::NotAnArray(what) => f.write_str(what),
            Error::Session(failure) => Display::fmt(failure, f),
            Error::Dictionary { path, error } => {
                write!(f, "invalid dictionary in {path}: {error}")
            }
            Error::ValueNotJson(what) => write!(f, "cannot convert to JSON: {what}"),
            Error::StdinTwice => f.write_str(
                "--dictionary - reads standard input, which the input reads too: give one of \
                 them as a file",
            ),
            Error::EmptySession => f.write_str(
                "invalid Surp session: no frame at byte 0; a session starts with its header's \
                 frame",
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Where in a session stream a command failed, and why.
#[derive(Debug)]
pub struct SessionFailure {
    /// Whether the stream is invalid, or a valid message has no JSON form.
    pub not_json: bool,
    /// What is wrong, with the byte of the stream it names, if any.
    pub what: String,
    /// The frame's number (0 is the header's) and where it starts.
    pub frame: usize,
    /// Where the frame starts in the stream.
    pub start: usize,
    /// Whether the input is JSON text, given where a stream was expected.
    pub json_text: bool,
}

impl SessionFailure {
    /// `error`, found at the frame `frame` that starts at `start`; its
    /// offset, if any, counts from the start of the stream (see
    /// [`surp::Error::shifted`]), so that it can be found in a dump.
    pub fn new(error: surp::Error, frame: usize, start: usize) -> SessionFailure {
        SessionFailure::at(error.to_string(), frame, start)
    }

    /// `what` (which names the byte of the stream, if any), at the frame
    /// `frame` that starts at `start`.
    pub fn at(what: String, frame: usize, start: usize) -> SessionFailure {
        SessionFailure {
            not_json: false,
            what,
            frame,
            start,
            json_text: false,
        }
    }
}

impl Display for SessionFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lead = if self.not_json {
            "cannot convert to JSON"
        } else {
            "invalid Surp session"
        };
        let SessionFailure {
            what, frame, start, ..
        } = self;
        let whose = if *frame == 0 { " (the header's)" } else { "" };
        write!(
            f,
            "{lead}: {what}, in frame {frame}{whose}, which starts at byte {start}"
        )?;
        if self.json_text {
            f.write_str(
                " (the input is JSON text; `surp encode --session` turns a JSON array into a \
                 session)",
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_input_exits_with_1_and_usage_problems_with_2() {
        let e = Error::Surp(surp::from_slice::<surp::Value>(&[0xa1]).unwrap_err());
        assert_eq!(e.exit_code(), EXIT_FAILURE);
        assert_eq!(
            e.to_string(),
            "invalid Surp document: array declares 1 items but the input is too short to hold them at byte 0"
        );
        assert_eq!(Error::BinaryToTerminal.exit_code(), EXIT_USAGE);
    }

    #[test]
    fn json_text_read_as_surp_is_named_as_such() {
        let trailing = || surp::__private::error_at(surp::ErrorKind::TrailingBytes, 1);
        for json in [
            &b"{\"a\": 1}"[..],
            b" [1, 2]\n",
            b"{\"a\": 1}\n{\"a\": 2}\n",
        ] {
            assert_eq!(
                Error::invalid_surp(trailing(), json).to_string(),
                "invalid Surp document: trailing bytes after the value at byte 1 (the input is \
                 JSON text; `surp encode` converts JSON to Surp)"
            );
        }
        // Not JSON, or not only JSON: the decoder's message alone.
        for other in [&b"\x01\x02"[..], b"", b"{\"a\": 1} \xff"] {
            assert_eq!(
                Error::invalid_surp(trailing(), other).to_string(),
                "invalid Surp document: trailing bytes after the value at byte 1"
            );
        }
    }

    #[test]
    fn a_broken_pipe_is_recognised() {
        let e = Error::stdout(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(e.is_broken_pipe());
        assert!(!Error::BinaryToTerminal.is_broken_pipe());
    }
}
