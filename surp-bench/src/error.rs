//! The one error type of the harness: every reason a run stops before it has
//! written its results.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::PathBuf;

use surp_datasets::DatasetError;

use crate::{BenchDataset, Operation, Suite, Workload};

/// Why a benchmark run could not be completed.
#[derive(Debug)]
#[non_exhaustive]
pub enum BenchError {
    /// A dataset failed to load or no longer matches the pinned manifest; the
    /// harness refuses to measure it.
    Dataset(DatasetError),
    /// A format name that is not in [`FORMATS`](crate::FORMATS).
    UnknownFormat {
        /// The name given.
        name: String,
    },
    /// Fewer iterations than the mode allows.
    TooFewIterations {
        /// The mode's name.
        mode: &'static str,
        /// The count asked for.
        given: usize,
        /// The smallest count the mode accepts.
        minimum: usize,
    },
    /// A filter left nothing to measure.
    NothingToMeasure {
        /// Which list came out empty: "formats" or "datasets".
        what: &'static str,
        /// The suite whose plan it was.
        suite: Suite,
    },
    /// A codec returned an error.
    Codec {
        /// The format's name.
        format: &'static str,
        /// The dataset being processed.
        dataset: BenchDataset,
        /// The operation that failed.
        operation: Operation,
        /// What the codec reported.
        message: String,
    },
    /// A format decoded something other than what it encoded.
    NotRoundTrip {
        /// The format's name.
        format: &'static str,
        /// The dataset that did not survive.
        dataset: BenchDataset,
        /// Where the first difference is, and what it is.
        difference: String,
    },
    /// A format encoded the same value to different bytes twice.
    NotDeterministic {
        /// The format's name.
        format: &'static str,
        /// The dataset encoded.
        dataset: BenchDataset,
    },
    /// A format does not round-trip a typed dataset exactly.
    TypedCheck {
        /// The format's name.
        format: &'static str,
        /// The typed dataset.
        dataset: BenchDataset,
        /// The operation whose check failed.
        operation: Operation,
        /// What went wrong.
        message: String,
    },
    /// A format fails the check before timing on a workload's stream of
    /// messages.
    StreamCheck {
        /// The format's name.
        format: &'static str,
        /// The workload.
        workload: Workload,
        /// The operation whose check failed.
        operation: Operation,
        /// What went wrong.
        message: String,
    },
    /// A workload's dataset does not have the records it streams.
    Workload {
        /// The workload.
        workload: Workload,
        /// What is wrong.
        message: String,
    },
    /// Counting instructions under callgrind failed.
    Instructions {
        /// What went wrong.
        message: String,
    },
    /// A file or folder could not be read or written.
    Io {
        /// The path involved.
        path: PathBuf,
        /// What the operating system reported.
        source: io::Error,
    },
    /// A chart could not be drawn.
    Chart {
        /// The chart's file name.
        chart: &'static str,
        /// What plotters reported.
        message: String,
    },
    /// The baseline folder exists but cannot be read as a benchmark run.
    Baseline {
        /// The baseline folder.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Dataset(err) => write!(f, "refusing to run: {err}"),
            BenchError::UnknownFormat { name } => {
                write!(f, "there is no format named `{name}`; the formats are ")?;
                let names: Vec<String> = crate::FORMATS
                    .iter()
                    .map(|x| format!("`{}`", x.name))
                    .collect();
                f.write_str(&names.join(", "))
            }
            BenchError::TooFewIterations {
                mode,
                given,
                minimum,
            } => write!(
                f,
                "{mode} mode needs at least {minimum} iterations per cell, but {given} were asked for"
            ),
            BenchError::TypedCheck {
                format,
                dataset,
                operation,
                message,
            } => write!(
                f,
                "{format} fails the check before timing on typed dataset `{dataset}` \
                 ({operation}): {message}"
            ),
            BenchError::StreamCheck {
                format,
                workload,
                operation,
                message,
            } => write!(
                f,
                "{format} fails the check before timing on the stream of workload `{workload}` \
                 ({operation}): {message}"
            ),
            BenchError::Workload { workload, message } => {
                write!(f, "workload `{workload}` cannot be streamed: {message}")
            }
            BenchError::Instructions { message } => {
                write!(f, "counting instructions failed: {message}")
            }
            BenchError::NothingToMeasure { what, suite } => {
                write!(
                    f,
                    "the {what} filter left nothing to measure in the {suite} suite"
                )
            }
            BenchError::Codec {
                format,
                dataset,
                operation,
                message,
            } => write!(
                f,
                "{format} failed to {} dataset `{dataset}`: {message}",
                operation.name()
            ),
            BenchError::NotRoundTrip {
                format,
                dataset,
                difference,
            } => write!(
                f,
                "{format} does not round-trip dataset `{dataset}` exactly: {difference}"
            ),
            BenchError::NotDeterministic { format, dataset } => write!(
                f,
                "{format} encoded dataset `{dataset}` to different bytes on two runs, so its size \
                 is not reproducible"
            ),
            BenchError::Io { path, source } => {
                write!(f, "could not access {}: {source}", path.display())
            }
            BenchError::Chart { chart, message } => {
                write!(f, "could not draw chart {chart}: {message}")
            }
            BenchError::Baseline { path, reason } => write!(
                f,
                "the baseline {} is not a usable benchmark run: {reason}",
                path.display()
            ),
        }
    }
}

impl Error for BenchError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            BenchError::Dataset(err) => Some(err),
            BenchError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<DatasetError> for BenchError {
    fn from(err: DatasetError) -> BenchError {
        BenchError::Dataset(err)
    }
}

impl BenchError {
    /// Wraps an I/O error with the path it concerns.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> BenchError {
        let path = path.into();
        move |source| BenchError::Io { path, source }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use surp_datasets::Scale;

    #[test]
    fn a_dataset_mismatch_refuses_the_run_with_the_datasets_message() {
        let err = BenchError::from(DatasetError::Mismatch {
            dataset: surp_datasets::Dataset::Canada,
            scale: Scale::Full,
            expected: "aa".into(),
            actual: "bb".into(),
        });
        let message = err.to_string();
        assert!(
            message.starts_with("refusing to run: dataset `canada` at scale `full`"),
            "{message}"
        );
        assert!(message.contains("bump DATASET_VERSION"), "{message}");
    }

    #[test]
    fn an_unknown_format_lists_the_known_ones() {
        let err = BenchError::UnknownFormat {
            name: "yaml".into(),
        };
        assert!(err.to_string().contains("`json`, `msgpack`"), "{err}");
    }
}
