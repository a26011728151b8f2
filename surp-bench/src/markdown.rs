//! `summary.md`: the run's numbers as Markdown tables for the docs site,
//! built from the same measurements as `summary.csv`.

use crate::stats::p95_label;
use crate::units::{TIME_UNITS, duration, human, thousands};
use crate::{BenchDataset, Format, Measurement, Operation, Plan, Suite};

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
    if plan.suite == Suite::Messages {
        out.push_str(&format!(
            "\nOne run is one whole stream of {} messages. The tables give sizes and times per \
             message (the stream's over its messages), framing included; Every cell also has \
             the whole stream's. `meta.json` says how each workload's stream was cut, and how \
             often a stream sends each record.\n",
            thousands(plan.mode.messages_per_stream() as u64)
        ));
    }
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

    // One number per format and dataset, the best of each dataset in bold.
    // A row per dataset; but when there are more formats than datasets (the
    // typed suite), a row per format, so that the table stays narrow enough
    // for a page (the docs check holds every table to a 1280-pixel window).
    let by_format = formats.len() > plan.datasets.len();
    let label = |f: &Format| {
        let mark = if f.needs_schema_in(plan.suite) {
            " (schema)"
        } else {
            ""
        };
        format!("{}{mark}", f.label)
    };
    let grid = |out: &mut String, cell: &CellText| {
        let dataset_labels: Vec<String> = plan.datasets.iter().map(|d| format!("`{d}`")).collect();
        let format_labels: Vec<String> = formats.iter().map(|f| label(f)).collect();
        let (first, rows, columns) = if by_format {
            ("format", &format_labels, &dataset_labels)
        } else {
            ("dataset", &dataset_labels, &format_labels)
        };
        out.push_str(&format!("\n| {first} |"));
        for c in columns {
            out.push_str(&format!(" {c} |"));
        }
        out.push_str("\n| --- |");
        for _ in columns {
            out.push_str(" --: |");
        }
        out.push('\n');
        // cells[dataset][format], and the best of each dataset.
        let cells: Vec<Vec<Option<(u64, String)>>> = plan
            .datasets
            .iter()
            .map(|&d| formats.iter().map(|f| cell(f, d)).collect())
            .collect();
        let best: Vec<Option<u64>> = cells
            .iter()
            .map(|row| row.iter().flatten().map(|(key, _)| *key).min())
            .collect();
        for (r, row) in rows.iter().enumerate() {
            out.push_str(&format!("| {row} |"));
            for c in 0..columns.len() {
                let (d, f) = if by_format { (c, r) } else { (r, c) };
                match &cells[d][f] {
                    Some((key, text)) if Some(*key) == best[d] => {
                        out.push_str(&format!(" **{text}** |"));
                    }
                    Some((_, text)) => out.push_str(&format!(" {text} |")),
                    None => out.push_str(" - |"),
                }
            }
            out.push('\n');
        }
    };

    let messages = plan.suite == Suite::Messages;
    if messages {
        out.push_str("\n## Bytes per message (mean, framing included; smallest in bold)\n");
        grid(&mut out, &|f, d| {
            find(f, d, Operation::Encode).map(|m| (m.size_bytes, per_message_bytes(m)))
        });
    } else {
        out.push_str("\n## Serialized size (bytes, smallest in bold)\n");
        grid(&mut out, &|f, d| {
            find(f, d, Operation::Encode).map(|m| (m.size_bytes, thousands(m.size_bytes)))
        });
    }

    // Runs made before sizes were compressed have no zstd column.
    if measurements.iter().any(|m| m.zstd_bytes.is_some()) {
        out.push_str(&format!(
            "\n## Size after zstd level {} (bytes, smallest in bold)\n",
            crate::ZSTD_LEVEL
        ));
        grid(&mut out, &|f, d| {
            find(f, d, Operation::Encode)
                .and_then(|m| m.zstd_bytes)
                .map(|z| (z, thousands(z)))
        });
    }

    for &op in plan.suite.operations() {
        if messages {
            out.push_str(&format!(
                "\n## {} (median time per message, fastest in bold)\n",
                op.title()
            ));
            grid(&mut out, &|f, d| {
                find(f, d, op).map(|m| (m.stats.median_ns, per_message_time(m)))
            });
        } else {
            out.push_str(&format!(
                "\n## {} (median time, fastest in bold; MB/s under Every cell)\n",
                op.title()
            ));
            grid(&mut out, &|f, d| {
                find(f, d, op).map(|m| (m.stats.median_ns, duration(m.stats.median_ns)))
            });
        }
    }

    push_own_ratios(&mut out, plan, measurements);
    push_compressed(&mut out, plan, measurements);
    if messages {
        push_every_stream(&mut out, plan, measurements);
        return out;
    }

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

