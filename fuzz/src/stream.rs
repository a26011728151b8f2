//! The stream target: the bytes after the control byte are read as a
//! stream of documents (`Deserializer::into_iter`), from a slice and from a
//! reader, under the control's limits.
//!
//! Checked: every error is placed inside the input; the iterator ends after
//! an error; the slice and the reader give the same values and the same
//! error, kind and offset; `take_from_slice` agrees with the first
//! document; and the values decoded, re-encoded one after another (plain
//! and deduplicated, alternately) and framed, read back the same.

use surp::{Deserializer, Value};

use crate::control::{Control, Path, Trickle};
use crate::decode::checked;
use crate::value::same_bits;

/// At most this many documents are read from one input.
const MAX_DOCS: usize = 4096;

fn collect<'de, R: surp::read::Read<'de>>(de: Deserializer<R>) -> Vec<surp::Result<Value>> {
    let mut out = Vec::new();
    for result in de.into_iter::<Value>().take(MAX_DOCS) {
        let failed = result.is_err();
        out.push(result);
        if failed {
            break;
        }
    }
    out
}

/// Whether a slice's result `a` and a reader's `b` agree: the same value,
/// or the same error at the same offset. The one exception: a slice refuses
/// an array or map whose count its remaining bytes cannot hold at the
/// header, where a reader, which cannot know, may first meet another error
/// there (the depth limit) or inside it.
fn same(a: &surp::Result<Value>, b: &surp::Result<Value>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => same_bits(a, b),
        (Err(a), Err(b)) if a.kind() == b.kind() && a.offset() == b.offset() => true,
        (Err(a), Err(b)) => {
            matches!(
                a.kind(),
                surp::ErrorKind::LengthExceedsInput {
                    kind: surp::wire::Kind::Array | surp::wire::Kind::Map,
                    ..
                }
            ) && b.offset() >= a.offset()
        }
        _ => false,
    }
}

/// The whole check of the stream target.
pub fn stream_target(data: &[u8]) {
    let Some((control, doc)) = Control::split(data) else {
        return;
    };
    let opts = control.options();
    let from_slice = collect(Deserializer::from_slice_with_options(&doc, opts.clone()));
    let from_reader = match control.path {
        Path::Trickle => collect(Deserializer::from_reader_with_options(
            Trickle(&doc),
            opts.clone(),
        )),
        _ => collect(Deserializer::from_reader_with_options(
            &doc[..],
            opts.clone(),
        )),
    };
    assert_eq!(
        from_slice.len(),
        from_reader.len(),
        "a slice read {} documents, a reader {}",
        from_slice.len(),
        from_reader.len()
    );
    for (i, (a, b)) in from_slice.iter().zip(&from_reader).enumerate() {
        assert!(same(a, b), "document {i}: slice {a:?}, reader {b:?}");
    }
    // After an error there is nothing more.
    let mut more = Deserializer::from_slice_with_options(&doc, opts.clone()).into_iter::<Value>();
    if from_slice.iter().any(Result::is_err) && from_slice.len() < MAX_DOCS {
        for _ in 0..from_slice.len() {
            more.next();
        }
        assert!(more.next().is_none(), "the iterator went on after an error");
    }
    if let Some(first) = from_slice.first() {
        let taken = opts.take_from_slice::<Value>(&doc);
        match (&taken, first) {
            (Ok((v, _)), Ok(w)) => assert!(same_bits(v, w)),
            (Err(e), Err(f)) => assert_eq!((e.kind(), e.offset()), (f.kind(), f.offset())),
            _ => panic!("take_from_slice {taken:?}, the stream {first:?}"),
        }
    }

    let values: Vec<Value> = from_slice
        .into_iter()
        .filter_map(|r| checked(r, &doc))
        .collect();
    let mut stream = Vec::new();
    let mut framed = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let bytes = if i % 2 == 0 {
            surp::to_vec(v).expect("a decoded value encodes")
        } else {
            surp_dedup::to_vec(v).expect("a decoded value encodes with dedup")
        };
        surp::frame::write_frame_bytes(&mut framed, &bytes).expect("a frame is written");
        stream.extend(bytes);
    }
    let back: Vec<Value> = Deserializer::from_slice(&stream)
        .into_iter()
        .collect::<surp::Result<_>>()
        .expect("re-encoded documents decode as a stream");
    assert_eq!(back.len(), values.len());
    for (a, b) in values.iter().zip(&back) {
        assert!(
            same_bits(a, b),
            "stream round trip changed {a:?} into {b:?}"
        );
    }
    let mut input = &framed[..];
    let mut buf = Vec::new();
    for v in &values {
        assert!(surp::frame::read_frame(&mut input, usize::MAX, &mut buf).expect("a frame"));
        let w: Value = surp::from_slice(&buf).expect("a framed document decodes");
        assert!(
            same_bits(v, &w),
            "frame round trip changed {v:?} into {w:?}"
        );
    }
    assert!(!surp::frame::read_frame(&mut input, usize::MAX, &mut buf).expect("the end"));
}
