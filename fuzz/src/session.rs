//! The session_stream target (`docs/spec.md` section 9.1), in two modes
//! chosen by bit 0 of the first byte.
//!
//! **Decode** (bit 0 clear): the rest of the input is a header and session
//! documents, each a 2-byte little-endian length and that many bytes (fewer
//! at the end), read by a [`SessionDecoder`] within a small budget as
//! `surp::Value`s. Checked: every error is placed inside its document;
//! after every message that decodes, the tables hold no more than the
//! header's budget; what decodes, encoded again as a session, decodes to
//! the same bits; and the same documents, framed, fed to the tokio codec
//! whole or a byte at a time, give the same values and the same first error.
//!
//! | bits of the first byte | meaning (decode) |
//! |---|---|
//! | 1–3 | the decoder's limits: [`Limits`](crate::control::Limits), as bits 0–2 of a [`Control`] byte |
//! | 4–5 | the decoder's budget: one of [`BUDGETS`] |
//! | 6 | the session starts from [`dictionary`] |
//! | 7 | the codec gets its input a byte at a time |
//!
//! **Encode** (bit 0 set): the rest drives `arbitrary`: a small budget,
//! values, a dictionary built from some of them or none, and a sequence of
//! messages (new values, earlier values again) and resets. A
//! [`SessionEncoder`] writes them and a [`SessionDecoder`] must give every
//! value back, bit for bit, with its tables counting what the encoder's
//! count after every message (both sides tumble at the same point).

use arbitrary::{Arbitrary, Unstructured};
use bytes::BytesMut;
use surp::__private::session::Header;
use surp::Value;
use surp_dedup::codec::{SessionCodec, SessionCodecError};
use surp_dedup::{Dictionary, SessionDecoder, SessionEncoder, SessionOptions, TableUsage};
use tokio_util::codec::Decoder;

use crate::control::Control;
use crate::decode::check_placed;
use crate::value::{ArbValue, same_bits};

/// At most this many documents are read from one input.
const MAX_DOCS: usize = 256;

/// The decoder budgets of decode mode, `(strings, shapes, bytes)`: all
/// small, so that a session tumbles often and a header asking for more
/// than the decoder accepts is common.
pub const BUDGETS: [(u32, u32, u32); 4] =
    [(64, 16, 4096), (4, 2, 256), (0, 0, 0), (512, 64, 32768)];

/// The first byte of decode mode for these settings.
pub fn decode_control(limits: u8, budget: usize, dictionary: bool, trickle: bool) -> u8 {
    assert!(limits < 8 && budget < BUDGETS.len());
    (limits << 1) | ((budget as u8) << 4) | (u8::from(dictionary) << 6) | (u8::from(trickle) << 7)
}

/// The dictionary of decode mode: the keys of the access-log records of
/// `surp-datasets` (the seeds' messages) and their record's shape.
pub fn dictionary() -> Dictionary {
    let keys = [
        "timestamp_ms",
        "client",
        "method",
        "path",
        "status",
        "bytes_sent",
        "latency_us",
        "user_agent",
        "referrer",
    ];
    let strings: Vec<&str> = keys.iter().copied().chain(["Get", "Post"]).collect();
    Dictionary::new(&strings, &[&keys[..]]).expect("a valid dictionary")
}

/// The options of decode mode's session for a first byte.
pub fn decode_options(first: u8) -> SessionOptions {
    let limits = Control::from_byte((first >> 1) & 7).options();
    let (strings, shapes, bytes) = BUDGETS[usize::from((first >> 4) & 3)];
    let options = SessionOptions::new()
        .budget(strings, shapes, bytes)
        .decode_limits(limits);
    if first & 0x40 != 0 {
        options.dictionary(dictionary())
    } else {
        options
    }
}

