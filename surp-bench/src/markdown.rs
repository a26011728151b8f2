//! `summary.md`: the run's numbers as Markdown tables for the docs site,
//! built from the same measurements as `summary.csv`.

use crate::stats::p95_label;
use crate::units::{duration, thousands};
use crate::{BenchDataset, Format, Measurement, Operation, Plan};

/// The Markdown summary: a title and a paragraph on the run, then
/// [`markdown_tables`].
pub fn to_markdown(plan: &Plan, measurements: &[Measurement]) -> String {
    let mut out = format!(
        "# Benchmark results: surp-bench {}, {} suite, {} mode\n\n\
         {}, formats interleaved round-robin (the first one rotating per iteration). \
         Times are medians; MB/s is serialized bytes over the median time. Sizes are exact \
         and reproducible. `meta.json` beside this file records the machine, toolchain, \
         datasets and commit.\n",
        env!("CARGO_PKG_VERSION"),
        plan.suite,
        plan.mode,
        plan.describe_iterations()
    );
    out.push_str(&markdown_tables(plan, measurements));
    out
}

/// The tables of `summary.md`, each under a `##` heading: a size table, a
/// median-time table per operation (best per dataset in bold), Surp's
/// ratios to the field, and every cell in full. The docs site's benchmark
/// pages show these same tables, rebuilt from a committed `summary.csv`.
pub fn markdown_tables(plan: &Plan, measurements: &[Measurement]) -> String {
    let find = |f: &Format, d: BenchDataset, op: Operation| {
        measurements
            .iter()
            .find(|m| m.format == f && m.dataset == d && m.operation == op)
    };
    let mut out = String::new();
    // The compressed pipelines have a table of their own, after these.
    let formats = plan.compared_formats();

    let header = |out: &mut String| {
        out.push_str("\n| dataset |");
        for f in &formats {
            let mark = if f.needs_schema_in(plan.suite) {
                " (schema)"
            } else {
                ""
            };
            out.push_str(&format!(" {}{mark} |", f.label));
        }
        out.push_str("\n| --- |");
        for _ in &formats {
            out.push_str(" --: |");
        }
        out.push('\n');
    };

    out.push_str("\n## Serialized size (bytes, smallest in bold)\n");
    header(&mut out);
    for &d in &plan.datasets {
        let cells: Vec<Option<(u64, String)>> = formats
            .iter()
            .map(|f| find(f, d, Operation::Encode).map(|m| (m.size_bytes, thousands(m.size_bytes))))
            .collect();
        push_row(&mut out, d, &cells);
    }

    // Runs made before sizes were compressed have no zstd column.
    if measurements.iter().any(|m| m.zstd_bytes.is_some()) {
        out.push_str(&format!(
            "\n## Size after zstd level {} (bytes, smallest in bold)\n",
            crate::ZSTD_LEVEL
        ));
        header(&mut out);
        for &d in &plan.datasets {
            let cells: Vec<Option<(u64, String)>> = formats
                .iter()
                .map(|f| {
                    find(f, d, Operation::Encode)
                        .and_then(|m| m.zstd_bytes)
                        .map(|z| (z, thousands(z)))
                })
                .collect();
            push_row(&mut out, d, &cells);
        }
    }

    for &op in plan.suite.operations() {
        out.push_str(&format!(
            "\n## {} (median time, fastest in bold; MB/s under Every cell)\n",
            op.title()
        ));
        header(&mut out);
        for &d in &plan.datasets {
            let cells: Vec<Option<(u64, String)>> = formats
                .iter()
                .map(|f| find(f, d, op).map(|m| (m.stats.median_ns, duration(m.stats.median_ns))))
                .collect();
            push_row(&mut out, d, &cells);
        }
    }

    push_own_ratios(&mut out, plan, measurements);
    push_compressed(&mut out, plan, measurements);

    let spread = p95_label(plan.iterations);
    out.push_str(&format!(
        "\n## Every cell\n\n| format | dataset | op | median | {spread} | min | CV % | MB/s | size (bytes) | zstd (bytes) |\n\
         | --- | --- | --- | --: | --: | --: | --: | --: | --: | --: |\n"
    ));
    for m in measurements {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {} | {} |\n",
            m.format.label,
            m.dataset,
            m.operation,
            duration(m.stats.median_ns),
            duration(m.stats.p95_ns),
            duration(m.stats.min_ns),
            m.stats.cv_pct,
            m.mb_per_s(),
            thousands(m.size_bytes),
            m.zstd_bytes.map_or_else(|| "-".to_owned(), thousands)
        ));
    }
    out
}

/// The format every project format's size is divided by.
const SIZE_REFERENCE: &str = "msgpack";

