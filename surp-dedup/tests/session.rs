//! Sessions and dictionaries (`docs/spec.md` section 9): messages decode to
//! what was encoded, in order only; the decoder never reads a message
//! against tables in another state, and its tables stay within the budget.

use serde::{Deserialize, Serialize};
use surp::ErrorKind;
use surp::error::SessionError;
use surp_datasets::Scale;
use surp_datasets::typed::log::LogRecord;
use surp_datasets::typed::{TypedDataset, TypedValue};
use surp_dedup::{Dictionary, SessionOptions};

fn log_records() -> Vec<LogRecord<String>> {
    match TypedDataset::Log.generate(Scale::Ci) {
        TypedValue::Log(log) => log.records,
        _ => unreachable!("the log dataset is a log"),
    }
}

fn session_error(err: &surp::Error) -> &SessionError {
    match err.kind() {
        ErrorKind::Session(e) => e,
        other => panic!("expected a session error, got {other:?} ({err})"),
    }
}

/// Encodes `records` as one session: its header and messages.
fn session<T: Serialize>(options: &SessionOptions, records: &[T]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut encoder = options.encoder();
    let messages = records
        .iter()
        .map(|r| encoder.encode(r).expect("encodes"))
        .collect();
    (encoder.header(), messages)
}

#[test]
fn messages_decode_to_what_was_encoded_and_shrink() {
    let records = log_records();
    let options = SessionOptions::new();
    let (header, messages) = session(&options, &records);
    let mut decoder = options.decoder();
    decoder.read_header(&header).unwrap();
    for (record, message) in records.iter().zip(&messages) {
        assert_eq!(
            &decoder.decode::<LogRecord<String>>(message).unwrap(),
            record
        );
    }
    let session_bytes: usize = messages.iter().map(Vec::len).sum();
    let plain_bytes: usize = records.iter().map(|r| surp::to_vec(r).unwrap().len()).sum();
    let dedup_bytes: usize = records
        .iter()
        .map(|r| surp_dedup::to_vec(r).unwrap().len())
        .sum();
    assert!(
        session_bytes * 2 < plain_bytes && session_bytes < dedup_bytes,
        "session {session_bytes}, plain {plain_bytes}, dedup per message {dedup_bytes}"
    );
}

#[test]
fn every_message_is_a_session_document_that_other_decoders_refuse() {
    let records = log_records();
    let (_, messages) = session(&SessionOptions::new(), &records[..3]);
    for message in &messages {
        assert_eq!(message[0], 0xf1);
        let err = surp::from_slice::<surp::Value>(message).unwrap_err();
        assert_eq!(*err.kind(), ErrorKind::ReservedTag(0xf1));
        assert_eq!(err.offset(), Some(0));
        assert!(err.to_string().contains("SessionDecoder"), "{err}");
    }
}

#[test]
fn small_budgets_tumble_on_both_sides_alike() {
    let records = log_records();
    for (strings, shapes, bytes) in [(8, 1, 1 << 20), (1 << 20, 1 << 16, 600), (0, 0, 0)] {
        let options = SessionOptions::new().budget(strings, shapes, bytes);
        let mut encoder = options.encoder();
        let mut decoder = options.decoder();
        decoder.read_header(&encoder.header()).unwrap();
        for record in &records {
            let message = encoder.encode(record).unwrap();
            assert_eq!(
                &decoder.decode::<LogRecord<String>>(&message).unwrap(),
                record
            );
            // Between messages the tables are within the budget.
            let usage = decoder.usage();
            assert_eq!(usage, encoder.usage());
            assert!(
                usage.strings <= strings as usize
                    && usage.shapes <= shapes as usize
                    && usage.bytes <= bytes as usize,
                "{usage:?} past ({strings}, {shapes}, {bytes})"
            );
        }
    }
}