/// Writes `docs` as decode mode reads them after its first byte.
pub fn write_docs(out: &mut Vec<u8>, docs: &[Vec<u8>]) {
    for doc in docs {
        let len = u16::try_from(doc.len()).expect("a document under 64 KiB");
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(doc);
    }
}

/// Splits decode mode's input into documents.
fn read_docs(mut input: &[u8]) -> Vec<&[u8]> {
    let mut docs = Vec::new();
    while docs.len() < MAX_DOCS && !input.is_empty() {
        let (len, rest) = match input {
            [a, b, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), rest),
            [_] => break,
            [] => unreachable!(),
        };
        let (doc, rest) = rest.split_at(len.min(rest.len()));
        docs.push(doc);
        input = rest;
    }
    docs
}

/// The whole check of the session_stream target.
pub fn session_target(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    if first & 1 == 0 {
        decode_mode(first, rest);
    } else {
        let _ = encode_mode(&mut Unstructured::new(rest));
    }
}

fn decode_mode(first: u8, input: &[u8]) {
    let docs = read_docs(input);
    let Some((&header, messages)) = docs.split_first() else {
        return;
    };
    let options = decode_options(first);
    let mut decoder = options.decoder();
    let mut results = vec![decoder.read_header(header).map(|()| None)];
    if let Err(e) = &results[0] {
        check_placed(e, header);
    }
    // The budget of the session the decoder reads, once it has read the
    // header: within its own, with its dictionary.
    let budget = match &results[0] {
        Ok(_) => Some(Header::read(header).expect("a header read once").budget),
        Err(_) => None,
    };
    for &message in messages {
        let result = decoder.decode::<Value>(message);
        if result.is_ok() {
            let budget = budget.expect("a message decodes only after a header");
            let usage = decoder.usage();
            assert!(
                usage.strings <= budget.strings as usize
                    && usage.shapes <= budget.shapes as usize
                    && usage.bytes <= budget.bytes as usize,
                "the tables hold {usage:?} after a message, over the budget {budget:?}"
            );
        }
        if let Err(e) = &result {
            check_placed(e, message);
        }
        results.push(result.map(Some));
    }
    check_codec_agrees(first, &options, &docs, &results);

    let values: Vec<Value> = results
        .into_iter()
        .filter_map(|r| r.ok().flatten())
        .collect();
    if let Some(budget) = budget {
        let mut again = SessionOptions::new().budget(budget.strings, budget.shapes, budget.bytes);
        if first & 0x40 != 0 {
            again = again.dictionary(dictionary());
        }
        let messages: Vec<Message> = values.into_iter().map(Message::Value).collect();
        check_session_round_trip(&again, &messages);
    }
}

/// The documents framed and fed to the codec, whole or a byte at a time,
/// give the same values as the decoder, and the same first error.
fn check_codec_agrees(
    first: u8,
    options: &SessionOptions,
    docs: &[&[u8]],
    results: &[surp::Result<Option<Value>>],
) {
    let mut wire = Vec::new();
    for doc in docs {
        surp::frame::write_frame_bytes(&mut wire, doc).expect("a frame");
    }
    let mut codec = SessionCodec::<Value>::new(options).max_frame_len(usize::from(u16::MAX));
    let step = if first & 0x80 != 0 {
        1
    } else {
        wire.len().max(1)
    };
    let mut src = BytesMut::new();
    let mut got: Vec<Result<Value, SessionCodecError>> = Vec::new();
    'feed: for piece in wire.chunks(step) {
        src.extend_from_slice(piece);
        loop {
            match codec.decode(&mut src) {
                Ok(Some(v)) => got.push(Ok(v)),
                Ok(None) => break,
                Err(e) => {
                    got.push(Err(e));
                    break 'feed;
                }
            }
        }
    }
    // The decoder's results up to its first error; the header's `Ok` gives
    // no value.
    let mut expected = Vec::new();
    for result in results {
        match result {
            Ok(None) => {}
            Ok(Some(v)) => expected.push(Ok(v)),
            Err(e) => {
                expected.push(Err(e));
                break;
            }
        }
    }
    assert_eq!(
        got.len(),
        expected.len(),
        "the codec gave {got:?}, the decoder {expected:?}"
    );
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        match (g, e) {
            (Ok(a), Ok(b)) => assert!(same_bits(a, b), "document {i}: codec {a:?}, decoder {b:?}"),
            (Err(SessionCodecError::Surp(a)), Err(b)) => assert!(
                a.kind() == b.kind() && a.offset() == b.offset(),
                "document {i}: codec {a}, decoder {b}"
            ),
            _ => panic!("document {i}: codec {g:?}, decoder {e:?}"),
        }
    }
    if expected.iter().all(Result::is_ok) {
        assert!(src.is_empty(), "the codec left {} bytes", src.len());
        assert!(matches!(codec.decode_eof(&mut src), Ok(None)));
    }
}

