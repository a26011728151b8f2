//! Writes the committed seed corpus, `fuzz/corpus/<target>/`.
//!
//! Run from the repository root after a change to the test vectors, the
//! datasets or the encoders:
//!
//! ```text
//! cargo run --release --manifest-path fuzz/Cargo.toml --example write_seeds
//! ```
//!
//! Decode targets get one [`Control::SEED`] byte and then a document: every
//! test vector of `docs/vectors/surp-v1.json` (valid, decode-only, dedup and
//! invalid), every dataset at ci scale, and a few derived records; dataset
//! documents are cut down (arrays, long strings and byte strings halved)
//! until they fit [`MAX_SEED`], so they stay complete documents. The structured targets get fixed pseudo-random bytes
//! for `arbitrary`.

use std::fs;
use std::path::{Path, PathBuf};

use arbitrary::{Arbitrary, Unstructured};
use serde_json::Value as Json;
use surp_datasets::{Dataset, Scale};
use surp_fuzz::{Borrowing, Control, Record};

/// The largest seed document: the corpus stays small, and libFuzzer's input
/// size limit (guessed from the corpus) stays near it.
const MAX_SEED: usize = 8 * 1024;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digits"))
        .collect()
}

/// A vector's `hex` field: a string, or segments with repeats.
fn hex_field(v: &Json) -> Vec<u8> {
    match v {
        Json::String(s) => hex(s),
        Json::Array(segments) => segments.iter().flat_map(hex_field).collect(),
        Json::Object(o) => {
            let unit = hex(o["repeat"].as_str().expect("a repeated hex string"));
            unit.repeat(o["count"].as_u64().expect("a count") as usize)
        }
        _ => panic!("bad hex field {v}"),
    }
}

/// `(name, document)` for every vector; long ones are cut to `MAX_SEED`
/// (their headers are what matters).
fn vectors(root: &Path) -> Vec<(String, Vec<u8>)> {
    let text = fs::read(root.join("docs/vectors/surp-v1.json")).expect("read the vectors");
    let json: Json = serde_json::from_slice(&text).expect("vectors are JSON");
    let mut out = Vec::new();
    for list in ["vectors", "decode_only", "dedup", "invalid"] {
        for (i, v) in json[list].as_array().expect("a list").iter().enumerate() {
            let mut doc = hex_field(&v["hex"]);
            doc.truncate(MAX_SEED);
            out.push((format!("{list}-{i:03}"), doc));
        }
    }
    out
}

/// Halves every array of more than one item in `v`, every map of more than
/// eight entries, and every string and byte string of more than 64 bytes
/// (binary_blobs has one record of 64 KiB).
fn halve(v: &mut surp_datasets::Value) {
    use surp_datasets::Value;
    match v {
        Value::Array(items) => {
            if items.len() > 1 {
                items.truncate(items.len() / 2);
            }
            items.iter_mut().for_each(halve);
        }
        Value::Map(entries) => {
            // Halved less eagerly than arrays: a record's fields are its shape.
            if entries.len() > 8 {
                entries.truncate(entries.len() / 2);
            }
            entries.iter_mut().for_each(|(_, v)| halve(v));
        }
        Value::Bytes(b) if b.len() > 64 => b.truncate(b.len() / 2),
        Value::String(s) if s.len() > 64 => {
            let mut cut = s.len() / 2;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
        }
        _ => {}
    }
}

/// Each dataset at ci scale, encoded by `encode`, cut down until it fits.
fn datasets(encode: fn(&surp_datasets::Value) -> Vec<u8>) -> Vec<(String, Vec<u8>)> {
    Dataset::ALL
        .iter()
        .map(|&dataset| {
            let mut value = dataset.load(Scale::Ci).expect("the dataset loads");
            let mut doc = encode(&value);
            while doc.len() > MAX_SEED {
                halve(&mut value);
                let smaller = encode(&value);
                assert!(
                    smaller.len() < doc.len(),
                    "{} does not shrink",
                    dataset.name()
                );
                doc = smaller;
            }
            (format!("dataset-{}", dataset.name()), doc)
        })
        .collect()
}

/// Deterministic pseudo-random bytes (xorshift64).
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// Inputs for the `arbitrary`-driven targets.
fn noise_inputs() -> Vec<(String, Vec<u8>)> {
    [(0, 0), (1, 64), (2, 256), (3, 1024), (4, 4096)]
        .iter()
        .map(|&(seed, len)| (format!("noise-{len}"), noise(seed, len)))
        .collect()
}

/// A few records, from all-zero and from pseudo-random bytes, and a
/// borrowing record.
fn records(encode: fn(&Record) -> Vec<u8>) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (seed, len) in [(0, 0), (5, 300), (6, 1200), (7, 2000)] {
        let bytes = if seed == 0 {
            vec![0; 64]
        } else {
            noise(seed, len)
        };
        let mut record = Record::arbitrary(&mut Unstructured::new(&bytes)).expect("a record");
        if record.prepare_for_round_trip() {
            out.push((format!("record-{seed}"), encode(&record)));
        }
    }
    let borrowing = Borrowing {
        name: "borrowed",
        payload: b"\x00\x01\x02\x03\x04\x05\x06\x07\x08",
        label: "a label".into(),
        words: vec!["alpha", "beta", "alpha", "gamma", "beta"],
        index: [("alpha", Some("first")), ("beta", None)]
            .into_iter()
            .collect(),
    };
    out.push(("borrowing".into(), surp_dedup::to_vec(&borrowing).unwrap()));
    out.push(("borrowing-plain".into(), surp::to_vec(&borrowing).unwrap()));
    out
}

fn write(dir: &Path, seeds: &[(String, Vec<u8>)], control: Option<u8>) {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).expect("create the corpus directory");
    for (name, doc) in seeds {
        let mut file = Vec::with_capacity(doc.len() + 1);
        file.extend(control);
        file.extend_from_slice(doc);
        fs::write(dir.join(name), file).expect("write a seed");
    }
}

fn main() {
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = fuzz
        .parent()
        .expect("fuzz/ is in the repository")
        .to_path_buf();
    let corpus = fuzz.join("corpus");

    let vectors = vectors(&root);
    let plain_datasets = datasets(|v| surp::to_vec(v).unwrap());
    let dedup_datasets = datasets(|v| surp_dedup::to_vec(v).unwrap());
    let plain_records = records(|r| surp::to_vec(r).unwrap());
    let dedup_records = records(|r| surp_dedup::to_vec(r).unwrap());

    let plain: Vec<_> = [&vectors, &plain_datasets]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let dedup: Vec<_> = [&vectors, &dedup_datasets]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let control = Some(Control::SEED);
    for target in ["decode_value", "decode_ignored"] {
        write(&corpus.join(target), &plain, control);
    }
    for target in ["dedup_decode_value", "dedup_decode_ignored"] {
        write(&corpus.join(target), &dedup, control);
    }
    let typed = |docs: &[(String, Vec<u8>)], records: &[(String, Vec<u8>)]| -> Vec<_> {
        docs.iter().chain(records).cloned().collect()
    };
    write(
        &corpus.join("decode_typed"),
        &typed(&plain, &plain_records),
        control,
    );
    write(
        &corpus.join("dedup_decode_typed"),
        &typed(&dedup, &dedup_records),
        control,
    );
    for target in ["roundtrip", "dedup_size"] {
        write(&corpus.join(target), &noise_inputs(), None);
    }
    println!("wrote {}", corpus.display());
}
