//! Deduplication tags in hostile documents, and in plain ones.

use serde::Deserialize;
use serde::de::IgnoredAny;
use surp::{ErrorKind, Options, Value, wire};

use crate::corruption::Event;
use crate::{both, error_within};

/// A one-byte shape reference in a plain document is an error wherever
/// it is met: decoded, or skipped as a value that no field wants (plain
/// documents are skipped by a loop of their own).
#[test]
fn a_one_byte_shape_reference_without_the_marker_is_an_error_even_when_skipped() {
    #[derive(Deserialize, Debug)]
    struct NoFields {}
    for tag in [wire::FIXSHAPE, wire::FIXSHAPE_LAST] {
        // {"x": <tag>}
        let input = [0xb1, 0x81, b'x', tag];
        let errors = [
            both::<NoFields>(&Options::new(), &input).map(|r| r.map(drop)),
            both::<IgnoredAny>(&Options::new(), &input).map(|r| r.map(drop)),
            both::<Value>(&Options::new(), &input).map(|r| r.map(drop)),
        ];
        for result in errors.into_iter().flatten() {
            let err = error_within(result, &input);
            assert_eq!(
                *err.kind(),
                ErrorKind::RefWithoutMarker,
                "{tag:#04x}: {err}"
            );
            assert_eq!(err.offset(), Some(3), "{tag:#04x}: {err}");
        }
    }
}

#[test]
fn hostile_deduplication_references_are_errors() {
    let s_abcd = [0x84, b'a', b'b', b'c', b'd'];
    let doc = |parts: &[&[u8]]| parts.concat();
    let cases: Vec<(&str, Vec<u8>, ErrorKind, usize)> = vec![
        (
            "string reference without the marker",
            doc(&[&[0xf3, 0x00]]),
            ErrorKind::RefWithoutMarker,
            0,
        ),
        (
            "string reference as a map key without the marker",
            doc(&[&[0xb1, 0xf3, 0x00, 0x01]]),
            ErrorKind::RefWithoutMarker,
            1,
        ),
        (
            "shape reference without the marker",
            doc(&[&[0xa1, 0xf6, 0x00]]),
            ErrorKind::RefWithoutMarker,
            1,
        ),
        (
            "one-byte shape reference without the marker",
            doc(&[&[0xa1, wire::FIXSHAPE_LAST]]),
            ErrorKind::RefWithoutMarker,
            1,
        ),
        (
            "reference to an undefined slot",
            doc(&[&[0xf2, 0xf3, 0x00]]),
            ErrorKind::UnknownStringRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            1,
        ),
        (
            "reference to a 3-byte slot index",
            doc(&[&[0xf2, 0xf5, 0xff, 0xff, 0xff]]),
            ErrorKind::UnknownStringRef {
                index: 0xff_ffff,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            1,
        ),
        (
            "forward reference to the next literal",
            doc(&[&[0xf2, 0xa2, 0xf3, 0x00], &s_abcd]),
            ErrorKind::UnknownStringRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            2,
        ),
        (
            "reference past the defined slots",
            doc(&[&[0xf2, 0xa2], &s_abcd, &[0xf3, 0x01]]),
            ErrorKind::UnknownStringRef {
                index: 1,
                defined: 1,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            7,
        ),
        (
            "a short literal takes no slot",
            doc(&[&[0xf2, 0xa2, 0x81, b'a', 0xf3, 0x00]]),
            ErrorKind::UnknownStringRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_STRINGS,
            },
            4,
        ),
        (
            "reference to an undefined shape",
            doc(&[&[0xf2, 0xf6, 0x00]]),
            ErrorKind::UnknownShapeRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_SHAPES,
            },
            1,
        ),
        (
            "a map referring to its own shape before it ends",
            doc(&[&[0xf2, 0xb1], &s_abcd, &[0xf6, 0x00, 0x01]]),
            ErrorKind::UnknownShapeRef {
                index: 0,
                defined: 0,
                limit: surp::DEFAULT_MAX_DEDUP_SHAPES,
            },
            7,
        ),
        (
            "a 2-byte shape index past the defined shapes",
            doc(&[
                &[0xf2, 0xa2, 0xb1],
                &s_abcd,
                &[0x01, 0xf7, 0x01, 0x00, 0x02],
            ]),
            ErrorKind::UnknownShapeRef {
                index: 1,
                defined: 1,
                limit: surp::DEFAULT_MAX_DEDUP_SHAPES,
            },
            9,
        ),
        (
            "marker inside an array",
            doc(&[&[0xa1, 0xf2]]),
            ErrorKind::MisplacedDedupMarker,
            1,
        ),
        (
            "marker twice",
            doc(&[&[0xf2, 0xf2, 0x00]]),
            ErrorKind::MisplacedDedupMarker,
            1,
        ),
        (
            "marker as a map key",
            doc(&[&[0xb1, 0xf2, 0x00]]),
            ErrorKind::MisplacedDedupMarker,
            1,
        ),
        ("marker alone", doc(&[&[0xf2]]), ErrorKind::UnexpectedEof, 1),
    ];
    for (name, input, kind, at) in cases {
        let err = error_within(surp::from_slice::<Value>(&input), &input);
        assert_eq!(*err.kind(), kind, "{name}: {err}");
        assert_eq!(err.offset(), Some(at), "{name}: {err}");
        // A reader meets the marker only when it reads the first value, so
        // errors in that value are placed at the marker (byte 0).
        let err = error_within(surp::from_reader::<_, Value>(&input[..]), &input);
        assert_eq!(*err.kind(), kind, "{name}: {err}");
        for result in both::<IgnoredAny>(&Options::new(), &input) {
            error_within(result, &input);
        }
        for result in both::<Event>(&Options::new(), &input) {
            error_within(result, &input);
        }
    }
    let truncated = [0xf2, 0xf4, 0x00];
    for result in both::<Value>(&Options::new(), &truncated) {
        assert!(error_within(result, &truncated).is_eof());
    }
}

