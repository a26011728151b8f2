//! Unit tests of the codec on byte buffers: frames split or bunched in any
//! way decode alike; a frame over the limit, a message out of order and a
//! session without its header are refused.

use serde::{Deserialize, Serialize};
use surp::error::SessionError;
use surp::{Category, ErrorKind};
use tokio_util::codec::{Decoder, Encoder};

use super::*;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Reading {
    sensor: String,
    unit: String,
    value: i32,
}

fn readings(count: i32) -> Vec<Reading> {
    (0..count)
        .map(|i| Reading {
            sensor: format!("hall-{}", i % 3),
            unit: "celsius".into(),
            value: 18 + i,
        })
        .collect()
}

fn codec() -> SessionCodec<Reading> {
    SessionCodec::new(&SessionOptions::new())
}

/// Every frame the codec writes for `values`: the header's, then one per
/// message.
fn frames(values: &[Reading]) -> Vec<Vec<u8>> {
    let mut encoder = codec();
    let mut frames = Vec::new();
    for value in values {
        let mut wire = BytesMut::new();
        encoder.encode(value, &mut wire).unwrap();
        while !wire.is_empty() {
            let len = u32::from_le_bytes(wire[..PREFIX_LEN].try_into().unwrap()) as usize;
            frames.push(wire.split_to(PREFIX_LEN + len).to_vec());
        }
    }
    frames
}

fn session_error(err: SessionCodecError) -> SessionError {
    match err {
        SessionCodecError::Surp(e) => match e.kind() {
            ErrorKind::Session(s) => s.clone(),
            other => panic!("expected a session error, got {other:?} ({e})"),
        },
        other => panic!("expected a session error, got {other}"),
    }
}

/// Everything `decode` gives for `src`, until it wants more input.
fn decode_all(codec: &mut SessionCodec<Reading>, src: &mut BytesMut) -> Vec<Reading> {
    std::iter::from_fn(|| codec.decode(src).unwrap()).collect()
}

#[test]
fn the_header_is_the_first_frame_and_goes_once() {
    let frames = frames(&readings(3));
    assert_eq!(frames.len(), 4);
    assert_eq!(&frames[0][PREFIX_LEN..], &codec().encoder().header()[..]);
    for frame in &frames[1..] {
        // A session message: the session prefix, then kind 01.
        assert_eq!(&frame[PREFIX_LEN..PREFIX_LEN + 2], &[0xf1, 0x01]);
    }
}

#[test]
fn frames_are_surp_frames() {
    let values = readings(2);
    let frames = frames(&values);
    let wire = frames.concat();
    let mut input = &wire[..];
    let mut doc = Vec::new();
    let options = SessionOptions::new();
    let mut decoder = options.decoder();
    assert!(surp::frame::read_frame(&mut input, DEFAULT_MAX_FRAME_LEN, &mut doc).unwrap());
    decoder.read_header(&doc).unwrap();
    for value in &values {
        assert!(surp::frame::read_frame(&mut input, DEFAULT_MAX_FRAME_LEN, &mut doc).unwrap());
        assert_eq!(&decoder.decode::<Reading>(&doc).unwrap(), value);
    }
    assert!(!surp::frame::read_frame(&mut input, DEFAULT_MAX_FRAME_LEN, &mut doc).unwrap());
}

#[test]
fn a_frame_split_across_reads_decodes_once_it_is_whole() {
    let values = readings(5);
    let frames = frames(&values);
    let wire = frames.concat();
    // Where each message's frame ends in the wire.
    let ends: Vec<usize> = frames
        .iter()
        .scan(0, |end, frame| {
            *end += frame.len();
            Some(*end)
        })
        .skip(1)
        .collect();
    for chunk in [1, 2, 3, 7] {
        let mut decoder = codec();
        let mut src = BytesMut::new();
        let mut got = Vec::new();
        for (i, piece) in wire.chunks(chunk).enumerate() {
            src.extend_from_slice(piece);
            let arrived = (i * chunk + piece.len()).min(wire.len());
            let decoded = decode_all(&mut decoder, &mut src);
            let complete = ends.iter().filter(|&&end| end <= arrived).count();
            got.extend(decoded);
            assert_eq!(got.len(), complete, "chunks of {chunk}, {arrived} bytes in");
        }
        assert_eq!(got, values, "chunks of {chunk}");
        assert!(src.is_empty());
        assert_eq!(decoder.decode_eof(&mut src).unwrap(), None);
    }
}

#[test]
fn several_frames_in_one_read_all_decode() {
    let values = readings(6);
    let mut src = BytesMut::from(&frames(&values).concat()[..]);
    let mut decoder = codec();
    // The header and every message arrived together: one call reads the
    // header and the first message, as `FramedRead` needs.
    assert_eq!(decoder.decode(&mut src).unwrap(), Some(values[0].clone()));
    assert_eq!(decode_all(&mut decoder, &mut src), &values[1..]);
    assert!(src.is_empty());
}

