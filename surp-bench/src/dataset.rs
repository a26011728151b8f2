//! What a measurement was taken on: a value-suite [`Dataset`] or a
//! typed-suite [`TypedDataset`], under one name space.

use std::fmt;

use surp_datasets::Dataset;
use surp_datasets::typed::TypedDataset;

use crate::Suite;

/// A dataset of either suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BenchDataset {
    /// A dataset of the value suite: the neutral value model.
    Value(Dataset),
    /// A dataset of the typed suite: derived Rust types.
    Typed(TypedDataset),
}

impl BenchDataset {
    /// Every dataset of a suite, in report order.
    pub fn all(suite: Suite) -> Vec<BenchDataset> {
        match suite {
            Suite::Value => Dataset::ALL.into_iter().map(BenchDataset::Value).collect(),
            Suite::Typed => TypedDataset::ALL
                .into_iter()
                .map(BenchDataset::Typed)
                .collect(),
        }
    }

    /// The dataset with this name in either suite (the names are disjoint).
    pub fn from_name(name: &str) -> Option<BenchDataset> {
        Dataset::from_name(name)
            .map(BenchDataset::Value)
            .or_else(|| TypedDataset::from_name(name).map(BenchDataset::Typed))
    }

    /// The name in reports, CSV files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BenchDataset::Value(d) => d.name(),
            BenchDataset::Typed(d) => d.name(),
        }
    }

    /// One line on the shape and what it stresses.
    pub fn description(self) -> &'static str {
        match self {
            BenchDataset::Value(d) => d.description(),
            BenchDataset::Typed(d) => d.description(),
        }
    }

    /// The suite the dataset belongs to.
    pub fn suite(self) -> Suite {
        match self {
            BenchDataset::Value(_) => Suite::Value,
            BenchDataset::Typed(_) => Suite::Typed,
        }
    }
}

impl fmt::Display for BenchDataset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl From<Dataset> for BenchDataset {
    fn from(d: Dataset) -> BenchDataset {
        BenchDataset::Value(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_across_suites() {
        let all: Vec<BenchDataset> = [Suite::Value, Suite::Typed]
            .into_iter()
            .flat_map(BenchDataset::all)
            .collect();
        for (i, d) in all.iter().enumerate() {
            assert_eq!(BenchDataset::from_name(d.name()), Some(*d));
            assert!(all[..i].iter().all(|e| e.name() != d.name()), "{d}");
        }
    }
}