#[test]
fn lost_reordered_and_replayed_messages_are_errors() {
    let records = log_records();
    let options = SessionOptions::new();
    let (header, messages) = session(&options, &records[..6]);
    let fresh = || {
        let mut decoder = options.decoder();
        decoder.read_header(&header).unwrap();
        decoder
    };
    let expect_sequence = |result: surp::Result<LogRecord<String>>, expected: u64, found: u64| {
        let err = result.unwrap_err();
        assert_eq!(
            *session_error(&err),
            SessionError::Sequence { expected, found }
        );
        assert_eq!(err.offset(), Some(2));
    };

    // Lost: message 1 never arrives.
    let mut decoder = fresh();
    decoder.decode::<LogRecord<String>>(&messages[0]).unwrap();
    expect_sequence(decoder.decode(&messages[2]), 1, 2);
    // ...and nothing after it decodes either.
    expect_sequence(decoder.decode(&messages[3]), 1, 3);

    // Reordered: 2 before 1.
    let mut decoder = fresh();
    decoder.decode::<LogRecord<String>>(&messages[0]).unwrap();
    expect_sequence(decoder.decode(&messages[2]), 1, 2);
    // The refused message left the tables alone: 1 and 2 then decode.
    assert_eq!(
        decoder.decode::<LogRecord<String>>(&messages[1]).unwrap(),
        records[1]
    );
    assert_eq!(
        decoder.decode::<LogRecord<String>>(&messages[2]).unwrap(),
        records[2]
    );

    // Replayed: 1 again after 2.
    expect_sequence(decoder.decode(&messages[1]), 3, 1);
    assert_eq!(
        decoder.decode::<LogRecord<String>>(&messages[3]).unwrap(),
        records[3]
    );

    // A message of another session (same numbers, other tables).
    let other: Vec<LogRecord<String>> = records[10..16].to_vec();
    let (_, foreign) = session(&options, &other);
    let mut decoder = fresh();
    decoder.decode::<LogRecord<String>>(&messages[0]).unwrap();
    expect_sequence(decoder.decode(&foreign[0]), 1, 0);

    // Before the header, and a second header.
    let mut decoder = options.decoder();
    let err = decoder
        .decode::<LogRecord<String>>(&messages[0])
        .unwrap_err();
    assert_eq!(*session_error(&err), SessionError::MissingHeader);
    let mut decoder = fresh();
    let err = decoder.decode::<LogRecord<String>>(&header).unwrap_err();
    assert_eq!(*session_error(&err), SessionError::UnexpectedHeader);
}

#[test]
fn after_a_failed_message_only_a_reset_goes_on() {
    let records = log_records();
    let options = SessionOptions::new();
    let mut encoder = options.encoder();
    let mut decoder = options.decoder();
    decoder.read_header(&encoder.header()).unwrap();
    let first = encoder.encode(&records[0]).unwrap();
    decoder.decode::<LogRecord<String>>(&first).unwrap();
    // A message damaged in transit: its value fails to decode.
    let mut damaged = encoder.encode(&records[1]).unwrap();
    let last = damaged.len() - 1;
    damaged.truncate(last);
    assert!(decoder.decode::<LogRecord<String>>(&damaged).is_err());
    // The next message may need what the damaged one added: refused.
    let next = encoder.encode(&records[2]).unwrap();
    let err = decoder.decode::<LogRecord<String>>(&next).unwrap_err();
    assert_eq!(*session_error(&err), SessionError::Broken);
    // The encoder is told (out of band) and resets; that message decodes,
    // and so does every one after it.
    encoder.reset();
    for record in &records[3..8] {
        let message = encoder.encode(record).unwrap();
        assert_eq!(
            &decoder.decode::<LogRecord<String>>(&message).unwrap(),
            record
        );
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Reading {
    sensor: String,
    value: f64,
}

/// A value whose serialization fails halfway, after its strings took slots.
struct FailsHalfway(Reading);

impl Serialize for FailsHalfway {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeStruct};
        let mut st = s.serialize_struct("Reading", 2)?;
        st.serialize_field("sensor", &self.0.sensor)?;
        let _ = st;
        Err(S::Error::custom("the sensor went away"))
    }
}

