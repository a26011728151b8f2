//! Surp against rmp-serde (MessagePack, structs as maps) and serde_json on
//! typed data: one record of ten mixed fields, a `Vec` of 10,000 records,
//! and a `Vec<f64>`. Also the raw cost of the integer prefix form against
//! LEB128, which `docs/spec.md` cites.
//!
//! `cargo bench -p surp --bench codec`; sizes are printed before timing.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Record {
    id: u64,
    name: String,
    email: String,
    active: bool,
    score: f64,
    level: u8,
    balance: i64,
    tags: Vec<String>,
    ratio: f32,
    parent: Option<u32>,
}

/// A small deterministic generator, so every run measures the same data.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const NAMES: [&str; 8] = [
    "ada", "grace", "alan", "edsger", "barbara", "donald", "frances", "ken",
];
const TAGS: [&str; 6] = ["admin", "beta", "ops", "eu-west", "trial", "vip"];

fn record(rng: &mut XorShift, i: u64) -> Record {
    let name = format!(
        "{} {}",
        NAMES[rng.below(8) as usize],
        NAMES[rng.below(8) as usize]
    );
    Record {
        id: 1_000_000 + i,
        email: format!("{}{}@example.com", name.replace(' ', "."), rng.below(1000)),
        name,
        active: rng.below(2) == 0,
        score: rng.below(1_000_000) as f64 / 7.0,
        level: rng.below(100) as u8,
        balance: rng.below(2_000_000) as i64 - 1_000_000,
        tags: (0..rng.below(4))
            .map(|_| TAGS[rng.below(6) as usize].to_owned())
            .collect(),
        ratio: rng.below(1000) as f32 / 8.0,
        parent: (rng.below(3) != 0).then(|| rng.below(100_000) as u32),
    }
}

fn floats(rng: &mut XorShift, n: usize) -> Vec<f64> {
    // Half exact in binary32 (eighths), half needing binary64.
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                rng.below(8000) as f64 / 8.0
            } else {
                rng.below(1 << 40) as f64 / 3.0
            }
        })
        .collect()
}

type Encode<T> = fn(&T) -> Vec<u8>;
type Decode<T> = fn(&[u8]) -> T;

fn formats<T: Serialize + for<'de> Deserialize<'de>>() -> [(&'static str, Encode<T>, Decode<T>); 3]
{
    [
        (
            "surp",
            |v| surp::to_vec(v).unwrap(),
            |b| surp::from_slice(b).unwrap(),
        ),
        (
            "msgpack",
            |v| rmp_serde::to_vec_named(v).unwrap(),
            |b| rmp_serde::from_slice(b).unwrap(),
        ),
        (
            "json",
            |v| serde_json::to_vec(v).unwrap(),
            |b| serde_json::from_slice(b).unwrap(),
        ),
    ]
}

fn compare<T>(c: &mut Criterion, group: &str, value: &T)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let mut g = c.benchmark_group(group);
    for (name, encode, decode) in formats::<T>() {
        let bytes = encode(value);
        assert_eq!(&decode(&bytes), value, "{name} round-trips");
        eprintln!("size {group}/{name}: {} bytes", bytes.len());
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(BenchmarkId::new("encode", name), |b| {
            b.iter(|| encode(black_box(value)))
        });
        g.bench_function(BenchmarkId::new("decode", name), |b| {
            b.iter(|| decode(black_box(&bytes)))
        });
    }
    g.finish();
}

fn codecs(c: &mut Criterion) {
    let mut rng = XorShift(0x5eed_5eed_5eed_5eed);
    let one = record(&mut rng, 0);
    let many: Vec<Record> = (0..10_000).map(|i| record(&mut rng, i)).collect();
    let floats = floats(&mut rng, 10_000);
    compare(c, "record", &one);
    compare(c, "records_10k", &many);
    compare(c, "f64_10k", &floats);
}

/// Integers as Surp writes them beyond the tag (width in the tag, then that
/// many little-endian bytes) against unsigned LEB128, decoded in a loop.
fn integer_forms(c: &mut Criterion) {
    let mut rng = XorShift(42);
    let ints: Vec<u64> = (0..10_000)
        .map(|_| rng.next() >> (rng.below(8) * 8))
        .collect();
    let mut prefix = Vec::new();
    let mut leb = Vec::new();
    for &v in &ints {
        let width = (64 - (v | 1).leading_zeros() as usize).div_ceil(8);
        prefix.push(surp::wire::UINT1 - 1 + width as u8);
        prefix.extend_from_slice(&v.to_le_bytes()[..width]);
        let mut x = v;
        loop {
            let byte = (x & 0x7f) as u8;
            x >>= 7;
            if x == 0 {
                leb.push(byte);
                break;
            }
            leb.push(byte | 0x80);
        }
    }
    prefix.extend_from_slice(&[0; 8]);
    let mut g = c.benchmark_group("integer_forms");
    g.throughput(Throughput::Elements(ints.len() as u64));
    g.bench_function("prefix_decode", |b| {
        b.iter(|| {
            let (data, mut at, mut sum) = (black_box(&prefix), 0, 0u64);
            for _ in 0..ints.len() {
                let width = surp::wire::int_width(data[at]);
                let word = u64::from_le_bytes(data[at + 1..at + 9].try_into().unwrap());
                let shift = (8 - width) * 8;
                sum = sum.wrapping_add((word << shift) >> shift);
                at += 1 + width;
            }
            sum
        })
    });
    g.bench_function("leb128_decode", |b| {
        b.iter(|| {
            let (data, mut at, mut sum) = (black_box(&leb), 0, 0u64);
            for _ in 0..ints.len() {
                let (mut v, mut shift) = (0u64, 0);
                loop {
                    let byte = data[at];
                    at += 1;
                    v |= u64::from(byte & 0x7f) << shift;
                    if byte & 0x80 == 0 {
                        break;
                    }
                    shift += 7;
                }
                sum = sum.wrapping_add(v);
            }
            sum
        })
    });
    g.finish();
}

criterion_group!(benches, codecs, integer_forms);
criterion_main!(benches);
