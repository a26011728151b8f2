//! A whole run: verify the datasets, measure, compare with the baseline and
//! write every output file.

use std::fs;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use surp_datasets::typed::TypedValue;
use surp_datasets::{Dataset, Value};

use crate::markdown::to_markdown;
use crate::measure::{measure_dataset, measure_typed_dataset, measure_workload};
use crate::meta::{Git, WorkloadMeta};
use crate::regression::RunIdentity;
use crate::table::to_table;
use crate::{
    Baseline, BenchDataset, BenchError, Comparison, Measurement, Meta, Plan, Regression,
    SURP_FORMAT_VERSION, Suite, compare, to_csv,
};

/// What to run and where to put it.
#[derive(Clone, Debug)]
pub struct Options {
    /// What to measure: one plan per suite, run in this order.
    pub plans: Vec<Plan>,
    /// The output folder (created if missing; files in it are replaced).
    /// Each suite writes into its [subfolder](Suite::subfolder).
    pub output: PathBuf,
    /// The earlier run to compare with, if any (its own suite subfolders
    /// are compared suite by suite).
    pub baseline: Option<PathBuf>,
    /// Whether to show a progress bar on stderr (shown only if stderr is a
    /// terminal).
    pub progress: bool,
}

/// What a finished run of one suite produced.
#[derive(Clone, Debug)]
pub struct SuiteReport {
    /// The plan that ran.
    pub plan: Plan,
    /// Where its files were written.
    pub output: PathBuf,
    /// Every cell, datasets in plan order, then formats, then operations.
    pub measurements: Vec<Measurement>,
    /// What `meta.json` holds, including the regression check.
    pub meta: Meta,
}

/// What a finished run produced.
#[derive(Clone, Debug)]
pub struct Report {
    /// The run folder.
    pub output: PathBuf,
    /// One report per suite, in the order they ran.
    pub suites: Vec<SuiteReport>,
}

impl Report {
    /// The results tables printed at the end of a run, one per suite.
    pub fn table(&self) -> String {
        self.suites
            .iter()
            .map(|s| to_table(&s.plan, &s.measurements, &s.meta.comparison))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The regressions found against the baseline, in every suite.
    pub fn regressions(&self) -> Vec<&Regression> {
        self.suites
            .iter()
            .flat_map(|s| &s.meta.comparison.regressions)
            .collect()
    }
}

/// The workspace root, where `docs/` and `bench/` live.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("surp-bench sits inside the workspace")
        .to_owned()
}

/// Runs every plan: verifies its datasets against the manifests before
/// anything is timed, measures, compares with the baseline, and writes
/// `summary.csv`, `summary.md`, `meta.json` and `charts/*.svg` into the
/// suite's folder of the output.
pub fn run(options: &Options) -> Result<Report, BenchError> {
    // Before the run writes anything, so the flag describes the code that ran.
    let git = Git::capture(&workspace_root());
    let progress = if options.progress {
        // One step per timed run of one cell (format x dataset x operation).
        let steps: usize = options.plans.iter().map(|p| p.cells() * p.iterations).sum();
        let bar = ProgressBar::new(steps as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40.cyan/blue} {percent:>3}%  {elapsed_precise} (~{eta} left)  {msg}",
            )
            .expect("the template is valid"),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut suites = Vec::with_capacity(options.plans.len());
    for plan in &options.plans {
        let output = options.output.join(plan.suite.subfolder());
        let baseline = options
            .baseline
            .as_deref()
            .map(|dir| dir.join(plan.suite.subfolder()));
        suites.push(run_suite(
            plan,
            &output,
            baseline.as_deref(),
            &git,
            &progress,
        )?);
    }
    progress.finish_and_clear();
    Ok(Report {
        output: options.output.clone(),
        suites,
    })
}

/// A folder as `meta.json` and the report name it: from the workspace root
/// when it is inside the workspace, so that a committed run does not show
/// where the repository sat on the machine that made it.
fn recorded_path(dir: &Path) -> String {
    dir.strip_prefix(workspace_root())
        .unwrap_or(dir)
        .display()
        .to_string()
}

