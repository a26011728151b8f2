//! Sizes of every benchmark dataset: MessagePack, plain Surp and Surp with
//! deduplication, and a round-trip check.
//!
//! `cargo run --release -p surp-dedup --example dataset_sizes`

use surp_datasets::{Dataset, Scale, Value};

fn main() {
    println!("| dataset | msgpack | surp | surp_dedup | dedup/msgpack | dedup/surp |");
    println!("|---|---|---|---|---|---|");
    for dataset in Dataset::ALL {
        let value = dataset
            .load(Scale::Full)
            .expect("dataset matches its manifest");
        let msgpack = rmp_serde::to_vec_named(&value)
            .expect("msgpack encodes")
            .len();
        let plain = surp::to_vec(&value).expect("surp encodes");
        let dedup = surp_dedup::to_vec(&value).expect("dedup encodes");
        let back: Value = surp_dedup::from_slice(&dedup).expect("dedup decodes");
        assert_eq!(back, value, "{} round-trips", dataset.name());
        assert!(dedup.len() <= plain.len());
        println!(
            "| {} | {msgpack} | {} | {} | {:.3} | {:.3} |",
            dataset.name(),
            plain.len(),
            dedup.len(),
            dedup.len() as f64 / msgpack as f64,
            dedup.len() as f64 / plain.len() as f64
        );
    }
}
