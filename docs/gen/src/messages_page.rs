//! The page of a run's messages suite: its workloads and how each stream
//! was cut (a stream that repeats records says so), what the numbers say
//! about which way of sending messages fits which transport, its charts,
//! the harness's own tables, the methodology, the run and how to reproduce
//! it. Every sentence is computed from `summary.csv` and `meta.json`.

use surp_bench::{BenchDataset, Chart, Format, Operation, Sharing, markdown_tables, thousands};

use crate::front::and_list;
use crate::page::{
    ASSETS_FROM_BENCH, escape, page_start, push_ci_warning, push_methodology, push_reproduce,
    push_run_sentence, push_run_table,
};
use crate::run::Run;

/// The heading of the guidance section, which the session formats will
/// extend.
pub const GUIDANCE_HEADING: &str = "## Which to use when";

/// The Markdown page of a messages-suite run.
pub fn messages_page(run: &Run) -> String {
    let assets = format!("{ASSETS_FROM_BENCH}/{}", run.assets_dir());
    let mut out = page_start(run);
    let messages = run
        .measurements
        .iter()
        .filter_map(|m| m.messages)
        .max()
        .unwrap_or(0);
    out.push_str(&format!(
        "This page is the **messages suite**: each workload is a stream of {} small messages, \
         one record of a dataset each, and each format sends the whole stream and receives it \
         back. Sizes and times are per message, each message's 4-byte length prefix included. \
         Besides Surp, Surp+Dedup and their peers, each message a document of its own, it \
         measures Surp with zstd three ways: each message compressed alone, with a dictionary \
         that both ends hold, and one zstd stream for the whole stream. Formats marked \
         *(schema)* write no field names or types and send only the typed workloads. The value \
         suite of the same run is on [its own page]({}.md).\n\n",
        thousands(messages),
        run.name()
    ));
    push_run_sentence(&mut out, run);
    push_ci_warning(&mut out, run);
    push_workloads(&mut out, run);
    push_guidance(&mut out, run);
    push_methodology(&mut out, run);
    push_charts(&mut out, run, &assets);
    out.push('\n');
    out.push_str(&markdown_tables(&run.plan, &run.measurements));
    push_run_table(&mut out, run);
    push_reproduce(&mut out, run);
    out
}

/// The workloads that send some records more than once.
fn cycled(run: &Run) -> Vec<BenchDataset> {
    run.plan
        .datasets
        .iter()
        .copied()
        .filter(|d| {
            run.meta
                .workloads
                .iter()
                .any(|w| w.name == d.name() && w.cycles())
        })
        .collect()
}

/// Names as code in a sentence: "`a`, `b` and `c`".
fn code_list(datasets: &[BenchDataset]) -> String {
    let names: Vec<String> = datasets.iter().map(|d| format!("`{d}`")).collect();
    and_list(&names)
}

fn push_workloads(out: &mut String, run: &Run) {
    out.push_str(
        "\n## Workloads\n\nEach workload cuts its dataset's records in two: the first ones train \
         what a format learns before any stream (the dictionary of Surp+zstd dictionary) and \
         are never sent; the rest are sent in dataset order, one per message.\n\n\
         | workload | one message | training records | records sent | messages | sends per \
         record |\n| --- | --- | --: | --: | --: | --: |\n",
    );
    for w in &run.meta.workloads {
        let sends = format!("{:.2}", w.sends_per_record);
        let sends = sends.trim_end_matches('0').trim_end_matches('.');
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            w.name,
            escape_keeping_code(&w.message),
            thousands(w.training_records),
            thousands(w.distinct_messages),
            thousands(w.messages),
            if w.cycles() {
                format!("**{sends} (cycled)**")
            } else {
                sends.to_owned()
            }
        ));
    }
    let cycled = cycled(run);
    if !cycled.is_empty() {
        let verb = if cycled.len() == 1 { "cycles" } else { "cycle" };
        out.push_str(&format!(
            "\n**{} {verb}**: after training, the dataset has fewer records than a stream has \
             messages, so the stream sends its records again and again. Repeats favour every \
             format that keeps state through the stream, which can find earlier copies of \
             whole messages",
            code_list(&cycled)
        ));
        let stateful = sharing(run, Sharing::Stream);
        if !stateful.is_empty() {
            out.push_str(&format!(" (here {})", labels(&stateful)));
        }
        out.push_str(
            ": on these workloads their sizes are a best case, smaller than a stream of fresh \
             records would give. The formats that encode each message on its own are not \
             affected.\n",
        );
    }
}

