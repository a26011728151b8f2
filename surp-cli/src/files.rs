//! Where input comes from and output goes: a file, or the standard streams
//! when no path (or `-`) is given.

use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use crate::error::Error;

/// Whether a path argument means a standard stream.
fn is_std(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p == Path::new("-"))
}

/// How messages name standard input.
const STDIN: &str = "standard input";

/// How messages name the input at `path`: the path, or standard input.
pub fn input_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if !is_std(path) => p.display().to_string(),
        _ => STDIN.to_owned(),
    }
}

/// Reads the whole input: the file at `path`, or standard input.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Error> {
    let read = match path {
        Some(p) if !is_std(path) => fs::read(p),
        _ => {
            let mut buf = Vec::new();
            io::stdin().lock().read_to_end(&mut buf).map(|_| buf)
        }
    };
    read.map_err(|e| read_failure(&input_name(path), e))
}

/// How much of an input read as it arrives is buffered.
const INPUT_BUFFER: usize = 64 << 10;

/// An input read as it arrives: the file at a path, or standard input.
pub struct Input {
    /// The bytes, buffered: what was read from the source but not yet
    /// taken (`buffer()`) can be looked at without waiting for more.
    pub reader: io::BufReader<Box<dyn Read>>,
    /// The path, or "standard input", for messages.
    pub name: String,
    /// Whether more bytes may arrive after a read finds none waiting: the
    /// source is a pipe, a terminal, a socket or a FIFO, not a regular
    /// file.
    pub live: bool,
}

/// A failed read of `target` (a path, or "standard input").
pub fn read_failure(target: &str, error: io::Error) -> Error {
    Error::Io {
        action: "read",
        target: target.to_owned(),
        error,
    }
}

/// Opens the input, to be read as it arrives: the file at `path`, or
/// standard input.
pub fn open_input(path: Option<&Path>) -> Result<Input, Error> {
    let (source, live): (Box<dyn Read>, bool) = match path {
        Some(p) if !is_std(path) => match fs::File::open(p) {
            Ok(file) => {
                let live = is_live(file.metadata());
                (Box::new(file), live)
            }
            Err(e) => return Err(read_failure(&input_name(path), e)),
        },
        _ => (Box::new(io::stdin()), is_live(stdin_metadata())),
    };
    Ok(Input {
        reader: io::BufReader::with_capacity(INPUT_BUFFER, source),
        name: input_name(path),
        live,
    })
}

/// Whether a source with this metadata may have more bytes later: all but
/// a regular file (and a source whose kind cannot be told).
fn is_live(metadata: io::Result<fs::Metadata>) -> bool {
    !metadata.is_ok_and(|m| m.is_file())
}

/// The metadata of whatever standard input is (a file, a pipe, a terminal).
#[cfg(unix)]
fn stdin_metadata() -> io::Result<fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned()?;
    fs::File::from(fd).metadata()
}

/// Elsewhere standard input's kind is not told, and it is taken as live.
#[cfg(not(unix))]
fn stdin_metadata() -> io::Result<fs::Metadata> {
    Err(io::ErrorKind::Unsupported.into())
}

/// Fails when a dictionary given as `-` would read standard input, which
/// the document or stream (`input`) reads too.
pub fn check_one_stdin(dictionary: Option<&Path>, input: Option<&Path>) -> Result<(), Error> {
    if dictionary.is_some() && is_std(dictionary) && is_std(input) {
        return Err(Error::StdinTwice);
    }
    Ok(())
}

/// Fails when binary output would land on a terminal, before any work is done.
pub fn check_binary_output(path: Option<&Path>) -> Result<(), Error> {
    if is_std(path) && io::stdout().is_terminal() {
        return Err(Error::BinaryToTerminal);
    }
    Ok(())
}

/// Writes `bytes` to the file at `path`, or to standard output (see
/// [`with_output`]).
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), Error> {
    with_output(path, |out| out.write_all(bytes).map_err(WriteFailure::Io))
}

/// Why producing the output stopped: the writer failed, or the command
/// did (its error is passed through).
pub enum WriteFailure {
    /// Writing to the output failed.
    Io(io::Error),
    /// The command's own error.
    Command(Error),
}

/// How much standard output is held back before it streams: a command that
/// fails before producing this much prints nothing (unless it flushed, as
/// `decode --session` does for a live stream).
const STDOUT_BUFFER: usize = 1 << 20;

/// Streams output through a buffer into the file at `path`, or to standard
/// output, so that memory stays bounded whatever the output's size.
///
/// On standard output, the first [`STDOUT_BUFFER`] bytes are held back: a
/// command that fails before producing more prints nothing, and one that
/// fails later leaves what it had produced (the error message says where it
/// stopped).
///
/// A file is written under a temporary name in the same folder and renamed
/// over `path` only when `write` has succeeded and everything is flushed: an
/// error never leaves a partial file behind, nor replaces an existing one.
pub fn with_output(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<(), WriteFailure>,
) -> Result<(), Error> {
    let Some(target) = path.filter(|_| !is_std(path)) else {
        let stdout = io::stdout();
        let mut out = io::BufWriter::with_capacity(STDOUT_BUFFER, stdout.lock());
        return match write(&mut out) {
            Ok(()) => out.flush().map_err(Error::stdout),
            Err(WriteFailure::Io(e)) => Err(Error::stdout(e)),
            Err(WriteFailure::Command(e)) => {
                // Output that still fits the buffer is dropped, so a failed
                // command prints nothing; longer output has been streamed.
                drop(out.into_parts());
                Err(e)
            }
        };
    };
    let io_error = |error| Error::Io {
        action: "write",
        target: target.display().to_string(),
        error,
    };
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let temporary = dir.join(format!(".{name}.surp-{}.tmp", std::process::id()));
    let file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)
        .map_err(io_error)?;
    let mut out = io::BufWriter::new(file);
    let result = match write(&mut out) {
        Ok(()) => out
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|file| file.sync_all())
            .and_then(|()| fs::rename(&temporary, target))
            .map_err(io_error),
        Err(WriteFailure::Io(e)) => Err(io_error(e)),
        Err(WriteFailure::Command(e)) => Err(e),
    };
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_no_file_and_keeps_the_old_one() {
        let dir = std::env::temp_dir().join(format!("surp-cli-files-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.json");
        fs::write(&target, b"old").unwrap();
        let err = with_output(Some(&target), |out| {
            out.write_all(b"partial").map_err(WriteFailure::Io)?;
            Err(WriteFailure::Command(Error::BinaryToTerminal))
        })
        .unwrap_err();
        assert!(matches!(err, Error::BinaryToTerminal));
        assert_eq!(fs::read(&target).unwrap(), b"old");
        let left: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left, ["out.json"], "the temporary file was removed");

        with_output(Some(&target), |out| {
            out.write_all(b"new").map_err(WriteFailure::Io)
        })
        .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        fs::remove_dir_all(&dir).unwrap();
    }
}
