//! `summary.md`: the run's numbers as Markdown tables for the docs site,
//! built from the same measurements as `summary.csv`.

use surp_datasets::Dataset;

use crate::stats::p95_label;
use crate::units::{duration, thousands};
use crate::{Format, Measurement, Operation, Plan};

/// The Markdown summary: a size table, a median-time table per operation
/// (best per dataset in bold), and every cell in full.
pub fn to_markdown(plan: &Plan, measurements: &[Measurement]) -> String {
    let find = |f: &Format, d: Dataset, op: Operation| {
        measurements
            .iter()
            .find(|m| m.format == f && m.dataset == d && m.operation == op)
    };
    let mut out = format!(
        "# Benchmark results: surp-bench {}, {} mode\n\n\
         {}, formats interleaved round-robin. \
         Times are medians; MB/s is serialized bytes over the median time. Sizes are exact \
         and reproducible. `meta.json` beside this file records the machine, toolchain, \
         datasets and commit.\n",
        env!("CARGO_PKG_VERSION"),
        plan.mode,
        plan.describe_iterations()
    );

    let header = |out: &mut String| {
        out.push_str("\n| dataset |");
        for f in &plan.formats {
            out.push_str(&format!(" {} |", f.label));
        }
        out.push_str("\n| --- |");
        for _ in &plan.formats {
            out.push_str(" --: |");
        }
        out.push('\n');
    };

    out.push_str("\n## Serialized size (bytes, smallest in bold)\n");
    header(&mut out);
    for &d in &plan.datasets {
        let cells: Vec<Option<(u64, String)>> = plan
            .formats
            .iter()
            .map(|f| find(f, d, Operation::Encode).map(|m| (m.size_bytes, thousands(m.size_bytes))))
            .collect();
        push_row(&mut out, d, &cells);
    }

    for op in Operation::ALL {
        out.push_str(&format!(
            "\n## {} (median time and MB/s, fastest in bold)\n",
            op.title()
        ));
        header(&mut out);
        for &d in &plan.datasets {
            let cells: Vec<Option<(u64, String)>> = plan
                .formats
                .iter()
                .map(|f| {
                    find(f, d, op).map(|m| {
                        let text =
                            format!("{} ({:.0} MB/s)", duration(m.stats.median_ns), m.mb_per_s());
                        (m.stats.median_ns, text)
                    })
                })
                .collect();
            push_row(&mut out, d, &cells);
        }
    }

    let spread = p95_label(plan.iterations);
    out.push_str(&format!(
        "\n## Every cell\n\n| format | dataset | op | median | {spread} | min | CV % | MB/s | size (bytes) |\n\
         | --- | --- | --- | --: | --: | --: | --: | --: | --: |\n"
    ));
    for m in measurements {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {} |\n",
            m.format.label,
            m.dataset,
            m.operation,
            duration(m.stats.median_ns),
            duration(m.stats.p95_ns),
            duration(m.stats.min_ns),
            m.stats.cv_pct,
            m.mb_per_s(),
            thousands(m.size_bytes)
        ));
    }
    out
}

/// One table row: the dataset, then each cell's text, the cell with the
/// smallest key in bold; a missing cell is a dash.
fn push_row(out: &mut String, dataset: Dataset, cells: &[Option<(u64, String)>]) {
    let best = cells.iter().flatten().map(|(key, _)| *key).min();
    out.push_str(&format!("| `{dataset}` |"));
    for cell in cells {
        match cell {
            Some((key, text)) if Some(*key) == best => out.push_str(&format!(" **{text}** |")),
            Some((_, text)) => out.push_str(&format!(" {text} |")),
            None => out.push_str(" - |"),
        }
    }
    out.push('\n');
}