#[test]
fn a_message_that_fails_to_encode_leaves_no_trace() {
    let options = SessionOptions::new();
    let mut encoder = options.encoder();
    let mut decoder = options.decoder();
    decoder.read_header(&encoder.header()).unwrap();
    let reading = |sensor: &str, value| Reading {
        sensor: sensor.to_owned(),
        value,
    };
    let m0 = encoder.encode(&reading("boiler-room", 1.5)).unwrap();
    assert_eq!(
        decoder.decode::<Reading>(&m0).unwrap(),
        reading("boiler-room", 1.5)
    );
    let mut out = b"kept".to_vec();
    assert!(
        encoder
            .append_to_vec(&mut out, &FailsHalfway(reading("attic", 2.0)))
            .is_err()
    );
    assert_eq!(out, b"kept");
    // The failed message never reached the decoder; the next one starts
    // from the initial state (and says so), so it decodes.
    let m1 = encoder.encode(&reading("attic", 3.0)).unwrap();
    assert_eq!(m1[1], 0x02, "a reset message");
    assert_eq!(
        decoder.decode::<Reading>(&m1).unwrap(),
        reading("attic", 3.0)
    );
    let m2 = encoder.encode(&reading("attic", 4.0)).unwrap();
    assert_eq!(m2[1], 0x01);
    assert_eq!(
        decoder.decode::<Reading>(&m2).unwrap(),
        reading("attic", 4.0)
    );
}

#[test]
fn a_header_past_the_decoders_budget_or_dictionary_is_refused() {
    let small = SessionOptions::new().budget(100, 10, 10_000);
    for (strings, shapes, bytes, what) in [
        (101, 10, 10_000, "string slots"),
        (100, 11, 10_000, "shapes"),
        (100, 10, 10_001, "bytes"),
    ] {
        let big = SessionOptions::new().budget(strings, shapes, bytes);
        let err = small
            .decoder()
            .read_header(&big.encoder().header())
            .unwrap_err();
        match session_error(&err) {
            SessionError::BudgetTooLarge { what: w, .. } => assert_eq!(*w, what),
            other => panic!("{other:?}"),
        }
    }
    // A smaller budget is fine: the decoder holds at most what it allows.
    let smaller = SessionOptions::new().budget(50, 5, 5_000);
    small
        .decoder()
        .read_header(&smaller.encoder().header())
        .unwrap();

    // Past the table limits, a budget is the limits (it tumbles at the
    // same point), and its header is one that a decoder reads; unchecked,
    // it stated more than any header may.
    let most = surp_dedup::Budget::MAX;
    let huge = SessionOptions::new().budget(u32::MAX, u32::MAX, u32::MAX);
    let header = huge.encoder().header();
    assert_eq!(
        header,
        SessionOptions::new()
            .budget(most.strings, most.shapes, most.bytes)
            .encoder()
            .header()
    );
    huge.decoder().read_header(&header).unwrap();

    let records = log_records();
    let dict = Dictionary::from_samples(&records[..200]).unwrap();
    let other = Dictionary::from_samples(&records[200..400]).unwrap();
    assert_ne!(dict.id(), other.id());
    let with = SessionOptions::new().dictionary(dict.clone());
    let with_other = SessionOptions::new().dictionary(other.clone());
    for (encoder_side, decoder_side) in [
        (&with, &with_other),
        (&with, &SessionOptions::new()),
        (&SessionOptions::new(), &with),
    ] {
        let err = decoder_side
            .decoder()
            .read_header(&encoder_side.encoder().header())
            .unwrap_err();
        assert!(
            matches!(session_error(&err), SessionError::WrongDictionary { .. }),
            "{err}"
        );
    }
}

#[test]
fn a_session_with_a_dictionary_is_small_from_its_first_message() {
    let records = log_records();
    let dict = Dictionary::from_samples(&records[..300]).unwrap();
    let plain = SessionOptions::new();
    let with = SessionOptions::new().dictionary(dict);
    let rest = &records[300..];
    let (_, without_dict) = session(&plain, rest);
    let (header, with_dict) = session(&with, rest);
    assert!(
        with_dict[0].len() * 2 < without_dict[0].len(),
        "first message: {} with, {} without",
        with_dict[0].len(),
        without_dict[0].len()
    );
    let mut decoder = with.decoder();
    decoder.read_header(&header).unwrap();
    for (record, message) in rest.iter().zip(&with_dict) {
        assert_eq!(
            &decoder.decode::<LogRecord<String>>(message).unwrap(),
            record
        );
    }
}

