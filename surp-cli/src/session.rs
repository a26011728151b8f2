//! `surp encode --session` and `surp decode --session`: the messages of a
//! session (spec section 9.1) as a stream of frames (section 10), its
//! header first, and a JSON array of those messages.

use std::io::Write;

use surp_dedup::{Budget, SessionOptions};

use crate::error::Error;
use crate::files::WriteFailure;
use crate::json::{self, BytesForm, JsonError};

/// `surp_dedup::DEFAULT_BUDGET`, as `--budget` writes it (checked by a test).
pub const DEFAULT_BUDGET: &str = "16384,2048,1048576";

/// Parses a `--budget`: `STRINGS,SHAPES,BYTES`, string slots, shapes and
/// bytes separated by commas.
pub fn parse_budget(text: &str) -> Result<Budget, String> {
    let parts: Vec<&str> = text.split(',').collect();
    let [strings, shapes, bytes] = parts[..] else {
        return Err(format!("expected STRINGS,SHAPES,BYTES, got {text:?}"));
    };
    let number = |what: &str, s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|e| format!("{what} {s:?}: {e}"))
    };
    Ok(Budget {
        strings: number("strings", strings)?,
        shapes: number("shapes", shapes)?,
        bytes: number("bytes", bytes)?,
    })
}

fn options(budget: Budget) -> SessionOptions {
    SessionOptions::new().budget(budget.strings, budget.shapes, budget.bytes)
}

/// Encodes each item of a JSON array as the next message of one session:
/// the header's frame, then a frame per message.
pub fn encode(value: &surp::Value, budget: Budget) -> Result<Vec<u8>, Error> {
    let surp::Value::Array(messages) = value else {
        return Err(Error::NotAnArray);
    };
    let mut encoder = options(budget).encoder();
    let mut out = Vec::new();
    let frame = |out: &mut Vec<u8>, doc: &[u8]| {
        surp::frame::write_frame_bytes(out, doc).map_err(Error::Encode)
    };
    frame(&mut out, &encoder.header())?;
    let mut message = Vec::new();
    for item in messages {
        message.clear();
        encoder
            .append_to_vec(&mut message, item)
            .map_err(Error::Encode)?;
        frame(&mut out, &message)?;
    }
    Ok(out)
}

/// Reads a session's frames, the header first, and writes its messages as
/// a JSON array, one message a line (or indented with `pretty`). Beyond
/// the input, memory holds the session's tables and one message.
pub fn decode(
    input: &[u8],
    budget: Budget,
    bytes: BytesForm,
    pretty: bool,
    out: &mut dyn Write,
) -> Result<(), WriteFailure> {
    let mut decoder = options(budget).decoder();
    let mut reader = input;
    let mut doc = Vec::new();
    let mut text = Vec::new();
    let mut frame = 0;
    let io = WriteFailure::Io;
    loop {
        let start = input.len() - reader.len();
        let failed = |error| {
            WriteFailure::Command(Error::Session {
                frame,
                start,
                error,
            })
        };
        // The frame reader reports a frame cut short as a byte string that
        // does not fit; the whole input is here, so say it of the frame.
        if let Some(prefix) = reader.first_chunk::<{ surp::frame::PREFIX_LEN }>() {
            let declared = u32::from_le_bytes(*prefix) as usize;
            let left = reader.len() - prefix.len();
            if declared > left && declared <= surp::frame::DEFAULT_MAX_FRAME_LEN {
                return Err(WriteFailure::Command(Error::FrameCutShort {
                    frame,
                    start,
                    declared,
                    left,
                }));
            }
        }
        let more =
            surp::frame::read_frame(&mut reader, surp::frame::DEFAULT_MAX_FRAME_LEN, &mut doc)
                .map_err(failed)?;
        if !more {
            break;
        }
        if frame == 0 {
            decoder.read_header(&doc).map_err(failed)?;
            out.write_all(b"[").map_err(io)?;
        } else {
            let value: surp::Value = decoder.decode(&doc).map_err(failed)?;
            // The message as a plain document, so that the JSON writer of
            // `surp decode` turns it into text.
            let plain = surp::to_vec(&value)
                .map_err(Error::Encode)
                .map_err(WriteFailure::Command)?;
            text.clear();
            json::write_json(&plain, bytes, pretty, &mut text).map_err(|e| match e {
                // Its offset would be in the document made here.
                JsonError::Surp(e) => WriteFailure::Command(Error::MessageNotJson {
                    frame,
                    start,
                    kind: e.kind().to_string(),
                }),
                JsonError::Io(e) => WriteFailure::Io(e),
            })?;
            text.pop(); // the newline
            out.write_all(if frame == 1 { b"\n" } else { b",\n" })
                .map_err(io)?;
            out.write_all(&text).map_err(io)?;
        }
        frame += 1;
    }
    if frame == 0 {
        return Err(WriteFailure::Command(Error::EmptySession));
    }
    out.write_all(if frame == 1 { b"]\n" } else { b"\n]\n" })
        .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_or_say_what_is_wrong() {
        assert_eq!(parse_budget(DEFAULT_BUDGET), Ok(surp_dedup::DEFAULT_BUDGET));
        assert_eq!(
            parse_budget("1, 2,3"),
            Ok(Budget {
                strings: 1,
                shapes: 2,
                bytes: 3
            })
        );
        assert_eq!(
            parse_budget("1,2").unwrap_err(),
            "expected STRINGS,SHAPES,BYTES, got \"1,2\""
        );
        assert_eq!(
            parse_budget("1,x,3").unwrap_err(),
            "shapes \"x\": invalid digit found in string"
        );
    }
}
