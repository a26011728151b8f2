//! A stream of 10,000 mixed plain and deduplicated documents round-trips
//! through `Deserializer::into_iter`, from a slice and from a reader, in
//! memory that does not grow with the number of documents (issue 19).

#[path = "../../surp/tests/counting/mod.rs"]
mod counting;

use counting::peak_heap_during;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Status {
    Active,
    Suspended,
    Closed { reason: String },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Record {
    id: u64,
    name: String,
    status: Status,
    tags: Vec<String>,
    scores: Vec<(String, i64)>,
}

/// Document `i`: a few records that repeat their strings and shapes, so
/// that the deduplicating encoder writes references. The sizes cycle with
/// `i % 50`, so the first 1,000 documents hold the largest one.
fn doc(i: usize) -> Vec<Record> {
    let k = i % 50;
    (0..1 + k % 4)
        .map(|j| Record {
            id: (i * 10 + j) as u64,
            name: format!("user-{}", k % 7),
            status: match (k + j) % 3 {
                0 => Status::Active,
                1 => Status::Suspended,
                _ => Status::Closed {
                    reason: "requested by the owner".into(),
                },
            },
            tags: (0..k % 5).map(|t| format!("tag-{t}")).collect(),
            scores: (0..k % 6)
                .map(|s| (format!("metric-{s}"), s as i64 - 2))
                .collect(),
        })
        .collect()
}

fn stream(count: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut dedup = 0;
    for i in 0..count {
        let bytes = if i % 2 == 0 {
            surp::to_vec(&doc(i)).unwrap()
        } else {
            surp_dedup::to_vec(&doc(i)).unwrap()
        };
        dedup += usize::from(bytes[0] == surp::wire::DEDUP_MARKER);
        out.extend(bytes);
    }
    assert!(dedup > count / 4, "only {dedup} deduplicated documents");
    out
}

/// Decodes every document of `bytes`, checking each against `doc(i)` and
/// keeping none: returns how many there were.
fn check_slice(bytes: &[u8]) -> usize {
    let mut n = 0;
    for (i, record) in surp::Deserializer::from_slice(bytes)
        .into_iter::<Vec<Record>>()
        .enumerate()
    {
        assert_eq!(record.unwrap(), doc(i), "document {i}");
        n += 1;
    }
    n
}

fn check_reader(bytes: &[u8]) -> usize {
    let mut n = 0;
    let reader = std::io::BufReader::new(bytes);
    for (i, record) in surp::Deserializer::from_reader(reader)
        .into_iter::<Vec<Record>>()
        .enumerate()
    {
        assert_eq!(record.unwrap(), doc(i), "document {i}");
        n += 1;
    }
    n
}

#[test]
fn ten_thousand_mixed_documents_round_trip_in_flat_memory() {
    let all = stream(10_000);
    let first = stream(1_000);
    assert_eq!(check_slice(&all), 10_000);
    assert_eq!(check_reader(&all), 10_000);
    for check in [check_slice, check_reader] {
        let peak_first = peak_heap_during(|| assert_eq!(check(&first), 1_000));
        let peak_all = peak_heap_during(|| assert_eq!(check(&all), 10_000));
        // The tables and kept strings of one document are dropped at the
        // next: ten times the documents, the same peak.
        assert!(
            peak_all <= peak_first + 1024,
            "peak {peak_all} bytes for 10,000 documents, {peak_first} for 1,000"
        );
    }
}

#[test]
fn one_deserializer_reads_deduplicated_documents_one_after_another() {
    let records = doc(13);
    let one = surp_dedup::to_vec(&records).unwrap();
    assert_eq!(one[0], surp::wire::DEDUP_MARKER);
    let three = one.repeat(3);
    let mut de = surp::Deserializer::from_reader(&three[..]);
    for _ in 0..3 {
        assert_eq!(Vec::<Record>::deserialize(&mut de).unwrap(), records);
    }
    de.end().unwrap();
}
