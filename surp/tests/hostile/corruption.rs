//! Random corruption: bit flips, byte replacements and splices of valid
//! documents, and arbitrary bytes, decoded every way there is.

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::sample::Index;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use surp::{Options, Value};

use crate::{both, common};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Change {
    Created,
    Renamed(String),
    Moved { from: (i32, i32), to: (i32, i32) },
    Scaled(u8, Option<f32>),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub(crate) struct Event {
    id: u64,
    change: Change,
    name: String,
    #[serde(with = "serde_bytes")]
    payload: Vec<u8>,
    tags: BTreeMap<String, i64>,
    score: Option<Option<f64>>,
    history: Vec<(u16, Change)>,
    wide: i128,
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        Just(Change::Created),
        common::string().prop_map(Change::Renamed),
        any::<[i32; 4]>().prop_map(|[a, b, c, d]| Change::Moved {
            from: (a, b),
            to: (c, d)
        }),
        (any::<u8>(), any::<Option<f32>>()).prop_map(|(a, b)| Change::Scaled(a, b)),
    ]
}

fn event() -> impl Strategy<Value = Event> {
    (
        any::<u64>(),
        change(),
        common::string(),
        common::bytes(),
        prop::collection::btree_map(common::string(), any::<i64>(), 0..6),
        any::<Option<Option<f64>>>(),
        prop::collection::vec((any::<u16>(), change()), 0..6),
        common::integer().prop_map(|i| i128::try_from(i).unwrap_or(i128::MAX)),
    )
        .prop_map(
            |(id, change, name, payload, tags, score, history, wide)| Event {
                id,
                change,
                name,
                payload,
                tags,
                score,
                history,
                wide,
            },
        )
}

/// Encoded documents to corrupt: dynamic values and typed records.
fn document() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        common::value().prop_map(|v| surp::to_vec(&v).unwrap()),
        event().prop_map(|e| surp::to_vec(&e).unwrap()),
    ]
}

/// Decodes corrupted `input` every way there is. Each must end in `Ok` or an
/// `Err` placed inside the input; the slice and reader paths must agree.
fn decode_every_way(input: &[u8]) -> Result<(), TestCaseError> {
    let opts = Options::new();
    let [slice, reader] = both::<Value>(&opts, input);
    match (&slice, &reader) {
        (Ok(a), Ok(b)) => prop_assert!(common::same_bits(a, b), "{a} vs {b}"),
        (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "slice {slice:?} but reader {reader:?}"),
    }
    let [skip_slice, skip_reader] = both::<IgnoredAny>(&opts, input);
    prop_assert_eq!(skip_slice.is_ok(), skip_reader.is_ok());
    // Skipping checks less than decoding (no UTF-8, no depth), never more.
    if slice.is_ok() {
        prop_assert!(skip_slice.is_ok(), "decodes as a Value but does not skip");
    }
    let [event_slice, event_reader] = both::<Event>(&opts, input);
    prop_assert_eq!(event_slice.is_ok(), event_reader.is_ok());
    let json: surp::Result<serde_json::Value> = surp::from_slice(input);
    for err in [
        slice.err(),
        reader.err(),
        skip_slice.err(),
        skip_reader.err(),
        event_slice.err(),
        event_reader.err(),
        json.err(),
    ]
    .into_iter()
    .flatten()
    {
        let offset = err.offset();
        prop_assert!(
            offset.is_some_and(|o| o <= input.len()),
            "error {err} has offset {offset:?} for {} bytes",
            input.len()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn random_bit_flips_give_ok_or_err_never_a_panic(
        doc in document(),
        flips in prop::collection::vec((any::<Index>(), 0u8..8), 1..6),
    ) {
        let mut input = doc;
        for (at, bit) in flips {
            let at = at.index(input.len());
            input[at] ^= 1 << bit;
        }
        decode_every_way(&input)?;
    }

    #[test]
    fn random_byte_replacements_give_ok_or_err_never_a_panic(
        doc in document(),
        replacements in prop::collection::vec((any::<Index>(), any::<u8>()), 1..6),
    ) {
        let mut input = doc;
        for (at, byte) in replacements {
            let at = at.index(input.len());
            input[at] = byte;
        }
        decode_every_way(&input)?;
    }

    #[test]
    fn random_splices_give_ok_or_err_never_a_panic(
        doc in document(),
        at in any::<Index>(),
        cut in 0usize..4,
        inserted in prop::collection::vec(any::<u8>(), 0..12),
    ) {
        let mut input = doc;
        let at = at.index(input.len());
        let end = (at + cut).min(input.len());
        input.splice(at..end, inserted);
        decode_every_way(&input)?;
    }

    #[test]
    fn arbitrary_bytes_give_ok_or_err_never_a_panic(
        input in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        decode_every_way(&input)?;
    }
}
