//! Unit tests of errors: equality, categories, messages and the I/O conversion.

use super::*;

#[test]
fn display_reads_like_a_sentence_with_the_offset() {
    let e = Error::new(ErrorKind::InvalidUtf8, 17);
    assert_eq!(e.to_string(), "invalid UTF-8 in a string at byte 17");
    let e = Error::new(
        ErrorKind::LengthExceedsInput {
            kind: Kind::Array,
            len: 1 << 32,
        },
        3,
    );
    assert_eq!(
        e.to_string(),
        "array declares 4294967296 items but the input is too short to hold them at byte 3"
    );
}

#[test]
fn a_serde_message_takes_the_first_position_it_is_given() {
    let e = <Error as serde::de::Error>::custom("missing field `id`")
        .at(5)
        .at(9);
    assert_eq!(e.offset(), Some(5));
    assert_eq!(e.to_string(), "missing field `id` at byte 5");
}

#[test]
fn shifted_moves_the_offset_and_its_message_and_leaves_the_rest() {
    let e = Error::new(ErrorKind::InvalidUtf8, 17)
        .with_hint("a hint")
        .shifted(100);
    assert_eq!(e.offset(), Some(117));
    assert_eq!(e.kind(), &ErrorKind::InvalidUtf8);
    assert!(
        e.to_string()
            .starts_with("invalid UTF-8 in a string at byte 117"),
        "{e}"
    );
    assert!(e.to_string().contains("a hint"), "{e}");
    // No offset to move (an encoding error), and no overflow past usize.
    let e = Error::without_offset(ErrorKind::OutputFull).shifted(100);
    assert_eq!(e.offset(), None);
    let e = Error::new(ErrorKind::TrailingBytes, 2).shifted(usize::MAX);
    assert_eq!(e.offset(), Some(usize::MAX));
}

#[test]
fn a_cut_document_is_eof_and_a_bad_one_is_syntax() {
    let bytes = crate::to_vec(&("name", [1u32, 2, 3])).unwrap();
    for cut in 0..bytes.len() {
        let e = crate::from_slice::<(String, Vec<u32>)>(&bytes[..cut]).unwrap_err();
        assert_eq!(e.classify(), Category::Eof, "cut at {cut}: {e}");
        let e = crate::from_reader::<_, (String, Vec<u32>)>(&bytes[..cut]).unwrap_err();
        assert_eq!(e.classify(), Category::Eof, "reader cut at {cut}: {e}");
    }
    let reserved = crate::from_slice::<u8>(&[crate::wire::RESERVED]).unwrap_err();
    assert_eq!(reserved.classify(), Category::Syntax);
    let trailing = crate::from_slice::<u8>(&[1, 2]).unwrap_err();
    assert_eq!(trailing.classify(), Category::Syntax);
}

#[test]
fn a_type_mismatch_is_data_and_a_failed_write_is_io() {
    let e = crate::from_slice::<bool>(&crate::to_vec("yes").unwrap()).unwrap_err();
    assert_eq!(e.classify(), Category::Data);
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("broken pipe"))
        }
    }
    let e = crate::from_reader::<_, u8>(Broken).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Io(_)), "{e}");
    assert_eq!(e.classify(), Category::Io);
}

/// Every variant, each in two versions that differ in every field
/// (the same twice for a variant without fields), built anew on each
/// call so that equality is not identity.
fn every_kind() -> Vec<(ErrorKind, ErrorKind)> {
    use ErrorKind::*;
    let io = |kind| Io(std::io::Error::from(kind));
    vec![
        (UnexpectedEof, UnexpectedEof),
        (ReservedTag(0xf7), ReservedTag(0xf8)),
        (InvalidUtf8, InvalidUtf8),
        (InvalidWideInteger(8), InvalidWideInteger(17)),
        (IntegerOutOfRange, IntegerOutOfRange),
        (DepthLimitExceeded(128), DepthLimitExceeded(2)),
        (
            LengthExceedsInput {
                kind: Kind::Str,
                len: 9,
            },
            LengthExceedsInput {
                kind: Kind::Map,
                len: 10,
            },
        ),
        (
            LengthLimitExceeded {
                kind: Kind::Array,
                len: 9,
                limit: 8,
            },
            LengthLimitExceeded {
                kind: Kind::Bytes,
                len: 10,
                limit: 7,
            },
        ),
        (
            FrameTooLong { len: 9, limit: 8 },
            FrameTooLong { len: 10, limit: 7 },
        ),
        (AllocationLimitExceeded(1000), AllocationLimitExceeded(999)),
        (TrailingBytes, TrailingBytes),
        (TrailingItems(1), TrailingItems(2)),
        (MisplacedDedupMarker, MisplacedDedupMarker),
        (
            UnknownStringRef {
                index: 3,
                defined: 2,
                limit: 8,
            },
            UnknownStringRef {
                index: 4,
                defined: 1,
                limit: 9,
            },
        ),
        (
            UnknownShapeRef {
                index: 3,
                defined: 2,
                limit: 8,
            },
            UnknownShapeRef {
                index: 4,
                defined: 1,
                limit: 9,
            },
        ),
        (RefWithoutMarker, RefWithoutMarker),
        (
            io(std::io::ErrorKind::BrokenPipe),
            io(std::io::ErrorKind::PermissionDenied),
        ),
        (OutputFull, OutputFull),
        (EnumMapLength(0), EnumMapLength(2)),
        (NotAnEnum(0x01), NotAnEnum(0x02)),
        (
            LengthMismatch {
                kind: Kind::Array,
                declared: 3,
                written: 2,
            },
            LengthMismatch {
                kind: Kind::Map,
                declared: 2,
                written: 3,
            },
        ),
        (Message("a".into()), Message("b".into())),
        (
            Session(crate::error::SessionError::Sequence {
                expected: 1,
                found: 2,
            }),
            Session(crate::error::SessionError::Broken),
        ),
    ]
}

