//! Counts, for every dataset of both suites, the tokens that decided which
//! tags version 2 of the wire format gives to one-byte shape references
//! (`docs/spec.md`, design notes, "Version 2"): shape references by shape
//! number, byte strings of 0 to 7 bytes, and integers that a smaller inline
//! range would push out of the tag byte.
//!
//! `cargo run --release -p surp-bench --example tag_usage`

use serde::Serialize;
use surp::wire::{Header, Kind, decode_header};
use surp_datasets::typed::{TypedDataset, TypedValue};
use surp_datasets::{Dataset, Scale};

/// What one document holds.
#[derive(Default)]
struct Counts {
    /// Shape references to shapes 0-7, 8-15, 16-255 and 256 on.
    shape_refs: [u64; 4],
    short_byte_strings: u64,
    uints_112_to_127: u64,
    uints_96_to_127: u64,
}

/// Walks a document token by token: a header, and a string's or byte
/// string's payload. Containers need no stack, as their items follow them.
fn count(doc: &[u8]) -> Counts {
    let mut c = Counts::default();
    let mut at = 0;
    while at < doc.len() {
        let (header, size) = decode_header(&doc[at..], at).expect("the encoder's output decodes");
        at += size;
        match header {
            Header::Len(Kind::Str, n) => at += n as usize,
            Header::Len(Kind::Bytes, n) => {
                c.short_byte_strings += u64::from(n <= 7);
                at += n as usize;
            }
            Header::ShapeRef(shape) => {
                let bucket = match shape {
                    0..8 => 0,
                    8..16 => 1,
                    16..256 => 2,
                    _ => 3,
                };
                c.shape_refs[bucket] += 1;
            }
            Header::Uint(v @ 96..=127) => {
                c.uints_96_to_127 += 1;
                c.uints_112_to_127 += u64::from(v >= 112);
            }
            _ => {}
        }
    }
    c
}

fn row(name: &str, value: &impl Serialize) {
    let plain = surp::to_vec(value).expect("surp encodes");
    let dedup = surp_dedup::to_vec(value).expect("surp_dedup encodes");
    let c = count(&dedup);
    let p = count(&plain);
    let [s0, s8, s16, s256] = c.shape_refs;
    println!(
        "| {name} | {} | {} | {s0} | {s8} | {s16} | {s256} | {} | {} | {} |",
        plain.len(),
        dedup.len(),
        p.short_byte_strings,
        p.uints_112_to_127,
        p.uints_96_to_127,
    );
}

fn main() {
    println!(
        "| dataset | plain bytes | dedup bytes | shape refs 0-7 | 8-15 | 16-255 | 256+ \
         | byte strings of 0-7 bytes | integers 112-127 | integers 96-127 |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for dataset in [
        TypedDataset::Log,
        TypedDataset::Mesh,
        TypedDataset::GameSave,
        TypedDataset::GameUpdates,
        TypedDataset::World,
        TypedDataset::ScanMesh,
        TypedDataset::RequestLog,
    ] {
        let name = dataset.name();
        match dataset
            .load(Scale::Full)
            .expect("dataset matches its manifest")
        {
            TypedValue::Log(v) => row(name, &v),
            TypedValue::Mesh(v) => row(name, &v),
            TypedValue::GameSave(v) => row(name, &v),
            TypedValue::GameUpdates(v) => row(name, &v),
            TypedValue::World(v) => row(name, &v),
            TypedValue::ScanMesh(v) => row(name, &v),
            TypedValue::RequestLog(v) => row(name, &v),
        }
    }
    for dataset in Dataset::ALL {
        let value = dataset
            .load(Scale::Full)
            .expect("dataset matches its manifest");
        row(dataset.name(), &value);
    }
}
