//! Decode errors say where in the value they happened (the path), place
//! serde's own messages at a byte offset, and say when the input is JSON.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Order {
    id: u64,
    customer: Customer,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Customer {
    name: String,
    email: String,
}

fn orders(bad_email: serde_json::Value) -> Vec<u8> {
    let good =
        serde_json::json!({"id": 1, "customer": {"name": "Ada", "email": "ada@example.com"}});
    let bad = serde_json::json!({"id": 4, "customer": {"name": "Bob", "email": bad_email}});
    surp::to_vec(&serde_json::json!({
        "orders": [good.clone(), good.clone(), good, bad]
    }))
    .unwrap()
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Orders {
    orders: Vec<Order>,
}

#[test]
fn a_type_error_names_the_path_to_the_failing_field() {
    let bytes = orders(serde_json::json!(1200));
    let err = surp::from_slice::<Orders>(&bytes).unwrap_err();
    assert_eq!(err.path(), Some("orders[3].customer.email"));
    let offset = err.offset().expect("placed at a byte");
    assert_eq!(
        err.to_string(),
        format!(
            "invalid type: integer `1200`, expected a string at byte {offset}, in \
             orders[3].customer.email"
        )
    );
    // The offset is the failing value's: 1200 is written as uint tag + 2 bytes.
    assert_eq!(
        &bytes[offset..offset + 3],
        &surp::to_vec(&1200u32).unwrap()[..]
    );
}

#[test]
fn a_malformed_document_gets_the_path_too() {
    let mut bytes = orders(serde_json::json!("bob@example.com"));
    // Cut inside the last email: its declared length runs past the end.
    let at = bytes
        .windows(15)
        .position(|w| w == b"bob@example.com")
        .unwrap();
    bytes.truncate(at + 5);
    let err = surp::from_slice::<Orders>(&bytes).unwrap_err();
    assert_eq!(err.path(), Some("orders[3].customer.email"));
    assert_eq!(err.offset(), Some(at - 1), "at the string's tag");
    assert_eq!(err.classify(), surp::Category::Eof);
}

#[test]
fn an_error_at_the_root_has_no_path() {
    let err = surp::from_slice::<u8>(&surp::to_vec(&"x").unwrap()).unwrap_err();
    assert_eq!(err.path(), None);
    assert_eq!(
        err.to_string(),
        "invalid type: string \"x\", expected u8 at byte 0"
    );
    let err = surp::from_slice::<u8>(&[0x01, 0x02]).unwrap_err();
    assert_eq!(err.path(), None, "trailing bytes are after the value");
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(untagged)]
enum IdOrName {
    Id(u64),
    Name(String),
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Account {
    owner: IdOrName,
}

#[test]
fn an_untagged_enum_that_matches_no_variant_is_placed_at_its_value() {
    let bytes = surp::to_vec(&serde_json::json!({"owner": [1, 2]})).unwrap();
    let err = surp::from_slice::<Account>(&bytes).unwrap_err();
    // 0xb1 (a map of 1), "owner" (1 + 5 bytes): the array starts at byte 7.
    assert_eq!(err.offset(), Some(7));
    assert_eq!(err.path(), Some("owner"));
    assert_eq!(
        err.to_string(),
        "data did not match any variant of untagged enum IdOrName at byte 7, in owner"
    );
    // The same in a sequence.
    let bytes = surp::to_vec(&serde_json::json!([7, "x", true])).unwrap();
    let err = surp::from_slice::<Vec<IdOrName>>(&bytes).unwrap_err();
    assert_eq!(err.offset(), Some(4));
    assert_eq!(err.path(), Some("[2]"));
}

#[test]
fn json_input_gets_a_hint() {
    for json in [
        &b"{\"name\": \"surp\"}"[..],
        b"  {\n  \"a\": 1\n}",
        b"[1, 2, 3]",
        b"[{\"a\": 1}]",
    ] {
        let err = surp::from_slice::<surp::Value>(json).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("(the input looks like JSON text, not a Surp document)"),
            "{err}"
        );
    }
    // Surp input is not taken for JSON.
    let err = surp::from_slice::<surp::Value>(&[0xa3, 0x01]).unwrap_err();
    assert!(!err.to_string().contains("JSON"), "{err}");
}

/// The documents of the tests above, each failing in another way: a type
/// error, a truncation, invalid UTF-8, JSON given for Surp.
fn failing_documents() -> Vec<(&'static str, Vec<u8>)> {
    let type_error = orders(serde_json::json!(1200));
    let mut truncated = orders(serde_json::json!("bob@example.com"));
    let at = truncated
        .windows(15)
        .position(|w| w == b"bob@example.com")
        .unwrap();
    truncated.truncate(at + 5);
    let mut bad_utf8 = orders(serde_json::json!("bob@example.com"));
    bad_utf8[at + 3] = 0xff;
    vec![
        ("type error", type_error),
        ("truncated", truncated),
        ("invalid UTF-8", bad_utf8),
        ("JSON", b"{\"orders\": []}".to_vec()),
    ]
}

#[test]
fn a_reader_reports_what_a_slice_reports_path_included() {
    for (what, bytes) in failing_documents() {
        let from_slice = surp::from_slice::<Orders>(&bytes).unwrap_err();
        let from_reader = surp::from_reader::<_, Orders>(&bytes[..]).unwrap_err();
        assert_eq!(from_reader.kind(), from_slice.kind(), "{what}");
        assert_eq!(from_reader.offset(), from_slice.offset(), "{what}");
        assert_eq!(from_reader.path(), from_slice.path(), "{what}");
        if what != "JSON" {
            assert_eq!(from_reader.to_string(), from_slice.to_string(), "{what}");
        }
    }
    let type_error = surp::from_reader::<_, Orders>(&orders(serde_json::json!(1200))[..]);
    assert_eq!(
        type_error.unwrap_err().path(),
        Some("orders[3].customer.email")
    );
}

mod common;

/// The stack the hostile tests give a decode at the full depth limit.
const SMALL_STACK_KIB: usize = if cfg!(debug_assertions) { 1024 } else { 256 };

/// `depth` arrays of one item around a 2-byte string with invalid UTF-8.
fn bad_string_at_depth(depth: usize) -> Vec<u8> {
    let mut bytes = vec![0xa1; depth];
    bytes.extend([0x82, 0xff, 0xfe]);
    bytes
}

#[test]
fn finding_the_path_of_a_deep_error_fits_the_stack_a_decode_at_the_limit_gets() {
    common::on_stack_of(SMALL_STACK_KIB, || {
        // As deep as the path-tracking second pass goes (32 containers).
        let err = surp::from_slice::<surp::Value>(&bad_string_at_depth(32)).unwrap_err();
        assert_eq!(err.path(), Some("[0]".repeat(32).as_str()));
        assert_eq!(err.offset(), Some(33));
        // Deeper errors keep their kind and offset, without a path.
        for depth in [33, 100, 127] {
            let err = surp::from_slice::<surp::Value>(&bad_string_at_depth(depth)).unwrap_err();
            assert_eq!(*err.kind(), surp::ErrorKind::InvalidUtf8, "depth {depth}");
            assert_eq!(err.offset(), Some(depth + 1), "depth {depth}");
            assert_eq!(err.path(), None, "depth {depth}");
        }
    });
}
