//! The two suites a run can measure.

use std::fmt;

use crate::{Chart, Operation};

/// Which kind of data the formats encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Suite {
    /// Every format encodes the same dynamic tree: the neutral value model
    /// of `surp-datasets`.
    Value,
    /// Derived Rust structs and enums, where the schema-bound formats join.
    Typed,
}

impl Suite {
    /// Both suites, in the order a run measures them.
    pub const ALL: [Suite; 2] = [Suite::Value, Suite::Typed];

    /// The name on the command line and in `meta.json`.
    pub fn name(self) -> &'static str {
        match self {
            Suite::Value => "value",
            Suite::Typed => "typed",
        }
    }

    /// The operations the suite times, in report order. Borrowed decoding is
    /// a typed-suite question: the neutral model owns its strings.
    pub fn operations(self) -> &'static [Operation] {
        match self {
            Suite::Value => &[Operation::Encode, Operation::Decode, Operation::Roundtrip],
            Suite::Typed => &[
                Operation::Encode,
                Operation::Decode,
                Operation::DecodeBorrowed,
                Operation::Roundtrip,
            ],
        }
    }

    /// The charts the suite draws.
    pub fn charts(self) -> Vec<Chart> {
        let mut charts = vec![Chart::Size, Chart::ZstdSize];
        charts.extend(self.operations().iter().map(|&op| Chart::Time(op)));
        charts
    }

    /// Where the suite's files go inside a run folder: the value suite at
    /// the top (as before the typed suite existed), the typed suite in
    /// `typed/`.
    pub fn subfolder(self) -> &'static str {
        match self {
            Suite::Value => "",
            Suite::Typed => "typed",
        }
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}
