//! A slice decoder takes a referenced string back from the range of the
//! input where its literal was validated, without validating it again
//! (`SliceRead::recall_str`, the one `unsafe` block of the reader). These
//! tests reach that block with every kind of kept string: values and keys,
//! ASCII and every UTF-8 sequence length, lengths around the decoder's
//! short-string limits, several documents in one slice, and must get back
//! exactly what was written, borrowed from the input.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use surp::Value;

/// Strings of 1 to 70 bytes built from one repeated character: ASCII,
/// then characters of two, three and four bytes in UTF-8.
fn strings() -> Vec<String> {
    let mut out = Vec::new();
    for c in ['a', 'é', 'ж', '語', '🦀'] {
        for n in 1..=70 / c.len_utf8() {
            let mut s: String = std::iter::repeat_n(c, n).collect();
            // Distinct from the others of its length.
            s.push(char::from(b'0' + (n % 10) as u8));
            out.push(s);
        }
    }
    out
}

/// Whether `s` lies inside `input`: borrowed from it, not copied.
fn borrowed_from(s: &str, input: &[u8]) -> bool {
    let range = input.as_ptr_range();
    let (start, end) = (s.as_ptr(), s.as_ptr().wrapping_add(s.len()));
    range.start <= start && end <= range.end
}

#[test]
fn referenced_values_come_back_exactly_and_borrowed() {
    let strings = strings();
    // Each string three times: a literal, then two references.
    let doc: Vec<&str> = (0..3)
        .flat_map(|_| strings.iter().map(String::as_str))
        .collect();
    let bytes = surp_dedup::to_vec(&doc).unwrap();
    let plain = surp::to_vec(&doc).unwrap();
    assert!(
        bytes.len() < plain.len() * 2 / 3,
        "references were written: {} bytes against {} plain",
        bytes.len(),
        plain.len()
    );

    let back: Vec<&str> = surp::from_slice(&bytes).unwrap();
    assert_eq!(back, doc);
    for s in &back {
        assert!(borrowed_from(s, &bytes), "{s:?} was copied");
    }
    // The second and third copies are the first copy's bytes.
    let n = strings.len();
    for i in 0..n {
        assert_eq!(back[i].as_ptr(), back[n + i].as_ptr(), "{:?}", back[i]);
        assert_eq!(back[i].as_ptr(), back[2 * n + i].as_ptr(), "{:?}", back[i]);
    }

    // A reader, which copies, and the dynamic value agree.
    let from_reader: Vec<String> = surp::from_reader(&bytes[..]).unwrap();
    assert_eq!(from_reader, doc);
    let value: Value = surp::from_slice(&bytes).unwrap();
    assert_eq!(value, surp::from_slice::<Value>(&plain).unwrap());
}

#[test]
fn shape_keys_come_back_exactly() {
    let strings = strings();
    // Maps of eight keys each, every key set written twice, so that the
    // second map of each pair is a shape reference.
    let maps: Vec<BTreeMap<&str, u32>> = strings
        .chunks(8)
        .flat_map(|keys| {
            let map: BTreeMap<&str, u32> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (k.as_str(), i as u32))
                .collect();
            [map.clone(), map]
        })
        .collect();
    let bytes = surp_dedup::to_vec(&maps).unwrap();
    assert!(bytes.len() < surp::to_vec(&maps).unwrap().len() * 2 / 3);

    let back: Vec<BTreeMap<&str, u32>> = surp::from_slice(&bytes).unwrap();
    assert_eq!(back, maps);
    for key in back.iter().flat_map(BTreeMap::keys) {
        assert!(borrowed_from(key, &bytes), "{key:?} was copied");
    }
    let owned: Vec<BTreeMap<String, u32>> = surp::from_reader(&bytes[..]).unwrap();
    assert_eq!(back.len(), owned.len());
    for (b, o) in back.iter().zip(&owned) {
        assert!(
            b.iter()
                .map(|(k, v)| (*k, v))
                .eq(o.iter().map(|(k, v)| (k.as_str(), v)))
        );
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Entry<'a> {
    #[serde(borrow)]
    name: &'a str,
    #[serde(borrow)]
    city: &'a str,
}

#[test]
fn each_document_of_a_stream_recalls_its_own_strings() {
    // Three deduplicated documents in one slice, whose strings take the
    // same slots: a reference must name its own document's string.
    let docs: Vec<Vec<Entry>> = ["Åsa", "Зоя", "Nguyễn"]
        .iter()
        .zip(["Tromsø", "Київ", "Hà Nội"])
        .map(|(name, city)| (0..4).map(|_| Entry { name, city }).collect::<Vec<_>>())
        .collect();
    let mut bytes = Vec::new();
    for doc in &docs {
        surp_dedup::append_to_vec(&mut bytes, doc).unwrap();
    }
    let back: Vec<Vec<Entry>> = surp::Deserializer::from_slice(&bytes)
        .into_iter::<Vec<Entry>>()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back, docs);
    for e in back.iter().flatten() {
        assert!(borrowed_from(e.name, &bytes) && borrowed_from(e.city, &bytes));
    }
}
