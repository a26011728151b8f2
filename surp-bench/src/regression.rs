//! The regression check: this run against a baseline run (normally the
//! previous version's published numbers).
//!
//! - **Sizes** are deterministic, so every change in any format's size on
//!   any dataset is reported with its delta. For the project's own formats
//!   (those [pinned by the format version](crate::Format::pinned_by_format_version))
//!   a change is a regression unless the Surp format version changed too.
//! - **Times** are not comparable across machines or days, so each cell's
//!   median is divided by [`REFERENCE_FORMAT`]'s median for the same dataset
//!   and operation in the same run, and that ratio is compared with the same
//!   ratio in the baseline. A ratio that grew by more than
//!   [`TIME_THRESHOLD_PCT`] is a regression, unless one of the four cells
//!   involved has a CV above [`NOISY_CV_PCT`]: then it is reported as noisy
//!   instead. The reference format itself cannot be checked this way.
//! - Runs of different modes or dataset versions measure different data and
//!   are not compared at all (a note says so).

use std::fmt;

use serde::Serialize;

use crate::{Format, Measurement, Operation};

/// The format whose median every other median is divided by before times
/// are compared across runs.
pub const REFERENCE_FORMAT: &str = "json";

/// How much a cell's time ratio to [`REFERENCE_FORMAT`] may grow, in
/// percent, before it is flagged.
pub const TIME_THRESHOLD_PCT: f64 = 25.0;

/// A coefficient of variation above this, in percent, in any cell behind a
/// ratio makes a flagged change "noisy" rather than a regression.
pub const NOISY_CV_PCT: f64 = 10.0;

/// What must match between two runs for their numbers to be comparable, and
/// the format version that decides whether a Surp size change is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunIdentity {
    /// The mode's name ("ci" or "full").
    pub mode: String,
    /// The datasets' version.
    pub dataset_version: String,
    /// The Surp format version, if known.
    pub surp_format_version: Option<u64>,
}

/// A format's size on a dataset differs from the baseline's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeChange {
    /// The format.
    pub format: &'static str,
    /// The dataset.
    pub dataset: &'static str,
    /// The size in the baseline, in bytes.
    pub baseline_bytes: u64,
    /// The size in this run, in bytes.
    pub current_bytes: u64,
    /// This run's size minus the baseline's.
    pub delta_bytes: i64,
    /// The delta as a percentage of the baseline size.
    pub delta_pct: f64,
    /// Whether the change counts as a regression.
    pub regression: bool,
}

/// Something that got worse.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Regression {
    /// A project format's size changed without a format version change.
    Size {
        /// The format.
        format: &'static str,
        /// The dataset.
        dataset: &'static str,
        /// The size in the baseline, in bytes.
        baseline_bytes: u64,
        /// The size in this run, in bytes.
        current_bytes: u64,
        /// This run's size minus the baseline's.
        delta_bytes: i64,
    },
    /// A cell got slower relative to the reference format.
    Time {
        /// The format.
        format: &'static str,
        /// The dataset.
        dataset: &'static str,
        /// The operation.
        op: &'static str,
        /// Median over the reference's median, in the baseline.
        baseline_ratio: f64,
        /// Median over the reference's median, in this run.
        current_ratio: f64,
        /// How much the ratio grew, in percent.
        change_pct: f64,
    },
}

impl fmt::Display for Regression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Regression::Size {
                format,
                dataset,
                baseline_bytes,
                current_bytes,
                delta_bytes,
            } => write!(
                f,
                "{format} on {dataset}: size changed from {baseline_bytes} to {current_bytes} \
                 bytes ({delta_bytes:+}) without a new Surp format version"
            ),
            Regression::Time {
                format,
                dataset,
                op,
                baseline_ratio,
                current_ratio,
                change_pct,
            } => write!(
                f,
                "{format} {op} on {dataset}: time relative to {REFERENCE_FORMAT} rose from \
                 {baseline_ratio:.3} to {current_ratio:.3} ({change_pct:+.1}%, threshold \
                 {TIME_THRESHOLD_PCT}%)"
            ),
        }
    }
}

/// A cell whose ratio moved past the threshold while its timings were too
/// noisy to call it a regression.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NoisyCell {
    /// The format.
    pub format: &'static str,
    /// The dataset.
    pub dataset: &'static str,
    /// The operation.
    pub op: &'static str,
    /// Median over the reference's median, in the baseline.
    pub baseline_ratio: f64,
    /// Median over the reference's median, in this run.
    pub current_ratio: f64,
    /// How much the ratio grew, in percent.
    pub change_pct: f64,
    /// The highest CV of the four cells behind the two ratios, in percent.
    pub cv_pct: f64,
}

