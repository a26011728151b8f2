//! What can stop the generator: an unreadable or inconsistent run folder, or
//! a book source it cannot update.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// An error of the docs generator.
#[derive(Debug)]
pub enum DocsError {
    /// A file or folder could not be read or written.
    Io {
        /// The path involved.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// A folder under `docs/assets/bench/` whose name is not `v<semver>`.
    NotAVersionFolder {
        /// The folder.
        path: PathBuf,
    },
    /// A committed run that cannot be shown as it is.
    BadRun {
        /// The run's folder.
        dir: PathBuf,
        /// What is wrong with it, as a sentence fragment.
        reason: String,
    },
    /// `SUMMARY.md` lacks the markers that delimit the generated list.
    MissingSummaryMarkers {
        /// The file.
        path: PathBuf,
    },
}

impl DocsError {
    /// A closure that wraps an I/O error with its path, for `map_err`.
    pub(crate) fn io(path: impl AsRef<Path>) -> impl FnOnce(io::Error) -> DocsError {
        let path = path.as_ref().to_owned();
        move |source| DocsError::Io { path, source }
    }

    pub(crate) fn bad_run(dir: &Path, reason: impl Into<String>) -> DocsError {
        DocsError::BadRun {
            dir: dir.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for DocsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocsError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            DocsError::NotAVersionFolder { path } => write!(
                f,
                "{} is not a run folder: run folders are named v<version>, such as v0.1.0",
                path.display()
            ),
            DocsError::BadRun { dir, reason } => {
                write!(f, "the run in {} cannot be shown: {reason}", dir.display())
            }
            DocsError::MissingSummaryMarkers { path } => write!(
                f,
                "{} needs the lines `{}` and `{}` around the generated list of benchmark pages",
                path.display(),
                crate::index::LIST_START,
                crate::index::LIST_END
            ),
        }
    }
}

impl std::error::Error for DocsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DocsError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
