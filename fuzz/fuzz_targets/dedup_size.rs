//! The deduplication size invariant (spec section 7.3): for arbitrary values
//! and records, with default and with small tables, the deduplicated
//! document is never longer than the plain one, is the plain one when it has
//! no marker, and decodes to the same value.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use surp::Value;
use surp_fuzz::decode::check_never_longer;
use surp_fuzz::{ArbValue, Record, same_bits};

#[derive(Arbitrary, Debug)]
struct Input {
    value: ArbValue,
    /// Copies of the value in one array, so that its strings and maps repeat.
    copies: u8,
    records: Vec<Record>,
    /// Table sizes; `None` keeps the defaults.
    tables: Option<(u16, u16)>,
}

fuzz_target!(|input: Input| {
    let Input {
        value: ArbValue(value),
        copies,
        mut records,
        tables,
    } = input;
    let options = match tables {
        Some((strings, shapes)) => surp_dedup::Options::new()
            .max_dedup_strings(usize::from(strings % 512))
            .max_dedup_shapes(usize::from(shapes % 64)),
        None => surp_dedup::Options::new(),
    };

    let repeated = Value::Array(vec![value; usize::from(copies % 4) + 1]);
    let plain = surp::to_vec(&repeated).expect("a value encodes");
    let dedup = options
        .to_vec(&repeated)
        .expect("a value encodes with dedup");
    check_never_longer(&plain, &dedup);
    let back: Value = options
        .from_slice(&dedup)
        .expect("decodes with the encoder's tables");
    assert!(same_bits(&back, &repeated), "{back:?} for {repeated:?}");
    // The default decoder's tables are at least as large as any here.
    let back: Value = surp::from_slice(&dedup).expect("decodes with the default tables");
    assert!(same_bits(&back, &repeated), "{back:?} for {repeated:?}");

    if records.iter_mut().all(Record::prepare_for_round_trip) {
        let plain = surp::to_vec(&records).expect("records encode");
        let dedup = options.to_vec(&records).expect("records encode with dedup");
        check_never_longer(&plain, &dedup);
        let back: Vec<Record> = options.from_slice(&dedup).expect("records decode");
        assert_eq!(surp::to_vec(&back).unwrap(), plain);
    }
});
