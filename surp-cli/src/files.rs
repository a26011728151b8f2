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

/// Reads the whole input: the file at `path`, or standard input.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Error> {
    let io_error = |error, target: String| Error::Io {
        action: "read",
        target,
        error,
    };
    match path {
        Some(p) if !is_std(path) => fs::read(p).map_err(|e| io_error(e, p.display().to_string())),
        _ => {
            let mut buf = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| io_error(e, "standard input".to_owned()))?;
            Ok(buf)
        }
    }
}

/// Fails when binary output would land on a terminal, before any work is done.
pub fn check_binary_output(path: Option<&Path>) -> Result<(), Error> {
    if is_std(path) && io::stdout().is_terminal() {
        return Err(Error::BinaryToTerminal);
    }
    Ok(())
}

/// Writes `bytes` to the file at `path`, or to standard output.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), Error> {
    match path {
        Some(p) if !is_std(path) => fs::write(p, bytes).map_err(|error| Error::Io {
            action: "write",
            target: p.display().to_string(),
            error,
        }),
        _ => {
            let mut out = io::stdout().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(Error::stdout)
        }
    }
}
