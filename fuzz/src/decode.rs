//! Running one decode as a [`Control`] byte says, and the checks every
//! decode result must pass.

use serde::de::{Deserialize, DeserializeOwned};
use surp::Value;

use crate::control::{Control, Path, Trickle};
use crate::value::same_bits;

/// Which crate's decoding functions to call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoder {
    /// `surp::Options::from_slice` / `from_reader`.
    Core,
    /// `surp_dedup::Options::from_slice` / `from_reader`.
    Dedup,
}

/// Decodes an owned `T` from `doc` along the control's path.
pub fn owned<T: DeserializeOwned>(
    decoder: Decoder,
    control: Control,
    doc: &[u8],
) -> surp::Result<T> {
    match (decoder, control.path) {
        (Decoder::Core, Path::Slice) => control.options().from_slice(doc),
        (Decoder::Core, Path::Reader) => control.options().from_reader(doc),
        (Decoder::Core, Path::Trickle) => control.options().from_reader(Trickle(doc)),
        (Decoder::Dedup, Path::Slice) => control.dedup_options().from_slice(doc),
        (Decoder::Dedup, Path::Reader) => control.dedup_options().from_reader(doc),
        (Decoder::Dedup, Path::Trickle) => control.dedup_options().from_reader(Trickle(doc)),
    }
}

/// Decodes a `T` that may borrow from `doc`; always from the slice.
pub fn borrowed<'de, T: Deserialize<'de>>(
    decoder: Decoder,
    control: Control,
    doc: &'de [u8],
) -> surp::Result<T> {
    match decoder {
        Decoder::Core => control.options().from_slice(doc),
        Decoder::Dedup => control.dedup_options().from_slice(doc),
    }
}

/// Passes an `Ok` through; checks that an `Err` names a byte offset inside
/// the document (its end counts: that is where a missing byte was wanted)
/// and has a message, then gives `None`.
pub fn checked<T>(result: surp::Result<T>, doc: &[u8]) -> Option<T> {
    match result {
        Ok(v) => Some(v),
        Err(err) => {
            check_placed(&err, doc);
            None
        }
    }
}

/// Checks that a decoding error names a byte offset inside the document
/// (its end counts) and has a message.
pub fn check_placed(err: &surp::Error, doc: &[u8]) {
    let message = err.to_string();
    assert!(!message.is_empty(), "an error without a message");
    match err.offset() {
        Some(at) => assert!(
            at <= doc.len(),
            "error offset {at} past the {}-byte document: {message}",
            doc.len()
        ),
        None => panic!("a decoding error without a byte offset: {message}"),
    }
}

/// A decoded value must survive a round trip through both encoders, and
/// deduplication must never make it longer.
pub fn check_value_round_trips(v: &Value) {
    let plain = surp::to_vec(v).expect("a decoded value encodes");
    let back: Value = surp::from_slice(&plain).expect("a re-encoded value decodes");
    assert!(
        same_bits(v, &back),
        "plain round trip changed {v:?} into {back:?}"
    );

    let dedup = surp_dedup::to_vec(v).expect("a decoded value encodes with dedup");
    check_never_longer(&plain, &dedup);
    let back: Value = surp_dedup::from_slice(&dedup).expect("a deduplicated value decodes");
    assert!(
        same_bits(v, &back),
        "dedup round trip changed {v:?} into {back:?}"
    );
}

/// Section 7.3 of the spec: a deduplicated document is never longer than the
/// plain one, and without a reference it is the plain one.
pub fn check_never_longer(plain: &[u8], dedup: &[u8]) {
    assert!(
        dedup.len() <= plain.len(),
        "deduplicated {} bytes, plain {}",
        dedup.len(),
        plain.len()
    );
    if dedup.first() != Some(&surp::wire::DEDUP_MARKER) {
        assert_eq!(
            dedup, plain,
            "a document without a marker must be the plain one"
        );
    }
}

/// The whole check of a `Value` decode target: decode along the control's
/// path, check the error or the round trip, and with default limits check
/// that a reader agrees with the slice.
pub fn value_target(decoder: Decoder, data: &[u8]) {
    let Some((control, doc)) = Control::split(data) else {
        return;
    };
    let first = checked(owned::<Value>(decoder, control, &doc), &doc);
    if let Some(v) = &first {
        check_value_round_trips(v);
    }
    if control.limits == crate::control::Limits::Default {
        let other = Control {
            path: match control.path {
                Path::Slice => Path::Reader,
                _ => Path::Slice,
            },
            ..control
        };
        let second = checked(owned::<Value>(decoder, other, &doc), &doc);
        match (&first, &second) {
            (Some(a), Some(b)) => assert!(
                same_bits(a, b),
                "{:?} gave {a:?} but {:?} gave {b:?}",
                control.path,
                other.path
            ),
            (None, None) => {}
            _ => panic!(
                "{:?} and {:?} disagree on whether the document is valid",
                control.path, other.path
            ),
        }
    }
}

/// The whole check of an `IgnoredAny` target: skipping ends in `Ok` or a
/// placed `Err`, and with default limits a document that decodes as a
/// `Value` also skips (skipping checks less than decoding, never more).
pub fn ignored_target(decoder: Decoder, data: &[u8]) {
    let Some((control, doc)) = Control::split(data) else {
        return;
    };
    let skipped = checked(owned::<serde::de::IgnoredAny>(decoder, control, &doc), &doc);
    if control.limits == crate::control::Limits::Default && skipped.is_none() {
        assert!(
            owned::<Value>(decoder, control, &doc).is_err(),
            "decodes as a Value but does not skip"
        );
    }
}

/// The whole check of a typed target: the owned [`crate::Record`] along the
/// control's path and, from a slice, the borrowing [`crate::Borrowing`]. A
/// record that decodes must encode to bytes that decode to the same bytes.
pub fn typed_target(decoder: Decoder, data: &[u8]) {
    let Some((control, doc)) = Control::split(data) else {
        return;
    };
    if let Some(record) = checked(owned::<crate::Record>(decoder, control, &doc), &doc) {
        crate::record::check_record_round_trips(&record);
    }
    if let Some(b) = checked(
        borrowed::<crate::Borrowing<'_>>(decoder, control, &doc),
        &doc,
    ) {
        let again = surp::to_vec(&b).expect("a decoded record encodes");
        let back: crate::Borrowing<'_> = surp::from_slice(&again).expect("and decodes");
        assert_eq!(surp::to_vec(&back).expect("encodes"), again);
    }
}
