//! The `dictionaries`, `sessions` and `session_invalid` lists of
//! `docs/vectors/surp-v2.json` (`docs/spec.md` section 9), written by an
//! encoder that `docs/vectors/generate.py` implements from the spec
//! independently: every session encodes to its header and messages and
//! decodes back, every dictionary to its stored form, id and documents, and
//! every invalid case is rejected with its kind and offset.

#[path = "../../surp/tests/notation/mod.rs"]
mod notation;

use notation::{Json, hex_field, load, parse, same};
use surp::{ErrorKind, Value};
use surp_dedup::{Dictionary, SessionDecoder, SessionOptions};

fn name(v: &Json) -> &str {
    v["name"].as_str().unwrap()
}

fn strings(v: &Json) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

fn shapes(v: &Json) -> Vec<Vec<&str>> {
    v.as_array().unwrap().iter().map(strings).collect()
}

/// The dictionary an entry of `dictionaries` describes, built from its
/// strings and shapes.
fn dictionary(d: &Json) -> Dictionary {
    Dictionary::new(&strings(&d["strings"]), &shapes(&d["shapes"]))
        .unwrap_or_else(|e| panic!("{}: {e}", name(d)))
}

/// The dictionary an entry names by its index into `dictionaries`, if any.
fn named_dictionary(doc: &Json, index: &Json) -> Option<Dictionary> {
    let i = index.as_u64()? as usize;
    Some(dictionary(&doc["dictionaries"][i]))
}

/// Session options with a `{strings, shapes, bytes}` budget and a
/// dictionary.
fn session_options(budget: &Json, dictionary: Option<Dictionary>) -> SessionOptions {
    let part = |key: &str| u32::try_from(budget[key].as_u64().unwrap()).unwrap();
    let options = SessionOptions::new().budget(part("strings"), part("shapes"), part("bytes"));
    match dictionary {
        Some(d) => options.dictionary(d),
        None => options,
    }
}

/// `result` is the error that `case` lists. `error` is an `ErrorKind`
/// name, or `Session(X)` for `ErrorKind::Session(SessionError::X ..)`;
/// `offset` is the byte offset, or null where the reference gives none.
fn check_rejected<T: std::fmt::Debug>(
    what: &str,
    case: &Json,
    result: surp::Result<T>,
) -> Result<(), String> {
    let err = match result {
        Ok(v) => return Err(format!("{what}: accepted ({v:?})")),
        Err(err) => err,
    };
    let listed = case["error"].as_str().unwrap();
    let (kind, prefix) = match (listed.strip_prefix("Session("), err.kind()) {
        (Some(inner), ErrorKind::Session(e)) => {
            (format!("{e:?}"), inner.strip_suffix(')').unwrap())
        }
        _ => (format!("{:?}", err.kind()), listed),
    };
    if !kind.starts_with(prefix) {
        return Err(format!(
            "{what}: got {:?}, listed {listed} ({err})",
            err.kind()
        ));
    }
    let offset = case["offset"].as_u64().map(|o| o as usize);
    if err.offset() != offset {
        return Err(format!(
            "{what}: offset {:?}, listed {offset:?} ({err})",
            err.offset()
        ));
    }
    Ok(())
}

#[test]
fn every_dictionary_has_its_stored_form_id_and_documents() {
    let doc = load();
    let list = doc["dictionaries"].as_array().unwrap();
    assert!(list.len() >= 3);
    for d in list {
        let name = name(d);
        let dict = dictionary(d);
        let stored = hex_field(&d["hex"]);
        assert_eq!(dict.to_bytes(), &stored[..], "{name}: stored form");
        let id = u64::from_str_radix(d["id"].as_str().unwrap(), 16).unwrap();
        assert_eq!(dict.id(), id, "{name}: id");
        let loaded = Dictionary::from_bytes(&stored).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(loaded.id(), id, "{name}: id of the loaded dictionary");
        assert!(loaded.strings().eq(strings(&d["strings"])), "{name}");
        let loaded_shapes: Vec<Vec<String>> = loaded.shapes().map(<[String]>::to_vec).collect();
        assert_eq!(loaded_shapes, shapes(&d["shapes"]), "{name}");
        // Each document starts from the dictionary, also with an encoder
        // and a decoder that keep their tables for the next one.
        let mut encoder = dict.encoder();
        let mut decoder = loaded.decoder(surp::Options::new());
        for v in d["documents"].as_array().unwrap() {
            let value = parse(&v["value"]);
            let expected = hex_field(&v["hex"]);
            let what = format!("{name}, document {}", v["value"]);
            let actual = dict
                .to_vec(&value)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(
                actual == expected,
                "{what}: encoded {actual:02x?}\nexpected {expected:02x?}"
            );
            assert_eq!(encoder.to_vec(&value).unwrap(), expected, "{what}: encoder");
            let decoded: Value = loaded
                .from_slice(&expected)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(same(&value, &decoded), "{what}: decoded {decoded}");
            let decoded: Value = decoder
                .from_slice(&expected)
                .unwrap_or_else(|e| panic!("{what}: decoder: {e}"));
            assert!(same(&value, &decoded), "{what}: decoder decoded {decoded}");
        }
    }
}