/// A description from the harness, whose code spans are kept as code.
fn escape_keeping_code(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("`{part}`")
            } else {
                escape(part)
            }
        })
        .collect()
}

/// A cell's value per message: bytes for sizes, nanoseconds for times.
fn per_message(run: &Run, format: &Format, dataset: BenchDataset, chart: Chart) -> Option<f64> {
    match chart {
        Chart::Size => run
            .cell(format.name, dataset, Operation::Encode)
            .map(|m| m.bytes_per_message()),
        Chart::Time(op) => run
            .cell(format.name, dataset, op)
            .map(|m| m.median_ns_per_message()),
        Chart::ZstdSize => None,
    }
}

/// `a`'s value over `b`'s on each of `datasets` where both have one.
fn ratios(
    run: &Run,
    chart: Chart,
    a: &Format,
    b: &Format,
    datasets: &[BenchDataset],
) -> Vec<(BenchDataset, f64)> {
    datasets
        .iter()
        .filter_map(|&d| {
            let (x, y) = (
                per_message(run, a, d, chart)?,
                per_message(run, b, d, chart)?,
            );
            (y > 0.0).then_some((d, x / y))
        })
        .collect()
}

/// The range of some ratios, `{lo}x` or `{lo}-{hi}x` to two decimals;
/// `None` for none.
fn range(ratios: &[(BenchDataset, f64)]) -> Option<String> {
    let lo = ratios.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().map(|r| r.1).fold(0.0, f64::max);
    if ratios.is_empty() {
        None
    } else if format!("{lo:.2}") == format!("{hi:.2}") {
        Some(format!("{lo:.2}x"))
    } else {
        Some(format!("{lo:.2}-{hi:.2}x"))
    }
}

/// The run's format with this name.
fn format(run: &Run, name: &str) -> Option<&'static Format> {
    run.plan.formats.iter().copied().find(|f| f.name == name)
}

/// The formats of the run whose receivers need `sharing`.
fn sharing(run: &Run, sharing: Sharing) -> Vec<&'static Format> {
    run.plan
        .formats
        .iter()
        .copied()
        .filter(|f| f.sharing() == Some(sharing))
        .collect()
}

