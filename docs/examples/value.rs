use serde::Serialize;
use surp::Value;

#[derive(Serialize)]
struct Sample {
    service: &'static str,
    latency_ms: Vec<u32>,
    ok: bool,
}

fn main() -> Result<(), surp::Error> {
    let bytes = surp::to_vec(&Sample {
        service: "checkout",
        latency_ms: vec![12, 15, 11],
        ok: true,
    })?;

    // Any Surp document can be read without knowing its type.
    let value: Value = surp::from_slice(&bytes)?;

    // Index maps by key and arrays by position; a missing entry is Null.
    assert_eq!(value["service"].as_str(), Some("checkout"));
    assert_eq!(value["latency_ms"][1].as_u64(), Some(15));
    assert!(value["no such key"].is_null());

    // Display gives a readable, JSON-like rendering for diagnostics.
    assert_eq!(
        value.to_string(),
        r#"{"service": "checkout", "latency_ms": [12, 15, 11], "ok": true}"#
    );

    // A Value keeps the document's order and kinds, so it encodes back to
    // the same bytes.
    assert_eq!(surp::to_vec(&value)?, bytes);

    // Other self-describing models work too, such as serde_json's.
    let json: serde_json::Value = surp::from_slice(&bytes)?;
    assert_eq!(json["latency_ms"][2], 11);
    Ok(())
}