impl fmt::Display for NoisyCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} on {}: ratio to {REFERENCE_FORMAT} {:.3} -> {:.3} ({:+.1}%) but CV up to \
             {:.1}%, above {NOISY_CV_PCT}%: noisy, not counted",
            self.format,
            self.op,
            self.dataset,
            self.baseline_ratio,
            self.current_ratio,
            self.change_pct,
            self.cv_pct
        )
    }
}

impl fmt::Display for SizeChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} on {}: {} -> {} bytes ({:+}, {:+.2}%){}",
            self.format,
            self.dataset,
            self.baseline_bytes,
            self.current_bytes,
            self.delta_bytes,
            self.delta_pct,
            if self.regression {
                ", a regression"
            } else {
                ""
            }
        )
    }
}

/// Everything the check found; empty lists when nothing changed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Comparison {
    /// The baseline folder compared against, if any.
    pub baseline: Option<String>,
    /// Whether anything was compared: false when there was no baseline or
    /// it measured other data (another mode or dataset version).
    pub compared: bool,
    /// The regressions: what `--check` fails on.
    pub regressions: Vec<Regression>,
    /// Every size change, regression or not.
    pub size_changes: Vec<SizeChange>,
    /// Time changes past the threshold in noisy cells.
    pub noisy: Vec<NoisyCell>,
    /// Why parts of the check were skipped.
    pub notes: Vec<String>,
}

/// Compares this run's measurements with a baseline's.
pub fn compare(
    current: &[Measurement],
    current_identity: &RunIdentity,
    baseline: &[Measurement],
    baseline_identity: &RunIdentity,
) -> Comparison {
    let mut out = Comparison::default();
    if baseline_identity.mode != current_identity.mode {
        out.notes.push(format!(
            "the baseline is a {}-mode run and this is a {}-mode run; they measure datasets of \
             different scales, so nothing was compared",
            baseline_identity.mode, current_identity.mode
        ));
        return out;
    }
    if baseline_identity.dataset_version != current_identity.dataset_version {
        out.notes.push(format!(
            "the baseline measured dataset version {} and this run {}; the data differs, so \
             nothing was compared",
            baseline_identity.dataset_version, current_identity.dataset_version
        ));
        return out;
    }
    out.compared = true;
    compare_sizes(
        current,
        baseline,
        current_identity.surp_format_version,
        baseline_identity.surp_format_version,
        &mut out,
    );
    compare_times(current, baseline, &mut out);
    out
}

fn find<'a>(
    rows: &'a [Measurement],
    format: &str,
    dataset: crate::BenchDataset,
    op: Operation,
) -> Option<&'a Measurement> {
    rows.iter()
        .find(|m| m.format.name == format && m.dataset == dataset && m.operation == op)
}

fn compare_sizes(
    current: &[Measurement],
    baseline: &[Measurement],
    current_version: Option<u64>,
    baseline_version: Option<u64>,
    out: &mut Comparison,
) {
    let version_changed = match (current_version, baseline_version) {
        (Some(c), Some(b)) => c != b,
        _ => {
            out.notes.push(
                "the Surp format version of one run is unknown; Surp size changes count as \
                 regressions"
                    .to_owned(),
            );
            false
        }
    };
    // Every operation row carries the size; the encode row stands for all.
    for m in current.iter().filter(|m| m.operation == Operation::Encode) {
        let Some(before) = baseline
            .iter()
            .find(|b| b.format == m.format && b.dataset == m.dataset)
        else {
            continue;
        };
        if before.size_bytes == m.size_bytes {
            continue;
        }
        let delta_bytes = m.size_bytes as i64 - before.size_bytes as i64;
        let regression = m.format.pinned_by_format_version && !version_changed;
        out.size_changes.push(SizeChange {
            format: m.format.name,
            dataset: m.dataset.name(),
            baseline_bytes: before.size_bytes,
            current_bytes: m.size_bytes,
            delta_bytes,
            delta_pct: delta_bytes as f64 / before.size_bytes.max(1) as f64 * 100.0,
            regression,
        });
        if regression {
            out.regressions.push(Regression::Size {
                format: m.format.name,
                dataset: m.dataset.name(),
                baseline_bytes: before.size_bytes,
                current_bytes: m.size_bytes,
                delta_bytes,
            });
        }
    }
}