#[test]
fn well_formed_deduplicated_documents_decode_in_plain_surp() {
    // Controls for the hostile cases: a string reference and a shape reference.
    let strings = [0xf2, 0xa2, 0x84, b'a', b'b', b'c', b'd', 0xf3, 0x00];
    let shapes = [
        0xf2, 0xa2, 0xb1, 0x84, b'a', b'b', b'c', b'd', 0x01, 0xf6, 0x00, 0x02,
    ];
    let expected_strings = Value::Array(vec!["abcd".into(), "abcd".into()]);
    let expected_shapes = Value::Array(vec![
        Value::Map(vec![("abcd".into(), 1.into())]),
        Value::Map(vec![("abcd".into(), 2.into())]),
    ]);
    for (input, expected) in [
        (&strings[..], expected_strings),
        (&shapes[..], expected_shapes),
    ] {
        for result in both::<Value>(&Options::new(), input) {
            assert_eq!(result.unwrap(), expected);
        }
        for result in both::<IgnoredAny>(&Options::new(), input) {
            result.unwrap();
        }
    }
}

#[test]
fn deduplication_tables_stop_at_their_limits() {
    let input = [
        &[0xf2, 0xa3][..],
        &[0x84, b'a', b'b', b'c', b'd'],
        &[0x84, b'e', b'f', b'g', b'h'],
        &[0xf3, 0x01],
    ]
    .concat();
    for result in both::<Value>(&Options::new(), &input) {
        assert_eq!(result.unwrap()[2], Value::from("efgh"));
    }
    for result in both::<Value>(&Options::new().max_dedup_strings(1), &input) {
        let err = error_within(result, &input);
        assert_eq!(
            *err.kind(),
            ErrorKind::UnknownStringRef {
                index: 1,
                defined: 1,
                limit: 1
            }
        );
        assert!(
            err.to_string()
                .contains("beyond this decoder's limit of 1 slot (Options::max_dedup_strings)"),
            "{err}"
        );
    }
    let shapes = [
        0xf2, 0xa3, 0xb1, 0x84, b'a', b'b', b'c', b'd', 0x01, 0xb1, 0x84, b'e', b'f', b'g', b'h',
        0x02, 0xf6, 0x01, 0x03,
    ];
    for result in both::<Value>(&Options::new(), &shapes) {
        assert_eq!(result.unwrap()[2]["efgh"], Value::from(3));
    }
    for result in both::<Value>(&Options::new().max_dedup_shapes(1), &shapes) {
        let err = error_within(result, &shapes);
        assert_eq!(
            *err.kind(),
            ErrorKind::UnknownShapeRef {
                index: 1,
                defined: 1,
                limit: 1
            }
        );
        assert!(
            err.to_string()
                .contains("beyond this decoder's limit of 1 shape (Options::max_dedup_shapes)"),
            "{err}"
        );
    }
}

#[test]
fn a_reference_bomb_is_stopped_by_the_allocation_limit() {
    // One 1000-byte string referenced 1000 times expands to 1 MB from 3 KB.
    let mut input = vec![0xf2, wire::ARRAY8 + 1];
    input.extend_from_slice(&1001u16.to_le_bytes());
    input.push(wire::STR8 + 1);
    input.extend_from_slice(&1000u16.to_le_bytes());
    input.extend_from_slice(&[b'x'; 1000]);
    for _ in 0..1000 {
        input.extend_from_slice(&[0xf3, 0x00]);
    }
    for result in both::<Value>(&Options::new(), &input) {
        let v = result.unwrap();
        assert_eq!(v.as_array().map(Vec::len), Some(1001));
    }
    let limited = Options::new().max_alloc(100_000);
    for result in both::<Value>(&limited, &input) {
        let err = error_within(result, &input);
        assert_eq!(*err.kind(), ErrorKind::AllocationLimitExceeded(100_000));
    }
}

/// Found by the CLI's differential test: in a deduplicated document, invalid
/// UTF-8 in an explicit map's key literal was placed at the key's tag byte.
#[test]
fn invalid_utf8_in_a_dedup_map_key_is_placed_at_the_bad_byte() {
    let plain =
        surp::from_slice::<surp::Value>(&[0xb1, 0x84, b'n', b'a', b'm', 0x84, 0x01]).unwrap_err();
    let dedup = surp::from_slice::<surp::Value>(&[0xf2, 0xb1, 0x84, b'n', b'a', b'm', 0x84, 0x01])
        .unwrap_err();
    assert_eq!(*plain.kind(), surp::ErrorKind::InvalidUtf8);
    assert_eq!(*dedup.kind(), surp::ErrorKind::InvalidUtf8);
    assert_eq!(plain.offset(), Some(5));
    assert_eq!(dedup.offset(), Some(6));
}
