//! `binary_blobs`: file records each carrying about 64 KiB of raw bytes;
//! shows how each format treats bytes (native binary, arrays of numbers,
//! base64 text).
//!
//! The bytes are uniformly random, so no format can win by accident through
//! patterns in the payload.

use super::draw::Draw;
use super::vocabulary::NOUNS;
use crate::{Scale, Value};

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(5, 100)
}

/// Blob sizes are drawn from 56..=72 KiB: about 64 KiB, but not one fixed
/// length a format could special-case.
const MIN_LEN: u64 = 56 * 1024;
const MAX_LEN: u64 = 72 * 1024;

const KINDS: [(&str, &str); 5] = [
    ("bin", "application/octet-stream"),
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("zip", "application/zip"),
    ("pdf", "application/pdf"),
];

pub(crate) fn generate(seed: u64, scale: Scale) -> Value {
    let mut draw = Draw::new(seed);
    let blobs = (1..=count(scale)).map(|id| blob(&mut draw, id)).collect();
    Value::Array(blobs)
}

fn blob(draw: &mut Draw, id: u64) -> Value {
    let (extension, content_type) = *draw.pick(&KINDS);
    let name = format!("{}-{id:04}.{extension}", draw.pick(NOUNS));
    let len = draw.between(MIN_LEN, MAX_LEN);
    let data = draw.bytes(usize::try_from(len).expect("a blob length fits in usize"));
    Value::Map(vec![
        ("id".into(), Value::U64(id)),
        ("name".into(), Value::String(name)),
        ("content_type".into(), Value::String(content_type.into())),
        ("size".into(), Value::U64(len)),
        ("data".into(), Value::Bytes(data)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_blob_is_about_64_kib_and_its_size_field_is_true() {
        let Value::Array(blobs) = generate(2, Scale::Ci) else {
            panic!("binary_blobs is an array");
        };
        for blob in &blobs {
            let (Some(Value::U64(size)), Some(Value::Bytes(data))) =
                (blob.get("size"), blob.get("data"))
            else {
                panic!("a blob has a size and data");
            };
            assert_eq!(*size, data.len() as u64);
            assert!((MIN_LEN..=MAX_LEN).contains(size));
        }
    }
}
