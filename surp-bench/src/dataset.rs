//! What a measurement was taken on: a value-suite [`Dataset`], a
//! typed-suite [`TypedDataset`] or a messages-suite [`Workload`], under one
//! name space.

use std::fmt;

use surp_datasets::Dataset;
use surp_datasets::typed::TypedDataset;

use crate::{Suite, Workload};

/// A dataset of any suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BenchDataset {
    /// A dataset of the value suite: the neutral value model.
    Value(Dataset),
    /// A dataset of the typed suite: derived Rust types.
    Typed(TypedDataset),
    /// A workload of the messages suite: a stream of records of a dataset
    /// of either other suite.
    Messages(Workload),
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
            Suite::Messages => Workload::ALL
                .into_iter()
                .map(BenchDataset::Messages)
                .collect(),
        }
    }

    /// The dataset with this name in any suite (the names are disjoint).
    pub fn from_name(name: &str) -> Option<BenchDataset> {
        Dataset::from_name(name)
            .map(BenchDataset::Value)
            .or_else(|| TypedDataset::from_name(name).map(BenchDataset::Typed))
            .or_else(|| Workload::from_name(name).map(BenchDataset::Messages))
    }

    /// The name in reports, CSV files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BenchDataset::Value(d) => d.name(),
            BenchDataset::Typed(d) => d.name(),
            BenchDataset::Messages(w) => w.name(),
        }
    }

    /// One line on the shape and what it stresses.
    pub fn description(self) -> &'static str {
        match self {
            BenchDataset::Value(d) => d.description(),
            BenchDataset::Typed(d) => d.description(),
            BenchDataset::Messages(w) => w.description(),
        }
    }

    /// The suite the dataset belongs to.
    pub fn suite(self) -> Suite {
        match self {
            BenchDataset::Value(_) => Suite::Value,
            BenchDataset::Typed(_) => Suite::Typed,
            BenchDataset::Messages(_) => Suite::Messages,
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

impl From<Workload> for BenchDataset {
    fn from(w: Workload) -> BenchDataset {
        BenchDataset::Messages(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_across_suites() {
        let all: Vec<BenchDataset> = Suite::ALL.into_iter().flat_map(BenchDataset::all).collect();
        for (i, d) in all.iter().enumerate() {
            assert_eq!(BenchDataset::from_name(d.name()), Some(*d));
            assert!(all[..i].iter().all(|e| e.name() != d.name()), "{d}");
        }
    }
}