#[test]
fn dictionary_documents_stand_alone_with_their_dictionary_only() {
    let records = log_records();
    let dict = Dictionary::from_samples(&records[..300]).unwrap();
    let other = Dictionary::from_samples(&records[300..600]).unwrap();
    let mut encoder = dict.encoder();
    let mut decoder = dict.decoder(surp::Options::new());
    let mut with_total = 0;
    let mut plain_total = 0;
    for record in &records[600..] {
        let bytes = encoder.to_vec(record).unwrap();
        assert_eq!(bytes, dict.to_vec(record).unwrap());
        with_total += bytes.len();
        plain_total += surp::to_vec(record).unwrap().len();
        // Any order, any number of times: each document stands alone.
        assert_eq!(
            &decoder.from_slice::<LogRecord<String>>(&bytes).unwrap(),
            record
        );
        assert_eq!(
            &decoder.from_slice::<LogRecord<String>>(&bytes).unwrap(),
            record
        );
        let err = other.from_slice::<LogRecord<String>>(&bytes).unwrap_err();
        assert_eq!(
            *session_error(&err),
            SessionError::WrongDictionary {
                expected: Some(other.id()),
                found: Some(dict.id())
            }
        );
        assert_eq!(err.offset(), Some(2));
    }
    assert!(
        with_total * 2 < plain_total,
        "{with_total} with, {plain_total} plain"
    );
    // A document without a dictionary is refused too.
    let plain = surp_dedup::to_vec(&records[0]).unwrap();
    let err = dict.from_slice::<LogRecord<String>>(&plain).unwrap_err();
    assert!(
        matches!(session_error(&err), SessionError::NotASessionDocument),
        "{err}"
    );
}

#[test]
fn a_dictionary_reads_back_from_its_bytes_only() {
    let records = log_records();
    let dict = Dictionary::from_samples(&records[..300]).unwrap();
    assert!(dict.strings().len() > 10 && dict.shapes().len() >= 1);
    let back = Dictionary::from_bytes(dict.to_bytes()).unwrap();
    assert_eq!(back, dict);
    assert_eq!(back.id(), dict.id());
    // Its bytes are a plain Surp document that any decoder reads.
    let value: surp::Value = surp::from_slice(dict.to_bytes()).unwrap();
    assert!(matches!(value, surp::Value::Map(ref m) if m.len() == 3));
    // The same content in another form (deduplicated) has another hash,
    // so it is refused rather than given another id.
    #[derive(Deserialize, Serialize)]
    struct Doc {
        surp_dictionary: u32,
        strings: Vec<String>,
        shapes: Vec<Vec<String>>,
    }
    let doc: Doc = surp::from_slice(dict.to_bytes()).unwrap();
    let other_form = surp_dedup::to_vec(&doc).unwrap();
    assert_ne!(other_form, dict.to_bytes());
    assert!(Dictionary::from_bytes(&other_form).is_err());
    // Dictionaries that break a rule of section 9.2.
    for (strings, shapes) in [
        (vec!["a"], vec![]),
        (vec!["ok", "ok"], vec![]),
        (vec!["id"], vec![vec!["id", "name"]]),
    ] {
        let err = Dictionary::new(&strings, &shapes).unwrap_err();
        assert!(
            matches!(session_error(&err), SessionError::InvalidDictionary(_)),
            "{err}"
        );
    }
}

#[test]
fn hostile_messages_never_grow_the_tables_past_the_budget() {
    // Each message adds distinct long strings and maps with distinct keys
    // to both tables, so that they fill up over a few messages.
    let options = SessionOptions::new().budget(64, 64, 8 * 1024);
    let mut encoder = options.encoder();
    let mut decoder = options.decoder();
    decoder.read_header(&encoder.header()).unwrap();
    let mut peak = 0;
    for m in 0..200u32 {
        let value: Vec<surp::Value> = (0..3u32)
            .map(|i| {
                let text = format!("message {m} string {i} {}", "x".repeat(i as usize * 7));
                surp::Value::Map(vec![(
                    surp::Value::String(format!("key {m}.{i}")),
                    surp::Value::String(text),
                )])
            })
            .collect();
        let message = encoder.encode(&value).unwrap();
        assert_eq!(decoder.decode::<Vec<surp::Value>>(&message).unwrap(), value);
        let usage = decoder.usage();
        assert!(
            usage.bytes <= 8 * 1024 && usage.strings <= 64 && usage.shapes <= 64,
            "{usage:?}"
        );
        peak = peak.max(usage.bytes);
    }
    // The tables filled up to near the budget before they tumbled.
    assert!(peak > 4 * 1024, "peak {peak}");
}

