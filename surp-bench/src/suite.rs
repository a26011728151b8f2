//! The three suites a run can measure.

use std::fmt;

use surp_datasets::DATASET_VERSION;
use surp_datasets::typed::TYPED_DATASET_VERSION;

use crate::workload::WORKLOAD_DATASET_VERSION;
use crate::{Chart, Operation};

/// Which kind of data the formats encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Suite {
    /// Every format encodes the same dynamic tree: the neutral value model
    /// of `surp-datasets`.
    Value,
    /// Derived Rust structs and enums, where the schema-bound formats join.
    Typed,
    /// Streams of many small messages, one record each, where a format may
    /// keep state from one message to the next or share a dictionary.
    Messages,
}

impl Suite {
    /// Every suite, in the order a run measures them.
    pub const ALL: [Suite; 3] = [Suite::Value, Suite::Typed, Suite::Messages];

    /// The name on the command line and in `meta.json`.
    pub fn name(self) -> &'static str {
        match self {
            Suite::Value => "value",
            Suite::Typed => "typed",
            Suite::Messages => "messages",
        }
    }

    /// The suite with this name, if there is one.
    pub fn from_name(name: &str) -> Option<Suite> {
        Suite::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The operations the suite times, in report order. Borrowed decoding is
    /// a typed-suite question: the neutral model owns its strings. The
    /// messages suite times a whole stream's encode and decode.
    pub fn operations(self) -> &'static [Operation] {
        match self {
            Suite::Value => &[Operation::Encode, Operation::Decode, Operation::Roundtrip],
            Suite::Typed => &[
                Operation::Encode,
                Operation::Decode,
                Operation::DecodeBorrowed,
                Operation::Roundtrip,
            ],
            Suite::Messages => &[Operation::Encode, Operation::Decode],
        }
    }

    /// Whether each encoding's size after zstd is recorded (`zstd_bytes`).
    /// In the messages suite zstd is part of some formats, not a column.
    pub fn measures_zstd_size(self) -> bool {
        self != Suite::Messages
    }

    /// The charts the suite draws.
    pub fn charts(self) -> Vec<Chart> {
        let mut charts = vec![Chart::Size];
        if self.measures_zstd_size() {
            charts.push(Chart::ZstdSize);
        }
        charts.extend(self.operations().iter().map(|&op| Chart::Time(op)));
        charts
    }

    /// Where the suite's files go inside a run folder: the value suite at
    /// the top (as before the other suites existed), the others in a
    /// folder named after them.
    pub fn subfolder(self) -> &'static str {
        match self {
            Suite::Value => "",
            Suite::Typed | Suite::Messages => self.name(),
        }
    }

    /// The version of the data the suite measures, which a baseline must
    /// share for its numbers to be compared.
    pub fn dataset_version(self) -> &'static str {
        match self {
            Suite::Value => DATASET_VERSION,
            Suite::Typed => TYPED_DATASET_VERSION,
            Suite::Messages => WORKLOAD_DATASET_VERSION,
        }
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_folders_differ() {
        for (i, suite) in Suite::ALL.into_iter().enumerate() {
            assert_eq!(Suite::from_name(suite.name()), Some(suite));
            assert!(
                Suite::ALL[..i]
                    .iter()
                    .all(|s| s.subfolder() != suite.subfolder())
            );
        }
    }

    #[test]
    fn the_messages_suite_charts_sizes_and_the_two_stream_times() {
        assert_eq!(
            Suite::Messages.charts(),
            [
                Chart::Size,
                Chart::Time(Operation::Encode),
                Chart::Time(Operation::Decode)
            ]
        );
        assert!(Suite::Value.charts().contains(&Chart::ZstdSize));
    }
}