fn compare_times(current: &[Measurement], baseline: &[Measurement], out: &mut Comparison) {
    let has_reference =
        |rows: &[Measurement]| rows.iter().any(|m| m.format.name == REFERENCE_FORMAT);
    if !has_reference(current) || !has_reference(baseline) {
        out.notes.push(format!(
            "times were not compared: both runs need the reference format `{REFERENCE_FORMAT}`"
        ));
        return;
    }
    let is_reference = |f: &Format| f.name == REFERENCE_FORMAT;
    for m in current.iter().filter(|m| !is_reference(m.format)) {
        let cells = (
            find(current, REFERENCE_FORMAT, m.dataset, m.operation),
            find(baseline, m.format.name, m.dataset, m.operation),
            find(baseline, REFERENCE_FORMAT, m.dataset, m.operation),
        );
        let (Some(cur_ref), Some(base), Some(base_ref)) = cells else {
            continue;
        };
        if [cur_ref, base, base_ref, m]
            .iter()
            .any(|c| c.stats.median_ns == 0)
        {
            continue;
        }
        let ratio =
            |a: &Measurement, b: &Measurement| a.stats.median_ns as f64 / b.stats.median_ns as f64;
        let current_ratio = ratio(m, cur_ref);
        let baseline_ratio = ratio(base, base_ref);
        let change_pct = (current_ratio / baseline_ratio - 1.0) * 100.0;
        if change_pct <= TIME_THRESHOLD_PCT {
            continue;
        }
        let cv_pct = [m, cur_ref, base, base_ref]
            .iter()
            .map(|c| c.stats.cv_pct)
            .fold(0.0, f64::max);
        if cv_pct > NOISY_CV_PCT {
            out.noisy.push(NoisyCell {
                format: m.format.name,
                dataset: m.dataset.name(),
                op: m.operation.name(),
                baseline_ratio,
                current_ratio,
                change_pct,
                cv_pct,
            });
        } else {
            out.regressions.push(Regression::Time {
                format: m.format.name,
                dataset: m.dataset.name(),
                op: m.operation.name(),
                baseline_ratio,
                current_ratio,
                change_pct,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stats;
    use surp_datasets::Dataset;

    fn identity(mode: &str, surp: u64) -> RunIdentity {
        RunIdentity {
            mode: mode.to_owned(),
            dataset_version: "1.0.0".to_owned(),
            surp_format_version: Some(surp),
        }
    }

    fn cell(
        format: &'static Format,
        op: Operation,
        median_ns: u64,
        cv_pct: f64,
        size: u64,
    ) -> Measurement {
        Measurement {
            format,
            dataset: Dataset::Canada.into(),
            operation: op,
            stats: Stats {
                samples: 10,
                median_ns,
                p95_ns: median_ns,
                min_ns: median_ns,
                cv_pct,
            },
            size_bytes: size,
            zstd_bytes: None,
            messages: None,
        }
    }

    fn format(name: &str) -> &'static Format {
        Format::from_name(name).unwrap()
    }

    /// A pinned stand-in for Surp, so the tests do not depend on which
    /// formats the table holds today.
    static PINNED: Format = Format {
        name: "pinned",
        label: "Pinned",
        implementation: "none",
        colour: (0, 0, 0),
        bytes_as_base64: false,
        pinned_by_format_version: true,
        needs_schema: false,
        runs: crate::format::Runs::Codec {
            codec: &crate::codec::Surp,
            value_suite: false,
            counted: false,
        },
        messages: None,
    };

    #[test]
    fn identical_runs_have_no_findings() {
        let rows = vec![
            cell(format("json"), Operation::Encode, 100, 1.0, 50),
            cell(format("cbor"), Operation::Encode, 80, 1.0, 40),
        ];
        let c = compare(&rows, &identity("full", 1), &rows, &identity("full", 1));
        assert_eq!(
            c,
            Comparison {
                compared: true,
                ..Comparison::default()
            }
        );
    }

    #[test]
    fn a_peer_size_change_is_reported_but_not_a_regression() {
        let before = vec![cell(format("cbor"), Operation::Encode, 80, 1.0, 40)];
        let after = vec![cell(format("cbor"), Operation::Encode, 80, 1.0, 44)];
        let c = compare(&after, &identity("full", 1), &before, &identity("full", 1));
        assert!(c.regressions.is_empty());
        assert_eq!(c.size_changes.len(), 1);
        assert_eq!(c.size_changes[0].delta_bytes, 4);
        assert_eq!(c.size_changes[0].delta_pct, 10.0);
        assert!(!c.size_changes[0].regression);
    }

    #[test]
    fn a_pinned_size_change_is_a_regression_unless_the_format_version_changed() {
        let before = vec![cell(&PINNED, Operation::Encode, 80, 1.0, 40)];
        let smaller = vec![cell(&PINNED, Operation::Encode, 80, 1.0, 39)];
        let same_version = compare(
            &smaller,
            &identity("full", 1),
            &before,
            &identity("full", 1),
        );
        assert_eq!(
            same_version.regressions,
            vec![Regression::Size {
                format: "pinned",
                dataset: "canada",
                baseline_bytes: 40,
                current_bytes: 39,
                delta_bytes: -1,
            }]
        );
        let new_version = compare(
            &smaller,
            &identity("full", 2),
            &before,
            &identity("full", 1),
        );
        assert!(new_version.regressions.is_empty());
        assert_eq!(new_version.size_changes.len(), 1);
    }

    #[test]
    fn a_slower_ratio_past_the_threshold_is_a_regression() {
        // The machine got twice as slow (json too) and cbor got 1.5x slower
        // on top: only the 50% ratio change counts.
        let before = vec![
            cell(format("json"), Operation::Decode, 100, 2.0, 50),
            cell(format("cbor"), Operation::Decode, 80, 2.0, 40),
            cell(format("msgpack"), Operation::Decode, 60, 2.0, 40),
        ];
        let after = vec![
            cell(format("json"), Operation::Decode, 200, 2.0, 50),
            cell(format("cbor"), Operation::Decode, 240, 2.0, 40),
            cell(format("msgpack"), Operation::Decode, 140, 2.0, 40),
        ];
        let c = compare(&after, &identity("full", 1), &before, &identity("full", 1));
        assert_eq!(c.regressions.len(), 1, "{:?}", c.regressions);
        let Regression::Time {
            format, change_pct, ..
        } = &c.regressions[0]
        else {
            panic!("expected a time regression");
        };
        assert_eq!(*format, "cbor");
        assert!((change_pct - 50.0).abs() < 1e-9);
        // msgpack: 0.6 -> 0.7 is +16.7%, under the threshold.
        assert!(c.noisy.is_empty());
    }

    #[test]
    fn a_noisy_cell_is_reported_as_noisy_not_regressed() {
        let before = vec![
            cell(format("json"), Operation::Encode, 100, 2.0, 50),
            cell(format("cbor"), Operation::Encode, 80, 2.0, 40),
        ];
        let after = vec![
            cell(format("json"), Operation::Encode, 100, 2.0, 50),
            cell(
                format("cbor"),
                Operation::Encode,
                200,
                NOISY_CV_PCT + 5.0,
                40,
            ),
        ];
        let c = compare(&after, &identity("full", 1), &before, &identity("full", 1));
        assert!(c.regressions.is_empty());
        assert_eq!(c.noisy.len(), 1);
        assert_eq!(c.noisy[0].cv_pct, NOISY_CV_PCT + 5.0);
    }

    #[test]
    fn runs_of_different_modes_are_not_compared() {
        let before = vec![cell(&PINNED, Operation::Encode, 80, 1.0, 4000)];
        let after = vec![cell(&PINNED, Operation::Encode, 80, 1.0, 40)];
        let c = compare(&after, &identity("ci", 1), &before, &identity("full", 1));
        assert!(c.regressions.is_empty() && c.size_changes.is_empty());
        assert!(c.notes[0].contains("full-mode"), "{:?}", c.notes);
    }

    #[test]
    fn without_the_reference_format_times_are_skipped_with_a_note() {
        let rows = vec![cell(format("cbor"), Operation::Encode, 80, 1.0, 40)];
        let slower = vec![cell(format("cbor"), Operation::Encode, 800, 1.0, 40)];
        let c = compare(&slower, &identity("full", 1), &rows, &identity("full", 1));
        assert!(c.regressions.is_empty());
        assert!(c.notes[0].contains("reference format"), "{:?}", c.notes);
    }
}