/// Per project format and dataset: its size over MessagePack's, and its
/// median encode and decode times over the fastest peer format's (a ratio
/// below 1 means the project format wins).
fn push_own_ratios(out: &mut String, plan: &Plan, measurements: &[Measurement]) {
    let formats = plan.compared_formats();
    let own: Vec<&Format> = formats
        .iter()
        .copied()
        .filter(|f| f.pinned_by_format_version)
        .collect();
    let peers: Vec<&Format> = formats
        .iter()
        .copied()
        .filter(|f| !f.pinned_by_format_version)
        .collect();
    if own.is_empty() || peers.is_empty() {
        return;
    }
    // (median ns, size bytes) of one cell.
    let cell = |f: &Format, d: BenchDataset, op: Operation| {
        measurements
            .iter()
            .find(|m| m.format == f && m.dataset == d && m.operation == op)
            .map(|m| (m.stats.median_ns, m.size_bytes))
    };
    let reference = Format::from_name(SIZE_REFERENCE).map_or(SIZE_REFERENCE, |f| f.label);
    out.push_str(&format!(
        "\n## Surp against the field\n\nSize over {reference}'s; median encode and decode \
         time over the fastest peer format's (named). Below 1 is better.\n\n\
         | format | dataset | size / {reference} | encode / best peer | decode / best peer |\n\
         | --- | --- | --: | --: | --: |\n"
    ));
    let ratio = |f: &Format, d: BenchDataset, op: Operation| -> String {
        let best = peers
            .iter()
            .filter_map(|p| cell(p, d, op).map(|(ns, _)| (ns, p.label)))
            .min();
        match (cell(f, d, op), best) {
            (Some((ns, _)), Some((best_ns, label))) if best_ns > 0 => {
                format!("{:.2} ({label})", ns as f64 / best_ns as f64)
            }
            _ => "-".to_owned(),
        }
    };
    for f in &own {
        for &d in &plan.datasets {
            let size = match (
                cell(f, d, Operation::Encode),
                Format::from_name(SIZE_REFERENCE).and_then(|r| cell(r, d, Operation::Encode)),
            ) {
                (Some((_, own_size)), Some((_, ref_size))) if ref_size > 0 => {
                    format!("{:.3}", own_size as f64 / ref_size as f64)
                }
                _ => "-".to_owned(),
            };
            out.push_str(&format!(
                "| {} | `{d}` | {size} | {} | {} |\n",
                f.label,
                ratio(f, d, Operation::Encode),
                ratio(f, d, Operation::Decode)
            ));
        }
    }
}

/// The heading of the compressed pipelines' table.
pub const COMPRESSED_HEADING: &str = "Compressed with zstd";

/// The compressed pipelines next to the formats they compress: per dataset,
/// each one's size and median time of every operation. Nothing when the run
/// has no pipeline.
fn push_compressed(out: &mut String, plan: &Plan, measurements: &[Measurement]) {
    let rows = plan.compressed_table_formats();
    if rows.is_empty() {
        return;
    }
    out.push_str(&format!(
        "\n## {COMPRESSED_HEADING}\n\nEach pipeline is a format followed by zstd level {}: \
         encode is the format's encode then compression, decode is decompression (into a \
         reused buffer) then the format's decode, which a borrowed decode borrows from. Size is \
         the compressed size; times are medians. The uncompressed formats are repeated for \
         comparison. The pipelines are in no chart and no table above.\n\n\
         | dataset | pipeline | size (bytes) |",
        crate::ZSTD_LEVEL
    ));
    let ops = plan.suite.operations();
    for op in ops {
        out.push_str(&format!(" {} |", op.title().to_lowercase()));
    }
    out.push_str("\n| --- | --- | --: |");
    for _ in ops {
        out.push_str(" --: |");
    }
    out.push('\n');
    for &d in &plan.datasets {
        for f in &rows {
            let cell = |op: Operation| {
                measurements
                    .iter()
                    .find(|m| m.format == *f && m.dataset == d && m.operation == op)
            };
            let Some(size) = cell(Operation::Encode).map(|m| m.size_bytes) else {
                continue;
            };
            out.push_str(&format!("| `{d}` | {} | {} |", f.label, thousands(size)));
            for &op in ops {
                let text = cell(op).map_or_else(|| "-".to_owned(), |m| duration(m.stats.median_ns));
                out.push_str(&format!(" {text} |"));
            }
            out.push('\n');
        }
    }
}

/// One table row: the dataset, then each cell's text, the cell with the
/// smallest key in bold; a missing cell is a dash.
fn push_row(out: &mut String, dataset: BenchDataset, cells: &[Option<(u64, String)>]) {
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
