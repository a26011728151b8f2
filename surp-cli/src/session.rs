//! `surp encode --session` and `surp decode --session`: the messages of a
//! session (spec section 9.1) as a stream of frames (section 10), its
//! header first, and a JSON array of those messages; and `--dictionary`,
//! the stored dictionary (section 9.2) a session or a document starts from.

use std::io::Write;
use std::path::Path;

use surp_dedup::{Budget, Dictionary, SessionOptions};

use surp::frame::{DEFAULT_MAX_FRAME_LEN, PREFIX_LEN};

use crate::error::{Error, SessionFailure};
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
    let budget = Budget {
        strings: number("strings", strings)?,
        shapes: number("shapes", shapes)?,
        bytes: number("bytes", bytes)?,
    };
    // No header may ask for more (spec section 9.1): the table limits.
    let most = Budget::MAX;
    if budget.strings > most.strings || budget.shapes > most.shapes {
        return Err(format!(
            "at most {} string slots and {} shapes, not {} and {}",
            most.strings, most.shapes, budget.strings, budget.shapes
        ));
    }
    Ok(budget)
}

fn options(budget: Budget, dictionary: Option<&Dictionary>) -> SessionOptions {
    let options = SessionOptions::new().budget(budget.strings, budget.shapes, budget.bytes);
    match dictionary {
        Some(dictionary) => options.dictionary(dictionary.clone()),
        None => options,
    }
}

/// The stored dictionary in the file at `path`, if one is given, as `surp
/// dictionary` (or `Dictionary::to_bytes`) writes it.
pub fn load_dictionary(path: Option<&Path>) -> Result<Option<Dictionary>, Error> {
    let Some(path) = path else {
        return Ok(None);
    };
    let bytes = crate::files::read_input(Some(path))?;
    Dictionary::from_bytes(&bytes)
        .map(Some)
        .map_err(|error| Error::Dictionary {
            path: path.display().to_string(),
            error,
        })
}

/// Writes `value` as JSON text into `text` (cleared first), without the
/// final newline. A value without a JSON form gives what it is; an offset
/// would be one of the plain document made here, not of the input.
pub fn value_json(
    value: &surp::Value,
    bytes: BytesForm,
    pretty: bool,
    text: &mut Vec<u8>,
) -> Result<(), String> {
    let plain = surp::to_vec(value).map_err(|e| e.kind().to_string())?;
    text.clear();
    json::write_json(&plain, bytes, pretty, text).map_err(|e| match e {
        JsonError::Surp(e) => e.kind().to_string(),
        JsonError::Io(e) => e.to_string(),
    })?;
    text.pop(); // the newline
    Ok(())
}

/// Encodes each item of a JSON array as the next message of one session:
/// the header's frame, then a frame per message.
pub fn encode(
    value: &surp::Value,
    budget: Budget,
    dictionary: Option<&Dictionary>,
) -> Result<Vec<u8>, Error> {
    let surp::Value::Array(messages) = value else {
        return Err(Error::NotAnArray(
            "--session takes a JSON array, each item one message of the session",
        ));
    };
    let mut encoder = options(budget, dictionary).encoder();
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
    dictionary: Option<&Dictionary>,
    bytes: BytesForm,
    pretty: bool,
    out: &mut dyn Write,
) -> Result<(), WriteFailure> {
    let mut decoder = options(budget, dictionary).decoder();
    let mut reader = input;
    let mut doc = Vec::new();
    let mut text = Vec::new();
    let mut frame = 0;
    let io = WriteFailure::Io;
    loop {
        let start = input.len() - reader.len();
        let document = start + PREFIX_LEN;
        let failed = |mut failure: SessionFailure| {
            // Text where frames were expected: say so once, at the start.
            failure.json_text = frame == 0 && json::is_json_text(input);
            WriteFailure::Command(Error::Session(failure))
        };
        let more =
            surp::frame::read_frame(&mut reader, DEFAULT_MAX_FRAME_LEN, &mut doc).map_err(|e| {
                match e.kind() {
                    // The frame reader reports a frame cut short as a byte
                    // string that does not fit; say it of the frame.
                    surp::ErrorKind::LengthExceedsInput { len, .. } => {
                        let left = input.len() - document;
                        let what = format!(
                            "the frame declares {len} bytes but the input ends {left} bytes after \
                         its length, at byte {}",
                            input.len()
                        );
                        failed(SessionFailure::at(what, frame, start))
                    }
                    _ => failed(SessionFailure::new(e.shifted(start), frame, start)),
                }
            })?;
        if !more {
            break;
        }
        let invalid =
            |e: surp::Error| failed(SessionFailure::new(e.shifted(document), frame, start));
        if frame == 0 {
            decoder.read_header(&doc).map_err(invalid)?;
            out.write_all(b"[").map_err(io)?;
        } else {
            let value: surp::Value = decoder.decode(&doc).map_err(invalid)?;
            // Only the message's frame is named if it has no JSON form.
            value_json(&value, bytes, pretty, &mut text).map_err(|what| {
                failed(SessionFailure {
                    not_json: true,
                    ..SessionFailure::at(what, frame, start)
                })
            })?;
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
        // The table limits of the spec, and one past each.
        let most = "16777216,65536,4294967295";
        assert_eq!(parse_budget(most), Ok(Budget::MAX));
        for over in ["16777217,1,1", "1,65537,1"] {
            assert_eq!(
                parse_budget(over).unwrap_err(),
                format!(
                    "at most 16777216 string slots and 65536 shapes, not {}",
                    over.replacen(',', " and ", 1).rsplit_once(',').unwrap().0
                )
            );
        }
    }
}