/// One step of a session in encode mode.
#[derive(Debug)]
pub enum Message {
    /// Encode this value as the next message.
    Value(Value),
    /// Return the encoder's tables to their initial state.
    Reset,
}

/// Most distinct values in encode mode, and most steps.
const MAX_VALUES: u32 = 8;
const MAX_STEPS: u32 = 32;

fn encode_mode(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let budget = (
        u.int_in_range(0..=24)?,
        u.int_in_range(0..=8)?,
        u.int_in_range(0..=4096)?,
    );
    let mut values = Vec::new();
    for _ in 0..u.int_in_range(1..=MAX_VALUES)? {
        values.push(ArbValue::arbitrary(u)?.0);
    }
    let mut samples = Vec::new();
    for v in &values {
        if u.arbitrary()? {
            samples.push(v);
        }
    }
    let mut steps = Vec::new();
    for _ in 0..u.int_in_range(1..=MAX_STEPS)? {
        steps.push(match u.int_in_range(0..=7)? {
            0 => Message::Reset,
            _ => Message::Value(values[u.choose_index(values.len())?].clone()),
        });
    }
    let mut options = SessionOptions::new().budget(budget.0, budget.1, budget.2);
    if !samples.is_empty() {
        let dictionary = Dictionary::from_samples(&samples).expect("a dictionary from samples");
        options = options.dictionary(dictionary);
    }
    check_session_round_trip(&options, &steps);
    Ok(())
}

/// Encodes the steps as one session and checks that the decoder gives
/// every value back, with its tables counting what the encoder's count.
///
/// The decoder allows references to expand further than by default: an
/// encoder may write a message past the baseline expansion limit
/// (`docs/spec.md` section 7.4), and a session's messages can refer to
/// long strings of earlier ones.
pub fn check_session_round_trip(options: &SessionOptions, steps: &[Message]) {
    let mut encoder: SessionEncoder = options.encoder();
    let relaxed = surp::Options::new().max_expansion(surp::DEFAULT_EXPANSION_RATIO, 1 << 30);
    let mut decoder: SessionDecoder = options.clone().decode_limits(relaxed).decoder();
    decoder
        .read_header(&encoder.header())
        .expect("the decoder reads its own options' header");
    for (i, step) in steps.iter().enumerate() {
        let value = match step {
            Message::Reset => {
                encoder.reset();
                continue;
            }
            Message::Value(value) => value,
        };
        let message = encoder.encode(value).expect("a value encodes");
        let back: Value = decoder
            .decode(&message)
            .unwrap_or_else(|e| panic!("step {i}: {e} for {value:?} in {message:02x?}"));
        assert!(
            same_bits(value, &back),
            "step {i}: session round trip changed {value:?} into {back:?}"
        );
        let (ours, theirs): (TableUsage, TableUsage) = (encoder.usage(), decoder.usage());
        assert_eq!(
            ours, theirs,
            "step {i}: the encoder's and decoder's tables differ"
        );
    }
}
