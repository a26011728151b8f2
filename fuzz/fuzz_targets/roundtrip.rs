//! Structured round trip: an arbitrary `surp::Value` and an arbitrary derived
//! `Record` are encoded with `surp` and with `surp_dedup` (the value also with
//! string deduplication off), decoded from a slice and from a reader, and
//! must come back bit for bit (floats by their bits, so `-0.0` and NaN
//! payloads count). The value's arrays and maps, serialized as collections of
//! unknown length, must encode to the same bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;
use surp::Value;
use surp_fuzz::decode::check_never_longer;
use surp_fuzz::record::check_record_round_trips;
use surp_fuzz::{ArbValue, Record, UnknownLengths, same_bits};

#[derive(Arbitrary, Debug)]
struct Input {
    value: ArbValue,
    record: Record,
}

fn decodes_to(bytes: &[u8], expected: &Value) {
    let from_slice: Value = surp::from_slice(bytes).expect("decodes from a slice");
    assert!(
        same_bits(&from_slice, expected),
        "slice gave {from_slice:?} for {expected:?}"
    );
    let from_reader: Value = surp::from_reader(bytes).expect("decodes from a reader");
    assert!(
        same_bits(&from_reader, expected),
        "reader gave {from_reader:?} for {expected:?}"
    );
    let via_dedup: Value = surp_dedup::from_reader(bytes).expect("surp_dedup decodes it too");
    assert!(
        same_bits(&via_dedup, expected),
        "surp_dedup gave {via_dedup:?} for {expected:?}"
    );
    surp::from_slice::<IgnoredAny>(bytes).expect("skips");
}

fuzz_target!(|input: Input| {
    let Input {
        value: ArbValue(value),
        mut record,
    } = input;
    let plain = surp::to_vec(&value).expect("a value encodes");
    decodes_to(&plain, &value);
    let dedup = surp_dedup::to_vec(&value).expect("a value encodes with dedup");
    check_never_longer(&plain, &dedup);
    decodes_to(&dedup, &value);
    // Collections of unknown length encode to the same bytes, to a `Vec`
    // and through a writer.
    let unknown = UnknownLengths(&value);
    assert_eq!(surp::to_vec(&unknown).expect("encodes"), plain);
    let mut written = Vec::new();
    surp::to_writer(std::io::BufWriter::new(&mut written), &unknown).expect("writes");
    assert_eq!(written, plain);
    assert_eq!(
        surp_dedup::to_vec(&unknown).expect("encodes with dedup"),
        dedup
    );
    // Shapes only: never longer than plain either, and read by any decoder.
    let shapes_only = surp_dedup::Options::new().dedup_strings(false);
    let shapes = shapes_only
        .to_vec(&value)
        .expect("a value encodes shapes only");
    check_never_longer(&plain, &shapes);
    decodes_to(&shapes, &value);
    assert_eq!(
        shapes_only.to_vec(&unknown).expect("encodes shapes only"),
        shapes
    );

    if record.prepare_for_round_trip() {
        check_record_round_trips(&record);
        let back: Record = surp::from_reader(&surp::to_vec(&record).unwrap()[..]).unwrap();
        assert_eq!(surp::to_vec(&back).unwrap(), surp::to_vec(&record).unwrap());
    }
});