/// Each variant once, by its position in the declaration; exhaustive,
/// so that a new variant fails to compile until [`every_kind`] has it.
fn variant(kind: &ErrorKind) -> usize {
    use ErrorKind::*;
    match kind {
        UnexpectedEof => 0,
        ReservedTag(_) => 1,
        InvalidUtf8 => 2,
        InvalidWideInteger(_) => 3,
        IntegerOutOfRange => 4,
        DepthLimitExceeded(_) => 5,
        LengthExceedsInput { .. } => 6,
        LengthLimitExceeded { .. } => 7,
        FrameTooLong { .. } => 8,
        AllocationLimitExceeded(_) => 9,
        TrailingBytes => 10,
        TrailingItems(_) => 11,
        MisplacedDedupMarker => 12,
        UnknownStringRef { .. } => 13,
        UnknownShapeRef { .. } => 14,
        RefWithoutMarker => 15,
        Io(_) => 16,
        OutputFull => 17,
        EnumMapLength(_) => 18,
        NotAnEnum(_) => 19,
        LengthMismatch { .. } => 20,
        Message(_) => 21,
        Session(_) => 22,
    }
}

#[test]
fn every_kind_has_every_variant() {
    let variants: Vec<usize> = every_kind().iter().map(|(k, _)| variant(k)).collect();
    assert_eq!(variants, (0..=22).collect::<Vec<_>>());
}

#[test]
fn kinds_are_equal_when_variant_and_fields_are() {
    for (i, (a, other)) in every_kind().into_iter().enumerate() {
        for (j, (b, _)) in every_kind().into_iter().enumerate() {
            assert_eq!(a == b, i == j, "{a:?} == {b:?}");
        }
        // The same variant with other fields is another kind.
        assert_eq!(variant(&a), variant(&other));
        let has_fields = format!("{a:?}") != format!("{other:?}");
        assert_eq!(a == other, !has_fields, "{a:?} == {other:?}");
    }
}

#[test]
fn io_kinds_are_equal_when_their_io_error_kinds_are() {
    use ErrorKind::Io;
    assert_eq!(
        Io(std::io::Error::other("first")),
        Io(std::io::Error::other("second"))
    );
    assert_ne!(
        Io(std::io::Error::other("same")),
        Io(std::io::Error::new(std::io::ErrorKind::InvalidData, "same"))
    );
}

#[test]
fn an_io_error_kind_follows_the_category() {
    for (kind, _) in every_kind() {
        let inner_io = match &kind {
            ErrorKind::Io(io) => Some(io.kind()),
            _ => None,
        };
        let e = Error::new(kind, 7);
        let category = e.classify();
        let message = e.to_string();
        let io = std::io::Error::from(e);
        let expected = match category {
            Category::Io => inner_io.unwrap_or(std::io::ErrorKind::WriteZero),
            Category::Eof => std::io::ErrorKind::UnexpectedEof,
            Category::Syntax | Category::Data => std::io::ErrorKind::InvalidData,
        };
        assert_eq!(io.kind(), expected, "{message}");
        if inner_io.is_none() {
            // The Surp error travels inside, offset and all.
            let inner = io.get_ref().and_then(|e| e.downcast_ref::<Error>());
            assert_eq!(inner.map(Error::offset), Some(Some(7)), "{message}");
            assert_eq!(io.to_string(), message);
        }
    }
}

#[test]
fn a_reader_s_io_error_comes_back_as_it_was() {
    let cause = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "peer left");
    let e = Error::without_offset(ErrorKind::Io(cause));
    let io = std::io::Error::from(e);
    assert_eq!(io.kind(), std::io::ErrorKind::ConnectionReset);
    assert_eq!(io.to_string(), "peer left");
}

#[test]
fn error_is_one_pointer_wide() {
    assert_eq!(core::mem::size_of::<Error>(), core::mem::size_of::<usize>());
}
