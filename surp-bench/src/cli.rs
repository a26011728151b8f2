//! The command line, declared with clap's derive API, and how it becomes
//! [`Options`].

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use semver::Version;
use surp_datasets::Dataset;

use crate::{
    BenchDataset, BenchError, FORMATS, Format, Mode, Options, Plan, Suite, default_baseline,
    workspace_root,
};

/// Compare Surp with JSON, MessagePack, CBOR and Protobuf on the seeded
/// benchmark datasets, and on streams of small messages cut from them, and
/// write summary.csv, summary.md, meta.json and SVG charts.
///
/// Exit status: 0 on success, 1 on an error, 3 when `--check` found a
/// regression.
#[derive(Clone, Debug, Parser)]
#[command(name = "surp-bench", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// Instead of a run, another task.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// How thorough the run is.
    #[arg(long, value_enum, default_value_t = Mode::Ci)]
    pub mode: Mode,

    /// Only this suite: `value` (every format encodes the neutral value
    /// tree), `typed` (derived Rust types, with the schema-bound formats) or
    /// `messages` (streams of many small messages, one record each, with
    /// zstd per message, with a dictionary and as one stream) [default:
    /// all three].
    #[arg(long, value_enum)]
    pub suite: Option<Suite>,

    /// Output folder [default: docs/assets/bench/v<version>/ in full mode,
    /// bench/results/ in ci mode, both under the workspace root].
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,

    /// Only these formats (comma-separated) [default: all].
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_format)]
    pub formats: Vec<&'static Format>,

    /// Only these datasets, of any suite (comma-separated; the messages
    /// suite's are its workloads, such as log_record) [default: all]. A
    /// suite none of whose datasets is named is skipped.
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_bench_dataset)]
    pub datasets: Vec<BenchDataset>,

    /// Timed iterations per cell [default: 10 in ci mode, 20 in full mode;
    /// full mode needs at least 10].
    #[arg(long, value_name = "N")]
    pub iterations: Option<usize>,

    /// The run to compare with [default: the docs/assets/bench/v<semver>/
    /// folder with the highest version not above this one, other than the
    /// output folder].
    #[arg(long, value_name = "DIR")]
    pub baseline: Option<PathBuf>,

    /// Exit with status 3 when a regression is found.
    #[arg(long)]
    pub check: bool,

    /// Never show the progress bar (it is also hidden when stderr is not a
    /// terminal).
    #[arg(long)]
    pub no_progress: bool,

    /// Also count the instructions of encode and decode of surp and
    /// surp_dedup on every dataset at ci scale, under valgrind's callgrind,
    /// into instructions.csv; with --check, a cell more than 2% above the
    /// instruction baseline fails the run.
    #[arg(long)]
    pub instructions: bool,

    /// The instruction counts to compare with [default:
    /// bench/instructions-baseline.csv under the workspace root].
    #[arg(long, value_name = "FILE", requires = "instructions")]
    pub instruction_baseline: Option<PathBuf>,

    /// Write this run's instruction counts to the instruction baseline
    /// instead of comparing with it (commit it, saying why the counts
    /// changed).
    #[arg(long, requires = "instructions")]
    pub write_instruction_baseline: bool,
}

/// A task other than a benchmark run.
#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    /// Internal: the process valgrind runs for --instructions.
    #[command(name = "count-instructions-worker", hide = true)]
    InstructionsWorker,
    /// Write every dataset as <name>.surp (plain Surp) and <name>.json (the
    /// test-vector notation of docs/spec.md), plus export.json, for other
    /// languages' harnesses and tests.
    Export(ExportArgs),
}

/// The options of `surp-bench export`.
#[derive(Clone, Debug, Args)]
pub struct ExportArgs {
    /// The folder to write into (created if missing).
    #[arg(long, value_name = "DIR")]
    pub output: PathBuf,

    /// The scale of the generated datasets, and the iteration counts that
    /// export.json passes on.
    #[arg(long, value_enum, default_value_t = Mode::Ci)]
    pub mode: Mode,

    /// Only these datasets (comma-separated) [default: all].
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_dataset)]
    pub datasets: Vec<Dataset>,
}