#[test]
fn every_session_encodes_to_its_bytes_and_back() {
    let doc = load();
    let list = doc["sessions"].as_array().unwrap();
    assert!(list.len() >= 5);
    for s in list {
        let name = name(s);
        let options = session_options(&s["budget"], named_dictionary(&doc, &s["dictionary"]));
        let mut encoder = options.encoder();
        let mut decoder = options.decoder();
        let header = hex_field(&s["header"]);
        assert_eq!(encoder.header(), header, "{name}: header");
        decoder
            .read_header(&header)
            .unwrap_or_else(|e| panic!("{name}: header: {e}"));
        for (i, m) in s["messages"].as_array().unwrap().iter().enumerate() {
            let what = format!("{name}, message {i}");
            if m.get("reset") == Some(&Json::Bool(true)) {
                encoder.reset();
            }
            let value = parse(&m["value"]);
            let expected = hex_field(&m["hex"]);
            let actual = encoder
                .encode(&value)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(
                actual == expected,
                "{what}: encoded {actual:02x?}\nexpected {expected:02x?}"
            );
            let decoded: Value = decoder
                .decode(&expected)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(same(&value, &decoded), "{what}: decoded {decoded}");
        }
    }
}

/// Gives the decoder one of the `documents` of a `session_invalid` entry:
/// the first to `read_header` (a session starts there in this API), every
/// later one to `decode`, so that a second header is a document where a
/// message was expected.
fn feed(decoder: &mut SessionDecoder, first: bool, bytes: &[u8]) -> surp::Result<()> {
    if first {
        decoder.read_header(bytes)
    } else {
        decoder.decode::<Value>(bytes).map(drop)
    }
}

#[test]
fn every_invalid_session_case_is_rejected_with_its_kind_and_offset() {
    let doc = load();
    let list = doc["session_invalid"].as_array().unwrap();
    assert!(list.len() >= 10);
    let mut failures = Vec::new();
    for case in list {
        let name = name(case);
        let mut check = |what: &str, listed: &Json, result: surp::Result<_>| {
            if let Err(failure) = check_rejected(what, listed, result) {
                failures.push(failure);
            }
        };
        if let Some(documents) = case.get("documents") {
            // A session decoder with this budget limit and dictionary reads
            // the documents in order; the last one fails.
            let dict = named_dictionary(&doc, &case["dictionary"]);
            let mut decoder = session_options(&case["limit"], dict).decoder();
            let documents = documents.as_array().unwrap();
            let (last, before) = documents.split_last().unwrap();
            for (i, d) in before.iter().enumerate() {
                let what = format!("{name}, document {i}");
                match d.get("error") {
                    Some(_) => check(&what, d, feed(&mut decoder, i == 0, &hex_field(&d["hex"]))),
                    None => feed(&mut decoder, i == 0, &hex_field(d))
                        .unwrap_or_else(|e| panic!("{what}: {e}")),
                }
            }
            check(
                name,
                case,
                feed(&mut decoder, before.is_empty(), &hex_field(last)),
            );
        } else if let Some(document) = case.get("document") {
            // A dictionary document, decoded with this dictionary.
            let dict = named_dictionary(&doc, &case["dictionary"]).expect("a dictionary");
            let bytes = hex_field(document);
            check(name, case, dict.from_slice::<Value>(&bytes).map(drop));
            let mut decoder = dict.decoder(surp::Options::new());
            let result = decoder.from_slice::<Value>(&bytes).map(drop);
            check(&format!("{name}, decoder"), case, result);
        } else {
            // An invalid dictionary, loaded from its stored form and, where
            // the entry gives them, built from its strings and shapes.
            let stored = hex_field(&case["stored"]);
            check(name, case, Dictionary::from_bytes(&stored).map(drop));
            if let Some(s) = case.get("strings") {
                let built = Dictionary::new(&strings(s), &shapes(&case["shapes"]));
                check(&format!("{name}, built"), case, built.map(drop));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
