//! The three operations timed for every format and dataset.

use std::fmt;

/// What one timed run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// Neutral value to bytes.
    Encode,
    /// Bytes to neutral value.
    Decode,
    /// Encode then decode the result, in one timed run.
    Roundtrip,
}

impl Operation {
    /// Every operation, in the order runs and reports use.
    pub const ALL: [Operation; 3] = [Operation::Encode, Operation::Decode, Operation::Roundtrip];

    /// The name written in `summary.csv` and chart file names.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Encode => "encode",
            Operation::Decode => "decode",
            Operation::Roundtrip => "roundtrip",
        }
    }

    /// The name with a capital letter, as a heading.
    pub fn title(self) -> &'static str {
        match self {
            Operation::Encode => "Encode",
            Operation::Decode => "Decode",
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
