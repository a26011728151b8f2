//! The results table printed on stdout at the end of a run, and the
//! regression check's findings under it.

use crate::units::{TIME_UNITS, duration, human, thousands};
use crate::{Comparison, Measurement, Operation, Plan, Suite};

/// One line per dataset and format: size, then each operation's median with
/// its CV; then the regression check. In the messages suite the size and
/// the times are per message.
pub fn to_table(plan: &Plan, measurements: &[Measurement], comparison: &Comparison) -> String {
    let messages = plan.suite == Suite::Messages;
    let mut out = format!(
        "surp-bench {} suite, {} mode: {}; times are medians (± CV){}\n\n",
        plan.suite,
        plan.mode,
        plan.describe_iterations(),
        if messages {
            format!(
                "; one run is a stream of {} messages, and sizes and times are per message",
                thousands(plan.mode.messages_per_stream() as u64)
            )
        } else {
            String::new()
        }
    );
    let name_width = plan
        .datasets
        .iter()
        .map(|d| d.name().len())
        .max()
        .unwrap_or(7)
        .max(7);
    let format_width = plan
        .formats
        .iter()
        .map(|f| f.name.len())
        .max()
        .unwrap_or(6)
        .max(6);
    out.push_str(&format!(
        "{:name_width$}  {:format_width$}  {:>12}",
        if messages { "workload" } else { "dataset" },
        "format",
        if messages {
            "bytes/msg"
        } else {
            "size (bytes)"
        }
    ));
    for op in plan.suite.operations() {
        out.push_str(&format!("  {:>18}", op.name()));
    }
    out.push('\n');
    for &dataset in &plan.datasets {
        for &format in &plan.formats {
            let cell = |op| {
                measurements
                    .iter()
                    .find(|m| m.format == format && m.dataset == dataset && m.operation == op)
            };
            let Some(encoded) = cell(Operation::Encode) else {
                continue;
            };
            let size = if messages {
                format!("{:.1}", encoded.bytes_per_message())
            } else {
                thousands(encoded.size_bytes)
            };
            out.push_str(&format!(
                "{:name_width$}  {:format_width$}  {size:>12}",
                dataset.name(),
                format.name,
            ));
            for &op in plan.suite.operations() {
                let text = cell(op).map_or_else(
                    || "-".to_owned(),
                    |m| {
                        let noisy = if m.stats.cv_pct > crate::NOISY_CV_PCT {
                            "~"
                        } else {
                            ""
                        };
                        let median = if messages {
                            human(&TIME_UNITS, m.median_ns_per_message())
                        } else {
                            duration(m.stats.median_ns)
                        };
                        format!("{noisy}{median} ±{:.0}%", m.stats.cv_pct)
                    },
                );
                out.push_str(&format!("  {text:>18}"));
            }
            out.push('\n');
        }
    }

    out.push('\n');
    match &comparison.baseline {
        Some(dir) if comparison.compared => out.push_str(&format!(
            "Regression check against {dir}: {} regression(s), {} noisy cell(s) not judged\n",
            comparison.regressions.len(),
            comparison.noisy.len()
        )),
        Some(dir) => out.push_str(&format!(
            "Regression check: skipped ({dir} is not comparable; see the note)\n"
        )),
        None => out.push_str("Regression check: skipped (no baseline)\n"),
    }
    if plan.mode == crate::Mode::Ci {
        out.push_str(
            "  note: a ci-mode run is a smoke test: small datasets, few iterations; cells \
             with a CV above 10% are marked noisy (~) and no time here is for comparison\n",
        );
    }
    for r in &comparison.regressions {
        out.push_str(&format!("  REGRESSION {r}\n"));
    }
    for c in &comparison.size_changes {
        out.push_str(&format!("  size change {c}\n"));
    }
    for n in &comparison.noisy {
        out.push_str(&format!("  noisy {n}\n"));
    }
    for note in &comparison.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    out
}