#[test]
fn a_frame_over_the_limit_is_refused_from_its_prefix() {
    let mut decoder = codec().max_frame_len(64);
    let mut src = BytesMut::from(&frames(&readings(1))[0][..]);
    assert_eq!(decoder.decode(&mut src).unwrap(), None);
    // A frame claiming 4 GiB - 1: refused as soon as its prefix is in,
    // without reserving room for it.
    src.extend_from_slice(&u32::MAX.to_le_bytes());
    let capacity = src.capacity();
    let err = match decoder.decode(&mut src).unwrap_err() {
        SessionCodecError::Surp(e) => e,
        other => panic!("{other}"),
    };
    assert_eq!(
        *err.kind(),
        ErrorKind::FrameTooLong {
            len: u32::MAX.into(),
            limit: 64
        }
    );
    assert_eq!(err.offset(), Some(0));
    assert_eq!(
        err.to_string(),
        "frame of length 4294967295 exceeds the limit of 64 at byte 0"
    );
    assert_eq!(src.capacity(), capacity);

    // A frame of exactly the limit is read, here a header cut short, which
    // fails as such.
    let mut decoder = codec().max_frame_len(3);
    let mut src = BytesMut::from(&[3, 0, 0, 0, 0xf1, 0x00, 0x01][..]);
    let err = decoder.decode(&mut src).unwrap_err();
    assert!(matches!(err, SessionCodecError::Surp(e) if e.is_eof()));
}

#[test]
fn a_message_too_long_to_send_is_refused_and_the_session_goes_on() {
    let values = readings(3);
    let mut encoder = codec().max_frame_len(64);
    let mut wire = BytesMut::new();
    encoder.encode(&values[0], &mut wire).unwrap();
    let before = wire.len();
    let long = Reading {
        sensor: "x".repeat(100),
        ..values[1].clone()
    };
    let err = match encoder.encode(&long, &mut wire).unwrap_err() {
        SessionCodecError::Surp(e) => e,
        other => panic!("{other}"),
    };
    assert!(
        matches!(err.kind(), ErrorKind::FrameTooLong { limit: 64, .. }),
        "{err}"
    );
    assert_eq!(wire.len(), before, "nothing of the message was written");
    // The encoder's tables held the refused message's strings; the next
    // message resets the peer's tables to match.
    encoder.encode(&values[2], &mut wire).unwrap();
    let mut decoder = codec().max_frame_len(64);
    assert_eq!(
        decode_all(&mut decoder, &mut wire),
        [values[0].clone(), values[2].clone()]
    );
}

#[test]
fn a_message_out_of_order_is_refused() {
    let frames = frames(&readings(3));
    let mut decoder = codec();
    let mut src = BytesMut::from(&[&frames[0][..], &frames[1][..]].concat()[..]);
    assert!(decoder.decode(&mut src).unwrap().is_some());
    src.extend_from_slice(&frames[3]);
    let err = decoder.decode(&mut src).unwrap_err();
    assert_eq!(
        session_error(err),
        SessionError::Sequence {
            expected: 1,
            found: 2
        }
    );
}

#[test]
fn a_session_without_its_header_is_refused() {
    let frames = frames(&readings(2));
    let mut decoder = codec();
    let mut src = BytesMut::from(&frames[1][..]);
    let err = decoder.decode(&mut src).unwrap_err();
    assert_eq!(session_error(err), SessionError::MissingHeader);
    // A second header is not a message either.
    let mut decoder = codec();
    let mut src = BytesMut::from(&[&frames[0][..], &frames[0][..]].concat()[..]);
    let err = decoder.decode(&mut src).unwrap_err();
    assert_eq!(session_error(err), SessionError::UnexpectedHeader);
}

#[test]
fn a_header_over_the_decoders_budget_is_refused() {
    let asked = crate::DEFAULT_BUDGET.strings + 1;
    let big = SessionOptions::new().budget(asked, 10, 1 << 20);
    let mut encoder = SessionCodec::<Reading>::new(&big);
    let mut wire = BytesMut::new();
    encoder.encode(&readings(1)[0], &mut wire).unwrap();
    let mut decoder = codec();
    let err = decoder.decode(&mut wire).unwrap_err();
    assert!(
        matches!(
            session_error(err),
            SessionError::BudgetTooLarge {
                what: "string slots",
                ..
            }
        ),
        "the default budget has fewer slots"
    );
}

#[test]
fn a_frame_cut_short_at_the_end_is_an_eof_error() {
    let frames = frames(&readings(2));
    let wire = frames.concat();
    let boundaries: Vec<usize> = frames
        .iter()
        .scan(0, |end, frame| {
            *end += frame.len();
            Some(*end)
        })
        .collect();
    for cut in 1..wire.len() {
        let mut decoder = codec();
        let mut src = BytesMut::from(&wire[..cut]);
        let result = std::iter::from_fn(|| decoder.decode_eof(&mut src).transpose())
            .collect::<Result<Vec<_>, _>>();
        match result {
            Ok(_) => assert!(boundaries.contains(&cut), "cut at {cut} gave no error"),
            Err(SessionCodecError::Surp(e)) => {
                assert!(!boundaries.contains(&cut), "cut at {cut}: {e}");
                assert_eq!(e.classify(), Category::Eof, "cut at {cut}: {e}");
            }
            Err(e) => panic!("cut at {cut}: {e}"),
        }
    }
}

#[test]
fn a_value_of_another_type_is_an_error_and_an_io_error_converts() {
    let frames = frames(&readings(1));
    let mut decoder = SessionCodec::<u32>::new(&SessionOptions::new());
    let mut src = BytesMut::from(&frames.concat()[..]);
    let err = decoder.decode(&mut src).unwrap_err();
    assert!(matches!(&err, SessionCodecError::Surp(e) if e.classify() == Category::Data));

    let err = SessionCodecError::from(io::Error::other("connection reset"));
    assert_eq!(err.to_string(), "I/O error: connection reset");
    assert!(std::error::Error::source(&err).is_some());
}