#[test]
fn a_dictionary_from_a_type_holds_its_field_and_variant_names() {
    use surp_datasets::typed::game_updates::Tick;
    let dict = Dictionary::from_type::<Tick>().unwrap();
    let strings: Vec<&str> = dict.strings().collect();
    // Fields of the tick, of an entity update, and the variants of its enums.
    for name in ["tick", "entities", "events", "health", "state"] {
        assert!(strings.contains(&name), "{name} missing from {strings:?}");
    }
    let ticks = match TypedDataset::GameUpdates.generate(Scale::Ci) {
        TypedValue::GameUpdates(g) => g.ticks,
        _ => unreachable!("the game_updates dataset is game updates"),
    };
    let (mut with, mut plain) = (0, 0);
    for tick in &ticks {
        let bytes = dict.to_vec(tick).unwrap();
        assert_eq!(&dict.from_slice::<Tick>(&bytes).unwrap(), tick);
        with += bytes.len();
        plain += surp::to_vec(tick).unwrap().len();
    }
    assert!(with < plain, "{with} with the type's names, {plain} plain");
    // A record type, with a unit enum (the HTTP method) and an Option.
    let dict = Dictionary::from_type::<LogRecord<String>>().unwrap();
    let strings: Vec<&str> = dict.strings().collect();
    for name in [
        "timestamp_ms",
        "user_agent",
        "referrer",
        "Get",
        "Post",
        "Delete",
    ] {
        assert!(strings.contains(&name), "{name} missing from {strings:?}");
    }
    assert_eq!(dict.shapes().len(), 1);
}

#[test]
fn a_type_that_contains_itself_is_traced_to_a_bounded_depth() {
    // No value of it ends, but its Deserialize recurses: the trace must not.
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Chain {
        link_name: String,
        next: Box<Chain>,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    enum Tree {
        Leaf,
        Node(Box<Tree>, Box<Tree>),
    }
    let chain = Dictionary::from_type::<Chain>().unwrap();
    assert!(chain.strings().any(|s| s == "link_name"));
    let tree = Dictionary::from_type::<Tree>().unwrap();
    assert!(tree.strings().any(|s| s == "Leaf") && tree.strings().any(|s| s == "Node"));
}

/// A seed that builds a `surp::Value` and counts the values it built.
struct Counting<'a>(&'a mut usize);

impl<'de> serde::de::DeserializeSeed<'de> for Counting<'_> {
    type Value = surp::Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<surp::Value, D::Error> {
        *self.0 += 1;
        surp::Value::deserialize(d)
    }
}

#[test]
fn seeds_decode_what_types_decode_with_the_same_checks() {
    let records = log_records();
    let options = SessionOptions::new().budget(64, 8, 4096);
    let (header, messages) = session(&options, &records[..200]);
    let mut typed = options.decoder();
    let mut seeded = options.decoder();
    typed.read_header(&header).unwrap();
    seeded.read_header(&header).unwrap();
    let mut built = 0;
    for message in &messages {
        let want = typed.decode::<surp::Value>(message).unwrap();
        let got = seeded.decode_seed(message, Counting(&mut built)).unwrap();
        assert_eq!(got, want);
    }
    assert_eq!(built, messages.len());
    // A message out of order is refused before the seed runs.
    let err = seeded
        .decode_seed(&messages[5], Counting(&mut built))
        .unwrap_err();
    assert!(matches!(session_error(&err), SessionError::Sequence { .. }));
    assert_eq!(built, messages.len());

    // Dictionary documents: the same value, and the same refusal of a
    // document written with another dictionary.
    let dict = Dictionary::from_samples(&records[..300]).unwrap();
    let other = Dictionary::from_samples(&records[300..600]).unwrap();
    let mut decoder = dict.decoder(surp::Options::new());
    let mut wrong = other.decoder(surp::Options::new());
    for record in &records[600..700] {
        let bytes = dict.to_vec(record).unwrap();
        let want = decoder.from_slice::<surp::Value>(&bytes).unwrap();
        let got = decoder
            .from_slice_seed(&bytes, Counting(&mut built))
            .unwrap();
        assert_eq!(got, want);
        let err = wrong
            .from_slice_seed(&bytes, Counting(&mut built))
            .unwrap_err();
        assert_eq!(err.offset(), Some(2));
    }
    assert_eq!(built, messages.len() + 100);
}
