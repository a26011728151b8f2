//! What a run measures: the mode (which fixes the dataset scale and the
//! iteration counts), the formats, the datasets and the iterations.

use std::fmt;

use surp_datasets::{Dataset, Scale};

use crate::{BenchError, Format};

/// How thorough a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// The ci-scale datasets and few iterations: a smoke test that finishes
    /// in seconds. Never published.
    Ci,
    /// The full-scale datasets and at least 10 iterations: the numbers the
    /// docs publish.
    Full,
}

impl Mode {
    /// The mode's name, as on the command line and in `meta.json`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Ci => "ci",
            Mode::Full => "full",
        }
    }

    /// The mode with this name, if there is one.
    pub fn from_name(name: &str) -> Option<Mode> {
        [Mode::Ci, Mode::Full]
            .into_iter()
            .find(|m| m.name() == name)
    }

    /// The scale of the generated datasets (the corpus documents are the
    /// same at both).
    pub fn scale(self) -> Scale {
        match self {
            Mode::Ci => Scale::Ci,
            Mode::Full => Scale::Full,
        }
    }

    /// Timed iterations per cell unless `--iterations` says otherwise. Full
    /// mode's 20 is the smallest count at which a nearest-rank p95 is not
    /// simply the maximum.
    pub fn default_iterations(self) -> usize {
        match self {
            Mode::Ci => 10,
            Mode::Full => 20,
        }
    }

    /// The fewest timed iterations the mode accepts.
    pub fn minimum_iterations(self) -> usize {
        match self {
            Mode::Ci => 1,
            Mode::Full => 10,
        }
    }

    /// Untimed runs of each format before each operation's timed
    /// iterations, to fault in code and data and size the buffers.
    pub fn warmup_iterations(self) -> usize {
        match self {
            Mode::Ci => 1,
            Mode::Full => 2,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Everything that decides which numbers a run produces.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The mode.
    pub mode: Mode,
    /// The formats, in [`FORMATS`](crate::FORMATS) order.
    pub formats: Vec<&'static Format>,
    /// The datasets, in [`Dataset::ALL`] order.
    pub datasets: Vec<Dataset>,
    /// Timed iterations per cell.
    pub iterations: usize,
    /// Untimed warm-up runs per format before each operation.
    pub warmup: usize,
}

impl Plan {
    /// A plan for these formats and datasets (put in their canonical order,
    /// duplicates dropped), with the mode's default iteration count unless
    /// one is given.
    pub fn new(
        mode: Mode,
        formats: Vec<&'static Format>,
        datasets: Vec<Dataset>,
        iterations: Option<usize>,
    ) -> Result<Plan, BenchError> {
        let formats: Vec<&'static Format> = crate::FORMATS
            .iter()
            .filter(|f| formats.contains(f))
            .collect();
        let datasets: Vec<Dataset> = Dataset::ALL
            .into_iter()
            .filter(|d| datasets.contains(d))
            .collect();
        if formats.is_empty() {
            return Err(BenchError::NothingToMeasure { what: "formats" });
        }
        if datasets.is_empty() {
            return Err(BenchError::NothingToMeasure { what: "datasets" });
        }
        let iterations = iterations.unwrap_or(mode.default_iterations());
        if iterations < mode.minimum_iterations() {
            return Err(BenchError::TooFewIterations {
                mode: mode.name(),
                given: iterations,
                minimum: mode.minimum_iterations(),
            });
        }
        Ok(Plan {
            mode,
            formats,
            datasets,
            iterations,
            warmup: mode.warmup_iterations(),
        })
    }

    /// The iteration counts in words, as reports print them.
    pub fn describe_iterations(&self) -> String {
        format!(
            "{} timed run{} per cell after {} warm-up run{} per format and operation",
            self.iterations,
            if self.iterations == 1 { "" } else { "s" },
            self.warmup,
            if self.warmup == 1 { "" } else { "s" }
        )
    }

    /// The number of cells, each a format x dataset x operation.
    pub fn cells(&self) -> usize {
        self.formats.len() * self.datasets.len() * crate::Operation::ALL.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FORMATS;

    #[test]
    fn a_plan_puts_formats_and_datasets_in_canonical_order() {
        let formats = vec![&FORMATS[2], &FORMATS[0], &FORMATS[2]];
        let datasets = vec![Dataset::Canada, Dataset::SmallObjects];
        let plan = Plan::new(Mode::Ci, formats, datasets, None).unwrap();
        assert_eq!(plan.formats, vec![&FORMATS[0], &FORMATS[2]]);
        assert_eq!(plan.datasets, vec![Dataset::SmallObjects, Dataset::Canada]);
        assert_eq!(plan.iterations, Mode::Ci.default_iterations());
        assert_eq!(plan.cells(), 2 * 2 * 3);
    }

    #[test]
    fn full_mode_refuses_fewer_than_ten_iterations() {
        let err = Plan::new(
            Mode::Full,
            vec![&FORMATS[0]],
            vec![Dataset::Canada],
            Some(9),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "full mode needs at least 10 iterations per cell, but 9 were asked for"
        );
        assert!(
            Plan::new(
                Mode::Full,
                vec![&FORMATS[0]],
                vec![Dataset::Canada],
                Some(10)
            )
            .is_ok()
        );
    }

    #[test]
    fn an_empty_filter_is_an_error() {
        let err = Plan::new(Mode::Ci, vec![], vec![Dataset::Canada], None).unwrap_err();
        assert!(matches!(
            err,
            BenchError::NothingToMeasure { what: "formats" }
        ));
    }

    #[test]
    fn mode_names_round_trip() {
        for mode in [Mode::Ci, Mode::Full] {
            assert_eq!(Mode::from_name(mode.name()), Some(mode));
        }
    }
}
