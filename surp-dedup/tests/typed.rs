//! Typed data takes the encoder's paths for derived types: struct fields
//! checked against a shape as constants, enum variant names found in the
//! string table by their address. None of that may change a byte: the
//! deduplicated encoding of a typed value must be exactly that of the same
//! document as a dynamic `surp::Value` (whose strings and keys go through
//! the general paths).

use serde::Serialize;
use surp_datasets::Scale;
use surp_datasets::typed::{TypedDataset, TypedValue};

fn typed_and_dynamic<T: Serialize>(value: &T) -> (Vec<u8>, Vec<u8>) {
    let typed = surp_dedup::to_vec(value).expect("encodes");
    let dynamic: surp::Value =
        surp::from_slice(&surp::to_vec(value).expect("encodes")).expect("decodes");
    (typed, surp_dedup::to_vec(&dynamic).expect("encodes"))
}

#[test]
fn every_typed_dataset_encodes_as_its_dynamic_document() {
    for dataset in [
        TypedDataset::Log,
        TypedDataset::Mesh,
        TypedDataset::GameSave,
        TypedDataset::GameUpdates,
        TypedDataset::World,
        TypedDataset::ScanMesh,
        TypedDataset::RequestLog,
    ] {
        let (typed, dynamic) = match dataset.generate(Scale::Ci) {
            TypedValue::Log(v) => typed_and_dynamic(&v),
            TypedValue::Mesh(v) => typed_and_dynamic(&v),
            TypedValue::GameSave(v) => typed_and_dynamic(&v),
            TypedValue::GameUpdates(v) => typed_and_dynamic(&v),
            TypedValue::World(v) => typed_and_dynamic(&v),
            TypedValue::ScanMesh(v) => typed_and_dynamic(&v),
            TypedValue::RequestLog(v) => typed_and_dynamic(&v),
        };
        assert!(
            typed == dynamic,
            "{}: typed {} bytes, dynamic {} bytes",
            dataset.name(),
            typed.len(),
            dynamic.len()
        );
    }
}

#[derive(Serialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Debug,
    Warning,
    Critical,
}

#[derive(Serialize)]
enum Event {
    Unit,
    Newtype(Level),
    Tuple(Level, u8),
    Struct {
        level: Level,
        // Field names of 9 to 16 bytes and of more than 16 (whose middle is
        // compared with the shape's copy).
        code_number: u16,
        a_field_name_longer_than_sixteen_bytes: bool,
    },
}

#[test]
fn repeated_variant_names_become_references_in_every_position() {
    // Unit variants as values, as newtype and tuple contents, in struct
    // variants and as map keys; the names repeat, in changing order.
    let levels = [Level::Debug, Level::Warning, Level::Critical];
    let events: Vec<Event> = (0..60)
        .map(|i| {
            let level = levels[(i * 7 / 3) % 3];
            match i % 4 {
                0 => Event::Unit,
                1 => Event::Newtype(level),
                2 => Event::Tuple(level, i as u8),
                _ => Event::Struct {
                    level,
                    code_number: i as u16,
                    a_field_name_longer_than_sixteen_bytes: i % 3 == 0,
                },
            }
        })
        .collect();
    let keyed: std::collections::BTreeMap<u8, Vec<(u8, Level)>> = (0..5u8)
        .map(|k| {
            (
                k,
                (0..4)
                    .map(|j| (j, levels[usize::from(j + k) % 3]))
                    .collect(),
            )
        })
        .collect();
    let (typed, dynamic) = typed_and_dynamic(&(&events, &keyed));
    assert_eq!(typed, dynamic);
    let plain = surp::to_vec(&(&events, &keyed)).unwrap();
    assert!(
        typed.len() < plain.len() / 2,
        "the names are written once each: {} against {} plain",
        typed.len(),
        plain.len()
    );
}
