//! The front of a benchmark page: a headline written from the run's
//! numbers, stat cards, dataset cards, and a one-line reading for each
//! chart. Every sentence is computed from `summary.csv` and `meta.json`;
//! nothing here is typed by hand for a particular run.

use surp_bench::{BenchDataset, Chart, Format, Measurement, Operation, Suite, thousands};

use crate::run::Run;

/// The formats a reader compares Surp with first: self-describing peers.
/// Compressed pipelines are never peers, nor anywhere in the front: they
/// are compared on the Deduplication page and in their own table.
fn self_describing_peers(run: &Run) -> Vec<&'static Format> {
    run.plan
        .compared_formats()
        .into_iter()
        .filter(|f| !f.needs_schema_in(run.suite()) && !f.pinned_by_format_version)
        .collect()
}

/// Names `formats` for a sentence: "JSON, MessagePack and CBOR". Two
/// implementations of one format ("CBOR" and "CBOR (cbor4ii)") are one
/// entry that names both crates, and a format that needs its own schema in
/// the typed suite but not in `suite` is named as the generic message it
/// writes there.
pub(crate) fn format_list(formats: &[&'static Format], suite: Suite) -> String {
    let family = |f: &Format| f.label.split(" (").next().unwrap_or(f.label);
    let mut families: Vec<(&str, Vec<&'static Format>)> = Vec::new();
    for &f in formats {
        match families.iter_mut().find(|(name, _)| *name == family(f)) {
            Some((_, members)) => members.push(f),
            None => families.push((family(f), vec![f])),
        }
    }
    let names: Vec<String> = families
        .into_iter()
        .map(|(name, members)| match members.as_slice() {
            [f] if f.needs_schema && !f.needs_schema_in(suite) => {
                format!("{}'s generic value message", f.label)
            }
            [f] => f.label.to_owned(),
            _ => {
                let crates: Vec<&str> = members.iter().map(|f| f.implementation).collect();
                format!("{name} ({})", and_list(&crates))
            }
        })
        .collect();
    and_list(&names)
}

/// "a", "a and b", "a, b and c".
pub(crate) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [only] => only.as_ref().to_owned(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", init.join(", "), last.as_ref())
        }
    }
}

/// The sentence on which formats need a schema to be read, from the format
/// table (the same that decides what the headline calls self-describing).
pub fn schema_sentence(run: &Run) -> String {
    let suite = run.suite();
    let bound = schema_bound(run);
    let (free, generic): (Vec<&'static Format>, Vec<&'static Format>) = run
        .plan
        .compared_formats()
        .into_iter()
        .filter(|f| !f.needs_schema_in(suite))
        .partition(|f| !f.needs_schema);
    if bound.is_empty() {
        let mut out = String::from(
            "no format here needs a schema of the dataset to decode it: each writes the \
             data's map keys and value types on the wire",
        );
        if !generic.is_empty() {
            out.push_str(&format!(
                ", {} through a generic value message that is the same for every dataset",
                and_list(&generic.iter().map(|f| f.label).collect::<Vec<_>>())
            ));
        }
        return out;
    }
    format!(
        "{} write no field names or types: a reader needs the Rust type or the `.proto` \
         file to decode them. {} are self-describing",
        format_list(&bound, suite),
        format_list(&[free, generic].concat(), suite)
    )
}

fn schema_bound(run: &Run) -> Vec<&'static Format> {
    run.plan
        .compared_formats()
        .into_iter()
        .filter(|f| f.needs_schema_in(run.suite()))
        .collect()
}

fn value(chart: Chart, m: &Measurement) -> Option<u64> {
    match chart {
        Chart::Size => Some(m.size_bytes),
        Chart::ZstdSize => m.zstd_bytes,
        Chart::Time(_) => Some(m.stats.median_ns),
    }
}

fn op_of(chart: Chart) -> Operation {
    match chart {
        Chart::Size | Chart::ZstdSize => Operation::Encode,
        Chart::Time(op) => op,
    }
}

/// The value of `format` on `dataset` in `chart`.
fn cell(run: &Run, chart: Chart, format: &Format, dataset: BenchDataset) -> Option<u64> {
    run.cell(format.name, dataset, op_of(chart))
        .and_then(|m| value(chart, m))
}

