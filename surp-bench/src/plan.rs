//! What a run measures: the mode (which fixes the dataset scale and the
//! iteration counts), the formats, the datasets and the iterations.

use std::fmt;

use surp_datasets::Scale;

use crate::{BenchDataset, BenchError, Format, Suite};

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

    /// The messages in one stream of the messages suite: at least 10,000 in
    /// full mode, so that what a stream costs once (a zstd context's first
    /// frame, a session's first messages) is spread thin.
    pub fn messages_per_stream(self) -> usize {
        match self {
            Mode::Ci => 1_000,
            Mode::Full => 10_000,
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

/// Everything that decides which numbers a run of one suite produces.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The mode.
    pub mode: Mode,
    /// The suite.
    pub suite: Suite,
    /// The formats, in [`FORMATS`](crate::FORMATS) order, all in the suite.
    pub formats: Vec<&'static Format>,
    /// The datasets, in suite order, all in the suite.
    pub datasets: Vec<BenchDataset>,
    /// Timed iterations per cell.
    pub iterations: usize,
    /// Untimed warm-up runs per format before each operation.
    pub warmup: usize,
}

impl Plan {
    /// A plan for the formats and datasets of the suite among these (put in
    /// their canonical order, duplicates dropped, those of the other suite
    /// left out), with the mode's default iteration count unless one is
    /// given.
    pub fn new(
        mode: Mode,
        suite: Suite,
        formats: Vec<&'static Format>,
        datasets: Vec<BenchDataset>,
        iterations: Option<usize>,
    ) -> Result<Plan, BenchError> {
        let formats: Vec<&'static Format> = crate::FORMATS
            .iter()
            .filter(|f| f.in_suite(suite) && formats.contains(f))
            .collect();
        let datasets: Vec<BenchDataset> = BenchDataset::all(suite)
            .into_iter()
            .filter(|d| datasets.contains(d))
            .collect();
        if formats.is_empty() {
            return Err(BenchError::NothingToMeasure {
                what: "formats",
                suite,
            });
        }
        if datasets.is_empty() {
            return Err(BenchError::NothingToMeasure {
                what: "datasets",
                suite,
            });
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
            suite,
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

    /// The formats proper, without the compressed pipelines: what charts,
    /// the per-format tables and the docs' headlines compare (in the
    /// messages suite, every format; see [`Format::is_pipeline_in`]).
    pub fn compared_formats(&self) -> Vec<&'static Format> {
        self.formats
            .iter()
            .copied()
            .filter(|f| !f.is_pipeline_in(self.suite))
            .collect()
    }

    /// The compressed pipelines of the plan, with the plan's formats they
    /// compress, bases first: the rows of the compressed table. Empty when
    /// the plan has no pipeline.
    pub fn compressed_table_formats(&self) -> Vec<&'static Format> {
        let pipelines: Vec<&'static Format> = self
            .formats
            .iter()
            .copied()
            .filter(|f| f.is_pipeline_in(self.suite))
            .collect();
        if pipelines.is_empty() {
            return pipelines;
        }
        let mut rows: Vec<&'static Format> = self
            .formats
            .iter()
            .copied()
            .filter(|f| pipelines.iter().any(|p| p.zstd_of() == Some(f.name)))
            .collect();
        rows.extend(pipelines);
        rows
    }

    /// The most cells the plan can have, each a format x dataset x
    /// operation where the format measures the dataset (formats without a
    /// borrowed decode have fewer).
    pub fn cells(&self) -> usize {
        let pairs = self
            .datasets
            .iter()
            .map(|&d| self.formats.iter().filter(|f| f.measures(d)).count())
            .sum::<usize>();
        pairs * self.suite.operations().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FORMATS;
    use surp_datasets::Dataset;
    use surp_datasets::typed::TypedDataset;

    #[test]
    fn a_plan_puts_formats_and_datasets_in_canonical_order() {
        let postcard = Format::from_name("postcard").unwrap();
        let formats = vec![&FORMATS[2], &FORMATS[0], &FORMATS[2], postcard];
        let datasets = vec![
            Dataset::Canada.into(),
            Dataset::SmallObjects.into(),
            BenchDataset::Typed(TypedDataset::Mesh),
        ];
        let plan = Plan::new(
            Mode::Ci,
            Suite::Value,
            formats.clone(),
            datasets.clone(),
            None,
        )
        .unwrap();
        assert_eq!(plan.formats, vec![&FORMATS[0], &FORMATS[2]]);
        assert_eq!(
            plan.datasets,
            vec![Dataset::SmallObjects.into(), Dataset::Canada.into()]
        );
        let typed = Plan::new(Mode::Ci, Suite::Typed, formats, datasets, None).unwrap();
        assert_eq!(typed.formats, vec![&FORMATS[0], &FORMATS[2], postcard]);
        assert_eq!(
            typed.datasets,
            vec![BenchDataset::Typed(TypedDataset::Mesh)]
        );
        assert_eq!(plan.iterations, Mode::Ci.default_iterations());
        assert_eq!(plan.cells(), 2 * 2 * 3);
    }

    #[test]
    fn full_mode_refuses_fewer_than_ten_iterations() {
        let err = Plan::new(
            Mode::Full,
            Suite::Value,
            vec![&FORMATS[0]],
            vec![Dataset::Canada.into()],
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
                Suite::Value,
                vec![&FORMATS[0]],
                vec![Dataset::Canada.into()],
                Some(10)
            )
            .is_ok()
        );
    }

    #[test]
    fn an_empty_filter_is_an_error() {
        let err = Plan::new(
            Mode::Ci,
            Suite::Value,
            vec![],
            vec![Dataset::Canada.into()],
            None,
        )
        .unwrap_err();
        assert!(matches!(
            err,
            BenchError::NothingToMeasure {
                what: "formats",
                ..
            }
        ));
    }

    #[test]
    fn mode_names_round_trip() {
        for mode in [Mode::Ci, Mode::Full] {
            assert_eq!(Mode::from_name(mode.name()), Some(mode));
        }
    }
}
