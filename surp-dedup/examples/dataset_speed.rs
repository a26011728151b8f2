//! Encode and decode time of plain Surp and Surp with deduplication on every
//! full-scale dataset, as ratios measured in one interleaved run.
//!
//! `cargo run --release -p surp-dedup --example dataset_speed [iterations]`

use std::hint::black_box;
use std::time::Instant;

use surp_datasets::{Dataset, Scale, Value};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let iterations: usize = std::env::args()
        .nth(1)
        .map_or(11, |a| a.parse().expect("iterations"));
    println!(
        "| dataset | plain enc ms | dedup enc ms | enc throughput ratio | plain dec ms | dedup dec ms | dec throughput ratio |"
    );
    println!("|---|---|---|---|---|---|---|");
    for dataset in Dataset::ALL {
        let value = dataset
            .load(Scale::Full)
            .expect("dataset matches its manifest");
        let plain = surp::to_vec(&value).unwrap();
        let dedup = surp_dedup::to_vec(&value).unwrap();
        let (mut pe, mut de, mut pd, mut dd) = (vec![], vec![], vec![], vec![]);
        for _ in 0..iterations {
            let t = Instant::now();
            black_box(surp::to_vec(black_box(&value)).unwrap());
            pe.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            black_box(surp_dedup::to_vec(black_box(&value)).unwrap());
            de.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            black_box(surp::from_slice::<Value>(black_box(&plain)).unwrap());
            pd.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            black_box(surp_dedup::from_slice::<Value>(black_box(&dedup)).unwrap());
            dd.push(t.elapsed().as_secs_f64());
        }
        let (pe, de, pd, dd) = (median(pe), median(de), median(pd), median(dd));
        // Throughput of the same value: the ratio of times, inverted.
        println!(
            "| {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            dataset.name(),
            pe * 1e3,
            de * 1e3,
            pe / de,
            pd * 1e3,
            dd * 1e3,
            pd / dd
        );
    }
}
