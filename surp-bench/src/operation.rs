//! The three operations timed for every format and dataset.

use std::fmt;

/// What one timed run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// Neutral value to bytes.
    Encode,
    /// Bytes to an owned value.
    Decode,
    /// Bytes to a value that borrows its strings from the input (typed
    /// suite only, where the type and the format allow).
    DecodeBorrowed,
    /// Encode then decode the result, in one timed run.
    Roundtrip,
}

impl Operation {
    /// Every operation, in the order runs and reports use.
    pub const ALL: [Operation; 4] = [
        Operation::Encode,
        Operation::Decode,
        Operation::DecodeBorrowed,
        Operation::Roundtrip,
    ];

    /// The name written in `summary.csv` and chart file names.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Encode => "encode",
            Operation::Decode => "decode",
            Operation::DecodeBorrowed => "decode_borrowed",
            Operation::Roundtrip => "roundtrip",
        }
    }

    /// The name with a capital letter, as a heading.
    pub fn title(self) -> &'static str {
        match self {
            Operation::Encode => "Encode",
            Operation::Decode => "Decode",
            Operation::DecodeBorrowed => "Borrowed decode",
            Operation::Roundtrip => "Roundtrip",
        }
    }

    /// The operation with this name, if there is one.
    pub fn from_name(name: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|op| op.name() == name)
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for op in Operation::ALL {
            assert_eq!(Operation::from_name(op.name()), Some(op));
        }
        assert_eq!(Operation::from_name("Encode"), None);
    }
}
