//! How a session's budget decides its size: bytes per message for streams
//! of one record per message, under budgets from a sixteenth of the default
//! to unbounded (no tumble at all), and how many messages a session sends
//! between tumbles. The unbounded column is the least any eviction rule
//! could reach with these tables; the design notes of `docs/spec.md`
//! (section "Sessions") quote this output.
//!
//! `cargo run --release -p surp-dedup --example session_budgets [scale]`
//!
//! `scale` is `ci` or `full` (the default): the datasets of `surp-bench`.

use serde::Serialize;
use surp_datasets::typed::{TypedDataset, TypedValue};
use surp_datasets::{Dataset, Scale};
use surp_dedup::{DEFAULT_BUDGET, SessionOptions};

/// The records of a workload, as the messages suite cuts them: one record
/// per message.
fn value_records(dataset: Dataset, scale: Scale) -> Vec<surp::Value> {
    let value = surp::to_value(&dataset.generate(scale)).expect("a dataset converts");
    let field = |v: &surp::Value, name: &str| -> surp::Value {
        let surp::Value::Map(entries) = v else {
            panic!("not a map")
        };
        let found = entries
            .iter()
            .find(|(k, _)| matches!(k, surp::Value::String(s) if s == name));
        found.map(|(_, v)| v.clone()).expect("the field exists")
    };
    let items = match dataset {
        Dataset::Twitter => field(&value, "statuses"),
        Dataset::CitmCatalog => match &field(&value, "events") {
            surp::Value::Map(entries) => {
                surp::Value::Array(entries.iter().map(|(_, v)| v.clone()).collect())
            }
            _ => panic!("events is a map"),
        },
        _ => value,
    };
    match &items {
        surp::Value::Array(items) => items.clone(),
        _ => panic!("an array of records"),
    }
}

/// Bytes per message and messages per tumble for one budget.
fn measure<T: Serialize>(records: &[T], options: &SessionOptions) -> (f64, Option<f64>) {
    let mut encoder = options.encoder();
    let mut bytes = 0usize;
    let mut tumbles = 0usize;
    let mut last = encoder.usage();
    for record in records {
        bytes += encoder.encode(record).expect("encodes").len();
        let now = encoder.usage();
        // The tables only shrink when they tumble.
        if now.strings < last.strings || now.shapes < last.shapes || now.bytes < last.bytes {
            tumbles += 1;
        }
        last = now;
    }
    let n = records.len() as f64;
    (bytes as f64 / n, (tumbles > 0).then(|| n / tumbles as f64))
}

fn row<T: Serialize>(name: &str, records: &[T]) {
    let plain: usize = records
        .iter()
        .map(|r| surp::to_vec(r).expect("encodes").len())
        .sum();
    let mut cells = vec![format!("{:.1}", plain as f64 / records.len() as f64)];
    let d = DEFAULT_BUDGET;
    let mut tumble_note = String::new();
    // A sixteenth of the default budget to sixteen times it.
    for (num, den) in [(1u32, 16u32), (1, 4), (1, 1), (4, 1), (16, 1)] {
        let scaled = |n: u32| {
            (u64::from(n) * u64::from(num) / u64::from(den)).min(u64::from(u32::MAX)) as u32
        };
        let options =
            SessionOptions::new().budget(scaled(d.strings), scaled(d.shapes), scaled(d.bytes));
        let (per_message, per_tumble) = measure(records, &options);
        cells.push(format!("{per_message:.1}"));
        if (num, den) == (1, 1) {
            tumble_note = per_tumble.map_or("none".to_owned(), |m| format!("{m:.0}"));
        }
    }
    let unbounded = SessionOptions::new().budget(1 << 24, 1 << 16, u32::MAX);
    cells.push(format!("{:.1}", measure(records, &unbounded).0));
    cells.push(tumble_note);
    println!("| {name} | {} | {} |", records.len(), cells.join(" | "));
}

fn main() {
    let scale = match std::env::args().nth(1).as_deref() {
        Some("ci") => Scale::Ci,
        _ => Scale::Full,
    };
    println!(
        "| workload | messages | plain B/msg | budget / 16 | budget / 4 | default budget | budget × 4 | budget × 16 | unbounded | messages per tumble (default) |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    if let TypedValue::Log(log) = TypedDataset::Log.generate(scale) {
        row("log records", &log.records);
    }
    if let TypedValue::GameUpdates(game) = TypedDataset::GameUpdates.generate(scale) {
        let updates: Vec<_> = game.ticks.into_iter().flat_map(|t| t.entities).collect();
        row("game entity updates", &updates);
    }
    for (name, dataset) in [
        ("small_objects elements", Dataset::SmallObjects),
        ("mixed_api_events events", Dataset::MixedApiEvents),
        ("twitter statuses", Dataset::Twitter),
        ("citm_catalog events", Dataset::CitmCatalog),
    ] {
        row(name, &value_records(dataset, scale));
    }
}