fn run_suite(
    plan: &Plan,
    output: &Path,
    baseline_dir: Option<&Path>,
    git: &Git,
    progress: &ProgressBar,
) -> Result<SuiteReport, BenchError> {
    let baseline = match baseline_dir {
        Some(dir) if dir.join("summary.csv").is_file() => Some(Baseline::load(dir)?),
        _ => None,
    };
    let (measurements, workloads) = match plan.suite {
        Suite::Value => (measure_value_suite(plan, progress)?, Vec::new()),
        Suite::Typed => (measure_typed_suite(plan, progress)?, Vec::new()),
        Suite::Messages => measure_messages_suite(plan, progress)?,
    };
    let comparison = match &baseline {
        Some(baseline) => {
            let identity = RunIdentity {
                mode: plan.mode.name().to_owned(),
                dataset_version: plan.suite.dataset_version().to_owned(),
                surp_format_version: Some(SURP_FORMAT_VERSION),
            };
            let mut comparison = compare(
                &measurements,
                &identity,
                &baseline.measurements,
                &baseline.identity,
            );
            comparison.baseline = Some(recorded_path(&baseline.dir));
            if !baseline.skipped_rows.is_empty() {
                comparison.notes.push(format!(
                    "{} baseline rows name formats, datasets or operations this build does not \
                     have and were not compared",
                    baseline.skipped_rows.len()
                ));
            }
            comparison
        }
        None => Comparison {
            notes: vec![match baseline_dir {
                Some(dir) => format!(
                    "the baseline {} has no {} suite; nothing was compared",
                    recorded_path(dir),
                    plan.suite
                ),
                None => "no baseline run was found or given; nothing was compared".to_owned(),
            }],
            ..Comparison::default()
        },
    };
    let mut meta = Meta::new(plan, git.clone(), comparison);
    meta.workloads = workloads;
    write_outputs(output, plan, &measurements, &meta)?;
    Ok(SuiteReport {
        plan: plan.clone(),
        output: output.to_owned(),
        measurements,
        meta,
    })
}

fn measure_value_suite(
    plan: &Plan,
    progress: &ProgressBar,
) -> Result<Vec<Measurement>, BenchError> {
    let scale = plan.mode.scale();
    // Every dataset is loaded and verified before anything is timed.
    let datasets: Vec<(Dataset, Value)> = plan
        .datasets
        .iter()
        .filter_map(|d| match d {
            BenchDataset::Value(d) => Some(*d),
            BenchDataset::Typed(_) | BenchDataset::Messages(_) => None,
        })
        .map(|d| Ok((d, d.load(scale)?)))
        .collect::<Result<_, BenchError>>()?;
    let mut measurements = Vec::with_capacity(plan.cells());
    for (dataset, value) in &datasets {
        measurements.extend(measure_dataset(plan, *dataset, value, progress)?);
    }
    Ok(measurements)
}

fn measure_typed_suite(
    plan: &Plan,
    progress: &ProgressBar,
) -> Result<Vec<Measurement>, BenchError> {
    let scale = plan.mode.scale();
    let datasets: Vec<(BenchDataset, TypedValue)> = plan
        .datasets
        .iter()
        .filter_map(|d| match d {
            BenchDataset::Typed(t) => Some((*d, *t)),
            BenchDataset::Value(_) | BenchDataset::Messages(_) => None,
        })
        .map(|(d, t)| Ok((d, t.load(scale)?)))
        .collect::<Result<_, BenchError>>()?;
    let mut measurements = Vec::with_capacity(plan.cells());
    for (dataset, value) in &datasets {
        measurements.extend(measure_typed_dataset(plan, *dataset, value, progress)?);
    }
    Ok(measurements)
}

/// Measures the messages suite, and describes how each workload's stream
/// was cut, for `meta.json`.
fn measure_messages_suite(
    plan: &Plan,
    progress: &ProgressBar,
) -> Result<(Vec<Measurement>, Vec<WorkloadMeta>), BenchError> {
    // Every dataset is loaded, verified and cut before anything is timed.
    let streams = plan
        .datasets
        .iter()
        .filter_map(|d| match d {
            BenchDataset::Messages(w) => Some(*w),
            BenchDataset::Value(_) | BenchDataset::Typed(_) => None,
        })
        .map(|w| Ok((w, w.load(plan.mode)?)))
        .collect::<Result<Vec<_>, BenchError>>()?;
    let mut measurements = Vec::with_capacity(plan.cells());
    for (workload, stream) in &streams {
        measurements.extend(measure_workload(plan, *workload, stream, progress)?);
    }
    let workloads = streams
        .iter()
        .map(|(w, stream)| WorkloadMeta::new(*w, stream.shape()))
        .collect();
    Ok((measurements, workloads))
}

fn write_outputs(
    dir: &Path,
    plan: &Plan,
    measurements: &[Measurement],
    meta: &Meta,
) -> Result<(), BenchError> {
    let charts = dir.join("charts");
    fs::create_dir_all(&charts).map_err(BenchError::io(&charts))?;
    let write = |path: PathBuf, text: &str| fs::write(&path, text).map_err(BenchError::io(path));
    write(dir.join("summary.csv"), &to_csv(measurements))?;
    write(dir.join("summary.md"), &to_markdown(plan, measurements))?;
    write(dir.join("meta.json"), &meta.to_json())?;
    for chart in plan.suite.charts() {
        let svg = chart.render(measurements, plan.iterations)?;
        write(charts.join(chart.file_name()), &svg)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_inside_the_workspace_is_recorded_from_its_root() {
        let run = workspace_root().join("docs/assets/bench/v0.1.0/typed");
        assert_eq!(recorded_path(&run), "docs/assets/bench/v0.1.0/typed");
        let elsewhere = Path::new("/tmp/baseline");
        assert_eq!(recorded_path(elsewhere), "/tmp/baseline");
    }
}
