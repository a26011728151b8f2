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
//! test vector of `docs/vectors/surp-v2.json` (valid, decode-only, dedup,
//! deep and invalid; not `dedup_large`, whose document is 384 KiB), every
//! dataset at ci scale, and a few derived records; dataset documents are cut
//! down (arrays, long strings and byte strings halved) until they fit
//! [`MAX_SEED`], so they stay complete documents. The structured targets get
//! fixed pseudo-random bytes for `arbitrary`; `session_stream` gets sessions
//! of log records and dataset items in its decode mode, under each of its
//! settings and broken in each way a session can break, and pseudo-random
//! bytes in its encode mode.

use std::fs;
use std::path::{Path, PathBuf};

use arbitrary::{Arbitrary, Unstructured};
use serde_json::Value as Json;
use surp_datasets::{Dataset, Scale};
use surp_dedup::SessionOptions;
use surp_fuzz::session::{self, decode_control, decode_options};
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
    let text = fs::read(root.join("docs/vectors/surp-v2.json")).expect("read the vectors");
    let json: Json = serde_json::from_slice(&text).expect("vectors are JSON");
    let mut out = Vec::new();
    for list in ["vectors", "decode_only", "dedup", "deep", "invalid"] {
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

/// The input classes of issue 19's failures, cut to fit [`MAX_SEED`]:
/// reference bombs, references to a non-ASCII string, a string claiming
/// 2^64 - 1 bytes in a field to skip, a truncated string, errors at the
/// root of a deduplicated document.
fn issue19() -> Vec<(String, Vec<u8>)> {
    use surp::__private::wire::{self, Kind};
    let refs_to = |text: &str, refs: usize| {
        let mut doc = vec![wire::DEDUP_MARKER];
        wire::write_header(&mut doc, Kind::Array, refs + 1).unwrap();
        wire::write_str(&mut doc, text).unwrap();
        for _ in 0..refs {
            doc.extend_from_slice(&[wire::STR_REF1, 0x00]);
        }
        doc
    };
    let mut skipped = vec![wire::FIXMAP | 2];
    wire::write_str(&mut skipped, "x").unwrap();
    skipped.push(wire::STR8 + 3);
    skipped.extend_from_slice(&u64::MAX.to_le_bytes());
    skipped.extend_from_slice(&[0; 64]);
    let mut truncated = vec![wire::STR8 + 2];
    truncated.extend_from_slice(&(1u32 << 29).to_le_bytes());
    truncated.extend_from_slice(&[b'a'; 12]);
    vec![
        ("issue19-bomb".into(), refs_to(&"x".repeat(2000), 3000)),
        (
            "issue19-non-ascii-refs".into(),
            refs_to(&"\u{e9}".repeat(1000), 3000),
        ),
        ("issue19-skip-claim".into(), skipped),
        ("issue19-truncated-string".into(), truncated),
        (
            "issue19-root-reserved".into(),
            vec![wire::DEDUP_MARKER, wire::RESERVED],
        ),
        (
            "issue19-root-cut".into(),
            vec![wire::DEDUP_MARKER, wire::STR8, 9, b'a'],
        ),
    ]
}

/// Streams of documents for the stream target: documents of the issue
/// back to back, vectors and records one after another, plain and
/// deduplicated alternately.
fn streams(
    vectors: &[(String, Vec<u8>)],
    plain_records: &[(String, Vec<u8>)],
    dedup_records: &[(String, Vec<u8>)],
) -> Vec<(String, Vec<u8>)> {
    use surp::wire;
    let dedup = issue19()[0].1.clone();
    let mut out = vec![
        ("two-dedup".into(), [&dedup[..], &dedup[..]].concat()),
        (
            "ref-after-dedup".into(),
            [&dedup[..], &[wire::STR_REF1, 0x00]].concat(),
        ),
        (
            "strings".into(),
            surp::to_vec(&"x".repeat(20)).unwrap().repeat(100),
        ),
    ];
    let mut all = Vec::new();
    for (_, doc) in vectors.iter().take(200) {
        if surp::from_slice::<surp::Value>(doc).is_ok() && all.len() + doc.len() <= MAX_SEED {
            all.extend_from_slice(doc);
        }
    }
    out.push(("vectors".into(), all));
    let mut mixed = Vec::new();
    for ((_, p), (_, d)) in plain_records.iter().zip(dedup_records) {
        if mixed.len() + p.len() + d.len() <= MAX_SEED {
            mixed.extend_from_slice(p);
            mixed.extend_from_slice(d);
        }
    }
    out.push(("records".into(), mixed));
    out.extend(issue19());
    out
}

/// The documents of one session: its header and a message for each of
/// `values` (a reset before message `reset_at`, if any), as many as fit in
/// [`MAX_SEED`] bytes.
fn session_docs<T: serde::Serialize>(
    options: &SessionOptions,
    values: &[T],
    reset_at: Option<usize>,
) -> Vec<Vec<u8>> {
    let mut encoder = options.encoder();
    let mut docs = vec![encoder.header()];
    let mut len = docs[0].len() + 2;
    for (i, value) in values.iter().enumerate() {
        if reset_at == Some(i) {
            encoder.reset();
        }
        let message = encoder.encode(value).expect("a value encodes");
        len += message.len() + 2;
        if len > MAX_SEED {
            break;
        }
        docs.push(message);
    }
    docs
}

fn session_seed(control: u8, docs: &[Vec<u8>]) -> Vec<u8> {
    let mut seed = vec![control];
    session::write_docs(&mut seed, docs);
    seed
}

/// Seeds for `session_stream`. Decode mode: the access-log records of
/// `surp-datasets` as one session under each setting of the first byte, and
/// broken in each way the decoder must refuse; the items of every dataset
/// at ci scale as messages. Encode mode: pseudo-random bytes.
fn sessions() -> Vec<(String, Vec<u8>)> {
    use surp_datasets::typed::{TypedDataset, TypedValue};
    let TypedValue::Log(log) = TypedDataset::Log.generate(Scale::Ci) else {
        unreachable!("the log dataset is a log")
    };
    let records = &log.records;
    let mut out = Vec::new();
    let mut add = |name: &str, control: u8, docs: &[Vec<u8>]| {
        out.push((format!("decode-{name}"), session_seed(control, docs)));
    };
    // Limits 0 (the defaults), budget 0, no dictionary, whole.
    let plain = decode_control(0, 0, false, false);
    let log = session_docs(&decode_options(plain), records, None);
    add("log", plain, &log);
    for (name, control) in [
        ("log-small-budget", decode_control(0, 1, false, false)),
        ("log-no-budget", decode_control(0, 2, false, false)),
        ("log-large-budget", decode_control(0, 3, false, false)),
        ("log-dictionary", decode_control(0, 0, true, false)),
        (
            "log-dictionary-no-budget",
            decode_control(0, 2, true, false),
        ),
        ("log-trickle", decode_control(0, 0, false, true)),
        ("log-tight-limits", decode_control(7, 0, false, false)),
        ("log-small-alloc", decode_control(4, 1, true, false)),
    ] {
        add(
            name,
            control,
            &session_docs(&decode_options(control), records, None),
        );
    }
    add(
        "log-reset",
        plain,
        &session_docs(&decode_options(plain), records, Some(5)),
    );

    // Broken sessions.
    add("no-header", plain, &log[1..]);
    let mut swapped = log.clone();
    swapped.swap(2, 3);
    add("out-of-order", plain, &swapped);
    let mut replayed = log.clone();
    replayed.insert(3, log[2].clone());
    add("replayed", plain, &replayed);
    add("second-header", plain, &[&log[..3], &log[..1]].concat());
    let mut cut = log[..4].to_vec();
    cut[3].pop();
    add("cut-message", plain, &cut);
    let too_large = SessionOptions::new().budget(1 << 20, 16, 4096);
    add(
        "budget-too-large",
        plain,
        &session_docs(&too_large, &records[..4], None),
    );
    let with_dictionary = decode_options(decode_control(0, 0, true, false));
    add(
        "wrong-dictionary",
        plain,
        &session_docs(&with_dictionary, &records[..4], None),
    );

    // The items of every dataset as messages.
    let wide = decode_control(0, 3, false, false);
    for dataset in Dataset::ALL {
        let value = dataset.load(Scale::Ci).expect("the dataset loads");
        let items = match value {
            surp_datasets::Value::Array(items) => items,
            other => vec![other],
        };
        let docs = session_docs(&decode_options(wide), &items, None);
        if docs.len() > 1 {
            add(&format!("dataset-{}", dataset.name()), wide, &docs);
        }
    }

    // Encode mode: bit 0 of the first byte set.
    for (name, mut bytes) in noise_inputs() {
        if bytes.is_empty() {
            bytes.push(0);
        }
        bytes[0] |= 1;
        out.push((format!("encode-{name}"), bytes));
    }
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

    let issue19 = issue19();
    let plain: Vec<_> = [&vectors, &plain_datasets, &issue19]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let dedup: Vec<_> = [&vectors, &dedup_datasets, &issue19]
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
    write(
        &corpus.join("stream"),
        &streams(&vectors, &plain_records, &dedup_records),
        control,
    );
    for target in ["roundtrip", "dedup_size"] {
        write(&corpus.join(target), &noise_inputs(), None);
    }
    write(&corpus.join("session_stream"), &sessions(), None);
    println!("wrote {}", corpus.display());
}
