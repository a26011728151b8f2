//! Per-document cost: every record of the typed datasets (ci scale) encoded
//! and decoded as a document of its own, as a service does with messages.
//! Plain Surp and Surp with deduplication, as ratios measured in one
//! interleaved run (the fastest of the iterations for each).
//!
//! `cargo run --release -p surp-dedup --example small_docs [iterations]`
//!
//! With `count-encode` or `count-decode` instead of a number, it encodes
//! (or decodes) every record once with deduplication, for instruction
//! counts. Both also load the dataset, and `count-decode` encodes the
//! records first, so count only the operation:
//!
//! ```text
//! valgrind --tool=callgrind --collect-atstart=no \
//!     '--toggle-collect=surp_dedup::options::Options::to_vec*' \
//!     target/release/examples/small_docs count-encode
//! valgrind --tool=callgrind --collect-atstart=no \
//!     '--toggle-collect=surp::options::Options::from_slice*' \
//!     target/release/examples/small_docs count-decode
//! ```

use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;
use serde::de::DeserializeOwned;
use surp_datasets::Scale;
use surp_datasets::typed::{TypedDataset, TypedValue};

/// Runs `f` and keeps its time in `times[at]` if it is the fastest so far.
fn fastest(times: &mut [f64], at: usize, f: impl FnOnce()) {
    let t = Instant::now();
    f();
    times[at] = times[at].min(t.elapsed().as_secs_f64());
}

/// What to do: time every operation, or run one once.
#[derive(Clone, Copy)]
enum Mode {
    Time(usize),
    CountEncode,
    CountDecode,
}

fn run<T: Serialize + DeserializeOwned>(name: &str, records: &[T], mode: Mode) {
    if let Mode::CountEncode = mode {
        for r in records {
            black_box(surp_dedup::to_vec(black_box(r)).expect("encodes"));
        }
        return;
    }
    let plain: Vec<Vec<u8>> = records
        .iter()
        .map(|r| surp::to_vec(r).expect("encodes"))
        .collect();
    let dedup: Vec<Vec<u8>> = records
        .iter()
        .map(|r| surp_dedup::to_vec(r).expect("encodes"))
        .collect();
    let Mode::Time(iterations) = mode else {
        for b in &dedup {
            black_box(surp_dedup::from_slice::<T>(black_box(b)).expect("decodes"));
        }
        return;
    };
    let mut t = [f64::MAX; 4];
    for _ in 0..iterations {
        fastest(&mut t, 0, || {
            for r in records {
                black_box(surp::to_vec(black_box(r)).expect("encodes"));
            }
        });
        fastest(&mut t, 1, || {
            for r in records {
                black_box(surp_dedup::to_vec(black_box(r)).expect("encodes"));
            }
        });
        fastest(&mut t, 2, || {
            for b in &plain {
                black_box(surp::from_slice::<T>(black_box(b)).expect("decodes"));
            }
        });
        fastest(&mut t, 3, || {
            for b in &dedup {
                black_box(surp_dedup::from_slice::<T>(black_box(b)).expect("decodes"));
            }
        });
    }
    let ns = |s: f64| s / records.len() as f64 * 1e9;
    let bytes = |docs: &[Vec<u8>]| docs.iter().map(Vec::len).sum::<usize>();
    println!(
        "| {name} | {} | {} | {} | {:.0} | {:.0} | {:.2} | {:.0} | {:.0} | {:.2} |",
        records.len(),
        bytes(&plain),
        bytes(&dedup),
        ns(t[0]),
        ns(t[1]),
        t[1] / t[0],
        ns(t[2]),
        ns(t[3]),
        t[3] / t[2],
    );
}

fn main() {
    let arg = std::env::args().nth(1);
    let mode = match arg.as_deref() {
        Some("count-encode") => Mode::CountEncode,
        Some("count-decode") => Mode::CountDecode,
        Some(n) => Mode::Time(n.parse().expect("iterations, count-encode or count-decode")),
        None => Mode::Time(15),
    };
    if let Mode::Time(_) = mode {
        println!(
            "| document | documents | plain bytes | dedup bytes | plain encode ns | dedup encode ns | dedup / plain | plain decode ns | dedup decode ns | dedup / plain |"
        );
        println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    }
    for dataset in TypedDataset::ALL {
        match dataset
            .load(Scale::Ci)
            .expect("dataset matches its manifest")
        {
            TypedValue::Log(v) => run("log record", &v.records, mode),
            TypedValue::Mesh(v) => run("triangle", &v.triangles, mode),
            TypedValue::GameSave(v) => run("game save", &v.saves, mode),
            TypedValue::GameUpdates(v) => run("game tick", &v.ticks, mode),
            TypedValue::World(v) => run("world entity", &v.entities, mode),
            TypedValue::ScanMesh(v) => run("scan vertex", &v.vertices, mode),
            TypedValue::RequestLog(v) => run("request", &v.requests, mode),
        }
    }
}
