//! A whole run: verify the datasets, measure, compare with the baseline and
//! write every output file.

use std::fs;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use surp_datasets::{DATASET_VERSION, Dataset, Value};

use crate::markdown::to_markdown;
use crate::measure::measure_dataset;
use crate::meta::Git;
use crate::regression::RunIdentity;
use crate::table::to_table;
use crate::{
    Baseline, BenchError, Chart, Comparison, Measurement, Meta, Plan, Regression,
    SURP_FORMAT_VERSION, compare, to_csv,
};

/// What to run and where to put it.
#[derive(Clone, Debug)]
pub struct Options {
    /// What to measure.
    pub plan: Plan,
    /// The output folder (created if missing; files in it are replaced).
    pub output: PathBuf,
    /// The earlier run to compare with, if any.
    pub baseline: Option<PathBuf>,
    /// Whether to show a progress bar on stderr (shown only if stderr is a
    /// terminal).
    pub progress: bool,
}

/// What a finished run produced.
#[derive(Clone, Debug)]
pub struct Report {
    /// The plan that ran.
    pub plan: Plan,
    /// Where the files were written.
    pub output: PathBuf,
    /// Every cell, datasets in plan order, then formats, then operations.
    pub measurements: Vec<Measurement>,
    /// What `meta.json` holds, including the regression check.
    pub meta: Meta,
}

impl Report {
    /// The results table printed at the end of a run.
    pub fn table(&self) -> String {
        to_table(&self.plan, &self.measurements, &self.meta.comparison)
    }

    /// The regressions found against the baseline.
    pub fn regressions(&self) -> &[Regression] {
        &self.meta.comparison.regressions
    }
}

/// The workspace root, where `docs/` and `bench/` live.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("surp-bench sits inside the workspace")
        .to_owned()
}

/// Runs the plan: verifies every dataset against the manifest before
/// anything is timed, measures, compares with the baseline, and writes
/// `summary.csv`, `summary.md`, `meta.json` and `charts/*.svg` into the
/// output folder.
pub fn run(options: &Options) -> Result<Report, BenchError> {
    let plan = &options.plan;
    // Before the run writes anything, so the flag describes the code that ran.
    let git = Git::capture(&workspace_root());
    let scale = plan.mode.scale();
    let datasets: Vec<(Dataset, Value)> = plan
        .datasets
        .iter()
        .map(|&d| Ok((d, d.load(scale)?)))
        .collect::<Result<_, BenchError>>()?;
    let baseline = options
        .baseline
        .as_deref()
        .map(Baseline::load)
        .transpose()?;

    let progress = if options.progress {
        // One step per timed run of one cell (format x dataset x operation).
        let bar = ProgressBar::new((plan.cells() * plan.iterations) as u64);
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
    let mut measurements = Vec::with_capacity(plan.cells());
    for (dataset, value) in &datasets {
        measurements.extend(measure_dataset(plan, *dataset, value, &progress)?);
    }
    progress.finish_and_clear();
    drop(datasets);

    let comparison = match &baseline {
        Some(baseline) => {
            let identity = RunIdentity {
                mode: plan.mode.name().to_owned(),
                dataset_version: DATASET_VERSION.to_owned(),
                surp_format_version: Some(SURP_FORMAT_VERSION),
            };
            let mut comparison = compare(
                &measurements,
                &identity,
                &baseline.measurements,
                &baseline.identity,
            );
            comparison.baseline = Some(baseline.dir.display().to_string());
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
            notes: vec!["no baseline run was found or given; nothing was compared".to_owned()],
            ..Comparison::default()
        },
    };
    let meta = Meta::new(plan, git, comparison);
    write_outputs(&options.output, plan, &measurements, &meta)?;
    Ok(Report {
        plan: plan.clone(),
        output: options.output.clone(),
        measurements,
        meta,
    })
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
    for chart in Chart::ALL {
        let svg = chart.render(measurements, plan.iterations)?;
        write(charts.join(chart.file_name()), &svg)?;
    }
    Ok(())
}