impl ExportArgs {
    /// The datasets to export, in [`Dataset::ALL`] order.
    pub fn datasets(&self) -> Vec<Dataset> {
        Dataset::ALL
            .into_iter()
            .filter(|d| self.datasets.is_empty() || self.datasets.contains(d))
            .collect()
    }
}

fn parse_format(name: &str) -> Result<&'static Format, String> {
    Format::from_name(name).ok_or_else(|| {
        BenchError::UnknownFormat {
            name: name.to_owned(),
        }
        .to_string()
    })
}

fn parse_bench_dataset(name: &str) -> Result<BenchDataset, String> {
    BenchDataset::from_name(name).ok_or_else(|| {
        let mut names: Vec<&str> = Suite::ALL
            .into_iter()
            .flat_map(BenchDataset::all)
            .map(BenchDataset::name)
            .collect();
        names.sort_unstable();
        format!(
            "unknown dataset `{name}`; the datasets are {}",
            names.join(", ")
        )
    })
}

fn parse_dataset(name: &str) -> Result<Dataset, String> {
    name.parse::<Dataset>().map_err(|err| err.to_string())
}

impl Cli {
    /// The options this command line asks for, with every default filled in.
    pub fn into_options(self) -> Result<Options, BenchError> {
        let formats: Vec<&'static Format> = if self.formats.is_empty() {
            FORMATS.iter().collect()
        } else {
            self.formats
        };
        let suites: Vec<Suite> = match self.suite {
            Some(suite) => vec![suite],
            // Every suite, less those the filters leave empty.
            None => Suite::ALL
                .into_iter()
                .filter(|&suite| {
                    (self.datasets.is_empty() || self.datasets.iter().any(|d| d.suite() == suite))
                        && formats.iter().any(|f| f.in_suite(suite))
                })
                .collect(),
        };
        let plans = if suites.is_empty() {
            // Let the value suite's plan say what the filters left empty.
            vec![Plan::new(
                self.mode,
                Suite::Value,
                formats,
                self.datasets,
                self.iterations,
            )?]
        } else {
            suites
                .into_iter()
                .map(|suite| {
                    let datasets = if self.datasets.is_empty() {
                        BenchDataset::all(suite)
                    } else {
                        self.datasets.clone()
                    };
                    Plan::new(self.mode, suite, formats.clone(), datasets, self.iterations)
                })
                .collect::<Result<_, _>>()?
        };
        let root = workspace_root();
        let bench_root = root.join("docs/assets/bench");
        let version = Version::parse(env!("CARGO_PKG_VERSION")).expect("cargo versions are semver");
        let output = self.output.unwrap_or_else(|| match self.mode {
            Mode::Full => bench_root.join(format!("v{version}")),
            Mode::Ci => root.join("bench/results"),
        });
        let baseline = self
            .baseline
            .or_else(|| default_baseline(&bench_root, &version, &output));
        Ok(Options {
            plans,
            output,
            baseline,
            progress: !self.no_progress,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn filters_parse_as_comma_separated_names() {
        let cli = Cli::try_parse_from([
            "surp-bench",
            "--mode",
            "full",
            "--formats",
            "json,cbor",
            "--datasets",
            "canada,twitter",
            "--iterations",
            "12",
            "--check",
            "--no-progress",
            "--output",
            "out",
        ])
        .unwrap();
        assert_eq!(cli.mode, Mode::Full);
        let names: Vec<&str> = cli.formats.iter().map(|f| f.name).collect();
        assert_eq!(names, ["json", "cbor"]);
        assert_eq!(
            cli.datasets,
            [Dataset::Canada.into(), Dataset::Twitter.into()]
        );
        let options = cli.into_options().unwrap();
        // Only value datasets were named, so only the value suite runs.
        assert_eq!(options.plans.len(), 1);
        assert_eq!(options.plans[0].suite, Suite::Value);
        assert_eq!(options.plans[0].iterations, 12);
        assert_eq!(options.output, PathBuf::from("out"));
        assert!(!options.progress);
    }

    #[test]
    fn suite_typed_runs_only_the_typed_suite_with_every_format() {
        let options = Cli::try_parse_from(["surp-bench", "--suite", "typed"])
            .unwrap()
            .into_options()
            .unwrap();
        assert_eq!(options.plans.len(), 1);
        assert_eq!(options.plans[0].suite, Suite::Typed);
        let typed = FORMATS.iter().filter(|f| f.in_suite(Suite::Typed));
        assert_eq!(options.plans[0].formats.len(), typed.count());
        assert_eq!(options.plans[0].formats.len(), 13);
    }

    #[test]
    fn suite_messages_runs_its_workloads_with_its_formats() {
        let options = Cli::try_parse_from(["surp-bench", "--suite", "messages"])
            .unwrap()
            .into_options()
            .unwrap();
        assert_eq!(options.plans.len(), 1);
        let plan = &options.plans[0];
        assert_eq!(plan.suite, Suite::Messages);
        assert_eq!(plan.datasets, BenchDataset::all(Suite::Messages));
        let names: Vec<&str> = plan.formats.iter().map(|f| f.name).collect();
        assert_eq!(
            names,
            [
                "surp",
                "surp_dedup",
                "msgpack",
                "msgpack_compact",
                "postcard",
                "surp_zstd",
                "surp_zstd_dict",
                "surp_zstd_stream",
                "surp_session",
                "surp_dictionary",
                "surp_session_zstd_stream",
            ]
        );
    }

    #[test]
    fn a_workload_name_picks_the_messages_suite_alone() {
        let options = Cli::try_parse_from(["surp-bench", "--datasets", "citm_event,twitter"])
            .unwrap()
            .into_options()
            .unwrap();
        let suites: Vec<Suite> = options.plans.iter().map(|p| p.suite).collect();
        assert_eq!(suites, [Suite::Value, Suite::Messages]);
        assert_eq!(
            options.plans[1].datasets,
            [BenchDataset::Messages(crate::Workload::CitmEvent)]
        );
    }

    #[test]
    fn a_typed_dataset_with_the_value_suite_leaves_nothing_to_measure() {
        let err = Cli::try_parse_from(["surp-bench", "--suite", "value", "--datasets", "mesh"])
            .unwrap()
            .into_options()
            .unwrap_err();
        assert!(err.to_string().contains("datasets filter"), "{err}");
    }

    #[test]
    fn an_unknown_format_is_rejected_with_the_list() {
        let err = Cli::try_parse_from(["surp-bench", "--formats", "yaml"]).unwrap_err();
        assert!(err.to_string().contains("`json`"), "{err}");
    }

    #[test]
    fn export_takes_its_own_output_mode_and_datasets() {
        let cli = Cli::try_parse_from([
            "surp-bench",
            "export",
            "--output",
            "out",
            "--mode",
            "full",
            "--datasets",
            "canada,small_objects",
        ])
        .unwrap();
        let Some(Command::Export(args)) = cli.command else {
            panic!("expected the export command");
        };
        assert_eq!(args.output, PathBuf::from("out"));
        assert_eq!(args.mode, Mode::Full);
        assert_eq!(args.datasets(), [Dataset::SmallObjects, Dataset::Canada]);
    }

    #[test]
    fn export_needs_an_output_and_refuses_run_options() {
        assert!(Cli::try_parse_from(["surp-bench", "export"]).is_err());
        assert!(
            Cli::try_parse_from(["surp-bench", "--check", "export", "--output", "out"]).is_err()
        );
    }

    #[test]
    fn ci_mode_writes_to_bench_results_by_default() {
        let options = Cli::try_parse_from(["surp-bench"])
            .unwrap()
            .into_options()
            .unwrap();
        assert_eq!(options.output, workspace_root().join("bench/results"));
        let suites: Vec<Suite> = options.plans.iter().map(|p| p.suite).collect();
        assert_eq!(suites, Suite::ALL);
        for plan in &options.plans {
            assert_eq!(plan.mode, Mode::Ci);
            assert_eq!(plan.datasets, BenchDataset::all(plan.suite));
        }
    }

    #[test]
    fn full_mode_writes_to_the_versioned_docs_folder_by_default() {
        let options = Cli::try_parse_from(["surp-bench", "--mode", "full"])
            .unwrap()
            .into_options()
            .unwrap();
        let expected =
            workspace_root().join(format!("docs/assets/bench/v{}", env!("CARGO_PKG_VERSION")));
        assert_eq!(options.output, expected);
    }
}
