//! The `frames` list of `docs/vectors/surp-v2.json` (`docs/spec.md`
//! section 10) against `surp::frame`: each valid stream is what the writer
//! writes for its documents and what the reader gives back, and each
//! invalid one delivers its documents and then fails with the listed kind
//! and offset, whether the reader gets the input whole or a byte at a time.

use std::io::Read;

use surp::frame::{DEFAULT_MAX_FRAME_LEN, read_frame, write_frame_bytes};

mod notation;

use notation::{hex_field, load};

/// A reader that hands out one byte per call, as a slow socket might.
struct ByteByByte<'a>(&'a [u8]);

impl Read for ByteByByte<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let Some((&first, rest)) = self.0.split_first() else {
            return Ok(0);
        };
        if out.is_empty() {
            return Ok(0);
        }
        out[0] = first;
        self.0 = rest;
        Ok(1)
    }
}

/// The documents `reader` gives up to the end of its input or the first
/// error.
fn read_all(mut reader: impl Read, max_len: usize) -> (Vec<Vec<u8>>, Option<surp::Error>) {
    let mut docs = Vec::new();
    let mut buf = Vec::new();
    loop {
        match read_frame(&mut reader, max_len, &mut buf) {
            Ok(true) => docs.push(buf.clone()),
            Ok(false) => return (docs, None),
            Err(e) => return (docs, Some(e)),
        }
    }
}

#[test]
fn every_frames_vector_is_written_and_read_as_listed() {
    let doc = load();
    let cases = doc["frames"].as_array().unwrap();
    assert!(cases.iter().any(|c| c.get("error").is_some()));
    assert!(cases.iter().any(|c| c.get("error").is_none()));
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let documents: Vec<Vec<u8>> = case["documents"]
            .as_array()
            .unwrap()
            .iter()
            .map(hex_field)
            .collect();
        let bytes = hex_field(&case["hex"]);
        let max_len = case
            .get("max_len")
            .map_or(DEFAULT_MAX_FRAME_LEN, |n| n.as_u64().unwrap() as usize);

        if case.get("error").is_none() {
            let mut written = Vec::new();
            for d in &documents {
                write_frame_bytes(&mut written, d).unwrap();
            }
            assert_eq!(written, bytes, "{name}: written");
        }

        let whole = read_all(&bytes[..], max_len);
        let slow = read_all(ByteByByte(&bytes), max_len);
        for (how, (docs, err)) in [("whole", whole), ("byte by byte", slow)] {
            assert_eq!(docs, documents, "{name} ({how}): documents");
            match (case.get("error"), err) {
                (None, None) => {}
                (Some(kind), Some(err)) => {
                    let got = format!("{:?}", err.kind());
                    assert!(
                        got.starts_with(kind.as_str().unwrap()),
                        "{name} ({how}): got {got}"
                    );
                    assert_eq!(
                        err.offset(),
                        Some(case["offset"].as_u64().unwrap() as usize),
                        "{name} ({how}): {err}"
                    );
                }
                (want, got) => panic!("{name} ({how}): expected {want:?}, got {got:?}"),
            }
        }
    }
}

/// The empty document of a frame of length 0 is refused by the decoder,
/// not by the frame reader (section 10).
#[test]
fn an_empty_frame_is_read_and_its_document_refused() {
    let mut buf = vec![1, 2, 3];
    assert!(read_frame(&[0u8, 0, 0, 0][..], 16, &mut buf).unwrap());
    assert!(buf.is_empty());
    let err = surp::from_slice::<surp::Value>(&buf).unwrap_err();
    assert_eq!(err.classify(), surp::Category::Eof);
    assert_eq!(err.offset(), Some(0));
}