/// A stream's mean bytes per message, to one decimal.
fn per_message_bytes(m: &Measurement) -> String {
    format!("{:.1}", m.bytes_per_message())
}

/// A stream's median time per message, in its best unit.
fn per_message_time(m: &Measurement) -> String {
    human(&TIME_UNITS, m.median_ns_per_message())
}

/// Every cell of the messages suite: per message, then the whole stream.
fn push_every_stream(out: &mut String, plan: &Plan, measurements: &[Measurement]) {
    let spread = p95_label(plan.iterations);
    out.push_str(&format!(
        "\n## Every cell\n\nThe median time and mean size per message, then the whole \
         stream's median, {spread} and minimum time, CV and size.\n\n\
         | format | workload | op | time/msg | bytes/msg | median | {spread} | min | CV % | \
         bytes |\n\
         | --- | --- | --- | --: | --: | --: | --: | --: | --: | --: |\n"
    ));
    for m in measurements {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {} |\n",
            m.format.label,
            m.dataset,
            m.operation,
            per_message_time(m),
            per_message_bytes(m),
            duration(m.stats.median_ns),
            duration(m.stats.p95_ns),
            duration(m.stats.min_ns),
            m.stats.cv_pct,
            thousands(m.size_bytes),
        ));
    }
}

/// A cell of a format-by-dataset table: the number that decides the bold
/// (smaller is better) and its text.
type CellText<'a> = dyn Fn(&Format, BenchDataset) -> Option<(u64, String)> + 'a;

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
    let peers: Vec<&Format> = formats.iter().copied().filter(|f| f.is_peer()).collect();
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
    let noun = if plan.suite == Suite::Messages {
        "workload"
    } else {
        "dataset"
    };
    out.push_str(&format!(
        "\n## Surp against the field\n\nSize over {reference}'s; median encode and decode \
         time over the fastest peer format's (named). Below 1 is better.\n\n\
         | format | {noun} | size / {reference} | encode / best peer | decode / best peer |\n\
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Mode, Stats, Suite};
    use surp_datasets::typed::TypedDataset;

    /// Encode cells of `formats` on `datasets`: format `i` takes `1000 + i`
    /// bytes on every dataset, except that the last format takes 1 byte on
    /// the first dataset.
    fn measurements(formats: &[&'static Format], datasets: &[BenchDataset]) -> Vec<Measurement> {
        let mut out = Vec::new();
        for (i, &format) in formats.iter().enumerate() {
            for (j, &dataset) in datasets.iter().enumerate() {
                let size = if j == 0 && i + 1 == formats.len() {
                    1
                } else {
                    1000 + i as u64
                };
                out.push(Measurement {
                    format,
                    dataset,
                    operation: Operation::Encode,
                    stats: Stats::from_samples(&[5, 6, 7]).unwrap(),
                    size_bytes: size,
                    zstd_bytes: None,
                    messages: None,
                });
            }
        }
        out
    }

    /// The lines of the table under `heading`.
    fn table<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
        let after = &text[text.find(heading).expect("the heading")..];
        after
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .collect()
    }

    #[test]
    fn a_table_has_a_row_per_dataset_or_per_format_whichever_are_fewer_columns() {
        let typed = [TypedDataset::Log, TypedDataset::Mesh].map(BenchDataset::Typed);
        let names = ["surp", "surp_dedup", "msgpack_compact"];
        let formats: Vec<&'static Format> = names
            .iter()
            .map(|n| Format::from_name(n).unwrap())
            .collect();

        // Three formats, two datasets: a row per format, a column per dataset.
        let plan = Plan::new(
            Mode::Ci,
            Suite::Typed,
            formats.clone(),
            typed.to_vec(),
            None,
        )
        .unwrap();
        let text = markdown_tables(&plan, &measurements(&formats, &typed));
        let rows = table(&text, "## Serialized size");
        assert_eq!(rows[0], "| format | `log` | `mesh` |");
        assert_eq!(rows.len(), 2 + formats.len());
        assert_eq!(rows[2], "| Surp | 1,000 | **1,000** |");
        assert_eq!(rows[4], "| MessagePack compact (schema) | **1** | 1,002 |");

        // Two formats, two datasets: a row per dataset, as before.
        let two = &formats[..2];
        let plan = Plan::new(Mode::Ci, Suite::Typed, two.to_vec(), typed.to_vec(), None).unwrap();
        let text = markdown_tables(&plan, &measurements(two, &typed));
        let rows = table(&text, "## Serialized size");
        assert_eq!(rows[0], "| dataset | Surp | Surp+Dedup |");
        assert_eq!(rows[2], "| `log` | 1,000 | **1** |");
        assert_eq!(rows[3], "| `mesh` | **1,000** | 1,001 |");
    }
}
