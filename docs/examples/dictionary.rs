use serde::{Deserialize, Serialize};
use surp::ErrorKind;
use surp::error::SessionError;
use surp_dedup::Dictionary;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Level {
    Info,
    Warning,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Event {
    service: String,
    level: Level,
    message: String,
}

fn main() -> Result<(), surp::Error> {
    let event = |i: usize| Event {
        service: ["checkout", "billing"][i % 2].into(),
        level: if i.is_multiple_of(2) {
            Level::Info
        } else {
            Level::Warning
        },
        message: format!("request {i} done"),
    };

    // Learnt from sample values, or taken from a type's field and variant
    // names alone.
    let samples: Vec<Event> = (0..100).map(event).collect();
    let from_samples = Dictionary::from_samples(&samples)?;
    let from_type = Dictionary::from_type::<Event>()?;
    assert!(from_type.strings().any(|s| s == "Warning"));

    // Each document stands alone (a queue record, a cache entry) and still
    // refers to the dictionary's strings and shapes.
    let one = event(1_000);
    let plain = surp::to_vec(&one)?;
    let small = from_samples.to_vec(&one)?;
    assert_eq!(plain.len(), 55);
    assert_eq!(small.len(), 33);
    assert_eq!(from_samples.from_slice::<Event>(&small)?, one);

    // The dictionary travels out of band as bytes. Every document carries
    // its id, so a reader with another dictionary refuses it.
    let stored = Dictionary::from_bytes(from_samples.to_bytes())?;
    assert_eq!(stored.id(), from_samples.id());
    let err = from_type.from_slice::<Event>(&small).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::Session(SessionError::WrongDictionary { .. })
    ));
    Ok(())
}