fn labels(formats: &[&'static Format]) -> String {
    let labels: Vec<&str> = formats.iter().map(|f| f.label).collect();
    and_list(&labels)
}

/// What the run's numbers say about which way of sending messages to use
/// when, grouped by what a receiver must hold besides a message. Each
/// sentence is written only when the run has the formats it compares.
fn push_guidance(out: &mut String, run: &Run) {
    let all = &run.plan.datasets;
    let cycled = cycled(run);
    let fresh: Vec<BenchDataset> = all
        .iter()
        .copied()
        .filter(|d| !cycled.contains(d))
        .collect();
    let size = Chart::Size;
    let encode = Chart::Time(Operation::Encode);
    let decode = Chart::Time(Operation::Decode);
    out.push_str(&format!(
        "\n{GUIDANCE_HEADING}\n\nWhat this run measured, by what a receiver must hold besides \
         a message's own bytes. Each statement is a ratio of two formats' sizes or median times \
         per message, computed from the tables below"
    ));
    if !cycled.is_empty() {
        out.push_str(&format!(
            "; statements on formats that keep state through the stream leave out the cycled \
             workloads ({})",
            code_list(&cycled)
        ));
    }
    out.push_str(".\n\n");

    let surp = format(run, "surp");
    let nothing = sharing(run, Sharing::Nothing);
    if !nothing.is_empty() {
        out.push_str(&format!(
            "- **Each message on its own, nothing shared** ({}): a receiver decodes any \
             message alone, whatever was lost or reordered before it.",
            labels(&nothing)
        ));
        if let (Some(surp), Some(msgpack)) = (surp, format(run, "msgpack")) {
            push_ratio(out, run, surp, msgpack, all, &[size, encode, decode]);
        }
        if let (Some(surp), Some(dedup)) = (surp, format(run, "surp_dedup")) {
            let sizes = ratios(run, size, dedup, surp, all);
            let smaller: Vec<BenchDataset> = sizes
                .iter()
                .filter(|(_, r)| *r < 0.995)
                .map(|(d, _)| *d)
                .collect();
            out.push_str(&format!(
                " Surp+Dedup was smaller than Surp on {} of {} workloads",
                smaller.len(),
                sizes.len()
            ));
            let saved: Vec<(BenchDataset, f64)> = sizes
                .iter()
                .copied()
                .filter(|(d, _)| smaller.contains(d))
                .collect();
            if let Some(r) = range(&saved) {
                out.push_str(&format!(" ({}, at {r} its size)", code_list(&smaller)));
            }
            if let Some(r) = range(&ratios(run, encode, dedup, surp, all)) {
                out.push_str(&format!(", and took {r} its encode time per message"));
            }
            out.push('.');
        }
        if let (Some(surp), Some(zstd)) = (surp, format(run, "surp_zstd")) {
            let sizes = ratios(run, size, zstd, surp, all);
            let larger: Vec<BenchDataset> = sizes
                .iter()
                .filter(|(_, r)| *r >= 1.0)
                .map(|(d, _)| *d)
                .collect();
            out.push_str(" Compressing each message alone with zstd (Surp+zstd)");
            if let Some(r) = range(&sizes) {
                out.push_str(&format!(" gave {r} Surp's size"));
            }
            if !larger.is_empty() {
                out.push_str(&format!(
                    ", no smaller on {} of {} workloads ({})",
                    larger.len(),
                    sizes.len(),
                    code_list(&larger)
                ));
            }
            if let (Some(e), Some(d)) = (
                range(&ratios(run, encode, zstd, surp, all)),
                range(&ratios(run, decode, zstd, surp, all)),
            ) {
                out.push_str(&format!(", at {e} its encode and {d} its decode time"));
            }
            out.push('.');
        }
        out.push('\n');
    }

    let bound: Vec<&'static Format> = run
        .plan
        .formats
        .iter()
        .copied()
        .filter(|f| f.needs_schema)
        .collect();
    if let (Some(surp), false) = (surp, bound.is_empty()) {
        out.push_str(&format!(
            "- **Both ends compiled with the same Rust types** ({}, on the typed workloads \
             only):",
            labels(&bound)
        ));
        for (i, f) in bound.iter().enumerate() {
            if i > 0 {
                out.push(';');
            }
            out.push_str(&format!(" {}", f.label));
            push_ratio_terms(out, run, f, surp, all, &[size, encode, decode]);
        }
        out.push_str(". They write no field names or types, so a reader without the type cannot decode them.\n");
    }

    let dictionary = sharing(run, Sharing::Dictionary);
    if let (Some(surp), Some(dict)) = (surp, dictionary.first()) {
        out.push_str(&format!(
            "- **A dictionary both ends hold** ({}, trained on records that are never sent): \
             each message still decodes alone.",
            labels(&dictionary)
        ));
        push_ratio(out, run, dict, surp, all, &[size, encode, decode]);
        if let Some(zstd) = format(run, "surp_zstd") {
            let sizes = ratios(run, size, dict, zstd, all);
            let smaller = sizes.iter().filter(|(_, r)| *r < 1.0).count();
            out.push_str(&format!(
                " It was smaller than Surp+zstd without a dictionary on {smaller} of {} \
                 workloads.",
                sizes.len()
            ));
        }
        out.push('\n');
    }

    let stream = sharing(run, Sharing::Stream);
    if let Some(first) = stream.first() {
        out.push_str(&format!(
            "- **State kept for the whole stream** ({}): a message decodes only after every \
             message before it, in order, so the transport must not lose or reorder them.",
            labels(&stream)
        ));
        let against = dictionary.first().copied().or(surp);
        match against {
            Some(other) if !fresh.is_empty() => {
                out.push_str(&format!(
                    " On the workloads that send each record once ({}), {}",
                    code_list(&fresh),
                    first.label
                ));
                push_ratio_terms(out, run, first, other, &fresh, &[size, encode, decode]);
                out.push('.');
            }
            Some(_) => out.push_str(
                " Every workload of this run cycles, so its sizes here come partly from repeated \
                 records and are not compared.",
            ),
            None => {}
        }
        out.push('\n');
    }

    // Surp's own ways, each against the zstd way of its group and against
    // plain Surp per message. A session keeps state through the stream, so
    // like the group above it is judged on the workloads that do not cycle.
    if let (Some(surp), Some(session), false) =
        (surp, format(run, "surp_session"), fresh.is_empty())
    {
        out.push_str(&format!(
            "- **{}** (its tables last the whole stream, within a budget; spec section 9). On \
             the workloads that send each record once ({}), it",
            session.label,
            code_list(&fresh)
        ));
        push_ratio_terms(out, run, session, surp, &fresh, &[size, encode, decode]);
        out.push('.');
        if let Some(dict) = format(run, "surp_zstd_dict") {
            out.push_str(&format!(" Against {}, it", dict.label));
            push_ratio_terms(out, run, session, dict, &fresh, &[size, encode, decode]);
            out.push('.');
        }
        if let (Some(with), Some(without)) = (
            format(run, "surp_session_zstd_stream"),
            format(run, "surp_zstd_stream"),
        ) {
            out.push_str(&format!(" Through one zstd stream, {}", with.label));
            push_ratio_terms(out, run, with, without, &fresh, &[size]);
            out.push('.');
        }
        out.push('\n');
    }
    if let (Some(surp), Some(dict)) = (surp, format(run, "surp_dictionary")) {
        out.push_str(&format!(
            "- **{}** (learnt from the training records; each message still decodes alone). It",
            dict.label
        ));
        push_ratio_terms(out, run, dict, surp, all, &[size, encode, decode]);
        out.push('.');
        if let Some(zstd) = format(run, "surp_zstd_dict") {
            out.push_str(&format!(" Against {}, it", zstd.label));
            push_ratio_terms(out, run, dict, zstd, all, &[size, encode, decode]);
            out.push('.');
        }
        out.push('\n');
    }
}

/// Appends `" {a} was {r}x {b}'s size, {r}x its encode and {r}x its decode
/// time per message."`, each `{r}` a [`range`] over `datasets`.
fn push_ratio(
    out: &mut String,
    run: &Run,
    a: &Format,
    b: &Format,
    datasets: &[BenchDataset],
    charts: &[Chart],
) {
    out.push_str(&format!(" {}", a.label));
    push_ratio_terms(out, run, a, b, datasets, charts);
    out.push('.');
}

/// Appends `" was {r}x {b}'s size, {r}x its encode and {r}x its decode time
/// per message"`, one term per chart, each `{r}` a [`range`] over `datasets`.
fn push_ratio_terms(
    out: &mut String,
    run: &Run,
    a: &Format,
    b: &Format,
    datasets: &[BenchDataset],
    charts: &[Chart],
) {
    let mut terms = Vec::new();
    for (i, &chart) in charts.iter().enumerate() {
        let Some(r) = range(&ratios(run, chart, a, b, datasets)) else {
            continue;
        };
        let whose = if i == 0 {
            format!("{}'s", b.label)
        } else {
            "its".to_owned()
        };
        terms.push(match chart {
            Chart::Time(op) => format!("{r} {whose} {} time", op.name()),
            _ => format!("{r} {whose} size"),
        });
    }
    if !terms.is_empty() {
        out.push_str(&format!(" was {} per message", and_list(&terms)));
    }
}

/// What a chart of the messages suite shows, as its image's alternative
/// text.
fn chart_alt(chart: Chart) -> String {
    match chart {
        Chart::Time(op) => format!(
            "Median {} time per message per format and workload",
            op.name()
        ),
        Chart::Size | Chart::ZstdSize => {
            "Mean bytes per message per format and workload".to_owned()
        }
    }
}

fn push_charts(out: &mut String, run: &Run, assets: &str) {
    out.push_str(&format!(
        "\n## Charts\n\nOne group of bars per workload, one colour per format; shorter is \
         better. Each chart is the committed SVG file of the run (open it for full size). \
         Sizes and times are per message; times are medians of {} timed streams.\n",
        run.meta.iterations
    ));
    let cycled = cycled(run);
    for chart in run.charts() {
        let src = format!("{assets}/charts/{}", chart.file_name());
        out.push_str(&format!(
            "\n[![{}]({src})]({src})\n\n{}\n",
            chart_alt(chart),
            chart_reading(run, chart, &cycled)
        ));
    }
}

/// One line on a chart: which format is best on the most workloads.
fn chart_reading(run: &Run, chart: Chart, cycled: &[BenchDataset]) -> String {
    let mut counts: Vec<(&'static Format, usize)> = Vec::new();
    let mut total = 0;
    for &d in &run.plan.datasets {
        let best = run
            .plan
            .formats
            .iter()
            .filter_map(|f| per_message(run, f, d, chart).map(|v| (v, *f)))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let Some((_, f)) = best else { continue };
        total += 1;
        match counts.iter_mut().find(|(g, _)| *g == f) {
            Some((_, n)) => *n += 1,
            None => counts.push((f, 1)),
        }
    }
    let Some((leader, n)) = counts.into_iter().max_by_key(|(_, n)| *n) else {
        return String::new();
    };
    let what = match chart {
        Chart::Time(_) => "Fastest",
        Chart::Size | Chart::ZstdSize => "Smallest",
    };
    let mut out = format!(
        "{what} on the most workloads: {} ({n} of {total}).",
        leader.label
    );
    if chart == Chart::Size && !cycled.is_empty() {
        out.push_str(&format!(
            " On {}, which cycle, the sizes of the formats that keep state through the stream \
             come partly from repeated records.",
            code_list(cycled)
        ));
    }
    out
}
