//! Times generating every dataset at full scale (and parsing the corpus), the
//! figure the datasets promise to keep under 5 s in a release build:
//!
//! ```text
//! cargo run --release -p surp-datasets --example generation-time
//! ```
//!
//! It reports wall-clock time only; tests never assert timings.

use std::time::{Duration, Instant};

use surp_datasets::{Dataset, Scale, canonical_len, sha256_hex};

fn main() {
    let mut generating = Duration::ZERO;
    let mut hashing = Duration::ZERO;
    for dataset in Dataset::ALL {
        let start = Instant::now();
        let value = dataset.generate(Scale::Full);
        let generated = start.elapsed();
        let start = Instant::now();
        let sum = sha256_hex(&value);
        let hashed = start.elapsed();
        generating += generated;
        hashing += hashed;
        println!(
            "{:<17} generate {:>8.1} ms  sha256 {:>7.1} ms  canonical bytes {:>9}  {}",
            dataset,
            generated.as_secs_f64() * 1e3,
            hashed.as_secs_f64() * 1e3,
            canonical_len(&value),
            &sum[..16]
        );
    }
    println!(
        "all datasets at full scale: generate {:.3} s, sha256 {:.3} s, total {:.3} s",
        generating.as_secs_f64(),
        hashing.as_secs_f64(),
        (generating + hashing).as_secs_f64()
    );
}