/// The best (smallest) value among `formats` on a dataset, with the format.
fn best(
    run: &Run,
    chart: Chart,
    formats: &[&'static Format],
    dataset: BenchDataset,
) -> Option<(u64, &'static Format)> {
    formats
        .iter()
        .filter_map(|f| cell(run, chart, f, dataset).map(|v| (v, *f)))
        .min_by_key(|(v, _)| *v)
}

/// On how many datasets `format` beats (is below) every one of `others`,
/// out of how many datasets both have.
fn wins(run: &Run, chart: Chart, format: &Format, others: &[&'static Format]) -> (usize, usize) {
    let mut won = 0;
    let mut total = 0;
    for &d in &run.plan.datasets {
        let (Some(own), Some((other, _))) =
            (cell(run, chart, format, d), best(run, chart, others, d))
        else {
            continue;
        };
        total += 1;
        if own < other {
            won += 1;
        }
    }
    (won, total)
}

/// The range of `format`'s value over the best of `others`, across
/// datasets: "0.61-0.93x".
fn ratio_range(
    run: &Run,
    chart: Chart,
    format: &Format,
    others: &[&'static Format],
) -> Option<String> {
    let ratios: Vec<f64> = run
        .plan
        .datasets
        .iter()
        .filter_map(|&d| {
            let own = cell(run, chart, format, d)?;
            let (other, _) = best(run, chart, others, d)?;
            (other > 0).then(|| own as f64 / other as f64)
        })
        .collect();
    let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().copied().fold(0.0, f64::max);
    if ratios.is_empty() {
        None
    } else if (hi - lo).abs() < 0.005 {
        Some(format!("{lo:.2}x"))
    } else {
        Some(format!("{lo:.2}-{hi:.2}x"))
    }
}

/// The format that is best on the most datasets, and on how many.
fn most_often_best(run: &Run, chart: Chart) -> Option<(&'static Format, usize, usize)> {
    let mut counts: Vec<(&'static Format, usize)> = Vec::new();
    let mut total = 0;
    for &d in &run.plan.datasets {
        let Some((_, f)) = best(run, chart, &run.plan.compared_formats(), d) else {
            continue;
        };
        total += 1;
        match counts.iter_mut().find(|(g, _)| *g == f) {
            Some((_, n)) => *n += 1,
            None => counts.push((f, 1)),
        }
    }
    counts
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(f, n)| (f, n, total))
}

fn own(run: &Run, name: &str) -> Option<&'static Format> {
    run.plan.formats.iter().copied().find(|f| f.name == name)
}

/// The headline: what the run shows, in two or three sentences.
pub fn headline(run: &Run) -> String {
    let peers = self_describing_peers(run);
    let mut out = String::new();
    if let Some(surp) = own(run, "surp") {
        let (dec, n) = wins(run, Chart::Time(Operation::Decode), surp, &peers);
        let (enc, _) = wins(run, Chart::Time(Operation::Encode), surp, &peers);
        out.push_str(&format!(
            "**Plain Surp decodes faster than every other self-describing format ({}) on {dec} of \
             {n} datasets, and encodes faster on {enc} of {n}.**",
            format_list(&peers, run.suite())
        ));
    }
    if let Some(dedup) = own(run, "surp_dedup") {
        let (small, n) = wins(run, Chart::Size, dedup, &peers);
        out.push_str(&format!(
            " Surp+Dedup is the smallest self-describing encoding on {small} of {n}"
        ));
        match ratio_range(run, Chart::Size, dedup, &schema_bound(run)) {
            Some(range) if !schema_bound(run).is_empty() => out.push_str(&format!(
                ", at {range} the size of the smallest schema-bound format."
            )),
            _ => out.push('.'),
        }
    }
    let bound = schema_bound(run);
    let against_bound = |op| ratio_range(run, Chart::Time(op), own(run, "surp")?, &bound);
    if let (Some(enc), Some(dec)) = (
        against_bound(Operation::Encode),
        against_bound(Operation::Decode),
    ) {
        out.push_str(&format!(
            " Against the fastest schema-bound format per dataset, plain Surp takes {enc} the \
             time to encode and {dec} to decode: where it loses is in the tables below."
        ));
    }
    out.push('\n');
    out
}

/// Four stat cards: datasets, formats, iterations, regressions.
pub fn stat_cards(run: &Run) -> String {
    let regressions = if run.meta.baseline.is_some() {
        (run.meta.regressions.len().to_string(), "regressions")
    } else {
        ("-".to_owned(), "regressions: no baseline to compare")
    };
    let cards = [
        (run.plan.datasets.len().to_string(), "datasets"),
        (run.plan.compared_formats().len().to_string(), "formats"),
        (run.meta.iterations.to_string(), "iterations per cell"),
        regressions,
    ];
    let mut out = String::from("\n<div class=\"stat-cards\">\n");
    for (value, label) in cards {
        out.push_str(&format!(
            "<div class=\"stat-card\"><span class=\"stat-value\">{value}</span><span \
             class=\"stat-label\">{label}</span></div>\n"
        ));
    }
    out.push_str("</div>\n");
    out
}

fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One card per dataset: its name, size and what it stresses.
pub fn dataset_cards(run: &Run) -> String {
    let mut out = String::from(
        "\n## Datasets\n\nWhat each dataset stresses in a codec. Seeds, sizes and sha256 sums \
         are under [The run](#the-run).\n\n<div class=\"dataset-cards\">\n",
    );
    for d in &run.meta.datasets {
        let description = BenchDataset::from_name(&d.name).map_or("", BenchDataset::description);
        out.push_str(&format!(
            "<div class=\"dataset-card\"><code>{}</code><span class=\"dataset-size\">{} records, \
             {} {}</span><p>{}</p></div>\n",
            html(&d.name),
            thousands(d.records),
            thousands(d.canonical_len),
            match BenchDataset::from_name(&d.name).map(BenchDataset::suite) {
                Some(Suite::Typed) => "bytes as JSON",
                _ => "canonical bytes",
            },
            html(description)
        ));
    }
    out.push_str("</div>\n");
    out
}

/// A one-line reading of a chart, from its numbers.
pub fn chart_reading(run: &Run, chart: Chart) -> String {
    let Some((leader, n, total)) = most_often_best(run, chart) else {
        return String::new();
    };
    let what = match chart {
        Chart::Size | Chart::ZstdSize => "Smallest",
        Chart::Time(_) => "Fastest",
    };
    let mut out = format!(
        "{what} on the most datasets: {} ({n} of {total}).",
        leader.label
    );
    let peers = self_describing_peers(run);
    for name in ["surp", "surp_dedup"] {
        let Some(f) = own(run, name) else { continue };
        if let Some(range) = ratio_range(run, chart, f, &peers) {
            out.push_str(&format!(
                " {} over the best self-describing peer: {range}.",
                f.label
            ));
        }
        if run.suite() == Suite::Value {
            continue;
        }
        if let Some(range) = ratio_range(run, chart, f, &schema_bound(run)) {
            out.push_str(&format!(" Over the best schema-bound format: {range}."));
        }
    }
    out.push_str(" Below 1x, Surp is ahead.");
    out
}
