//! `surp encode --session` and `surp decode --session`: the messages of a
//! session (spec section 9.1) as a stream of frames (section 10), its
//! header first, and a JSON array of those messages; and `--dictionary`,
//! the stored dictionary (section 9.2) a session or a document starts from.

use std::io::{self, Read, Write};
use std::path::Path;

use surp_dedup::{Budget, Dictionary, SessionOptions};

use surp::frame::{DEFAULT_MAX_FRAME_LEN, PREFIX_LEN};

use crate::error::{Error, SessionFailure};
use crate::files::{self, Input, WriteFailure};
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
    let bytes = files::read_input(Some(path))?;
    Dictionary::from_bytes(&bytes)
        .map(Some)
        .map_err(|error| Error::Dictionary {
            path: files::input_name(Some(path)),
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

/// How `decode --session` reads a stream and writes its messages.
pub struct DecodeOptions<'d> {
    /// The most the header may ask for.
    pub budget: Budget,
    /// The dictionary the session starts from, if any.
    pub dictionary: Option<&'d Dictionary>,
    /// How byte strings are written.
    pub bytes: BytesForm,
    /// Whether the JSON is indented.
    pub pretty: bool,
}

/// The stream of `decode --session`, counted as it is read, its first
/// bytes kept to tell JSON text apart should the header's frame fail.
///
/// JSON text always fails within its first [`PREFIX_LEN`] bytes: read as a
/// frame's length, their last byte (never below 0x09 in JSON) makes a frame
/// far beyond the limit. So those bytes, and what is buffered after them,
/// are all the check can need.
struct Counted<'i> {
    input: &'i mut io::BufReader<Box<dyn Read>>,
    read: usize,
    first: Vec<u8>,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.input.read(buf)?;
        let keep = n.min(PREFIX_LEN.saturating_sub(self.first.len()));
        self.first.extend_from_slice(&buf[..keep]);
        self.read += n;
        Ok(n)
    }
}

impl Counted<'_> {
    /// Whether the stream is JSON text, as far as the bytes read so far
    /// tell (those taken, and those buffered but not yet taken): it never
    /// waits for more, since a stream may stay open.
    fn is_json_text(&self) -> bool {
        let mut start = self.first.clone();
        if start.len() == self.read {
            start.extend_from_slice(self.input.buffer());
        }
        json::starts_json_text(&start)
    }
}

/// Reads a session's frames from `input` as they arrive, the header first,
/// and writes its messages as a JSON array, one message a line (or
/// indented with `pretty`). Memory holds the session's tables and one
/// message, whatever the stream's length.
///
/// From a live input (a pipe, not a file), a decoded message is written out
/// before the command waits for more input, so the output keeps up with the
/// stream; and when the stream fails, the messages before the failure are
/// written out too (from a file, standard output's hold-back applies).
pub fn decode(
    input: &mut Input,
    options: &DecodeOptions,
    out: &mut dyn Write,
) -> Result<(), WriteFailure> {
    let live = input.live;
    let result = decode_frames(input, options, out);
    if live && matches!(result, Err(WriteFailure::Command(_))) {
        // What a failed flush leaves unwritten is lost with the stream; the
        // stream's own error is the one to report.
        let _ = out.flush();
    }
    result
}

/// Whether `buffered` holds the whole of the next frame, so that reading it
/// waits for nothing.
fn holds_next_frame(buffered: &[u8]) -> bool {
    match buffered.first_chunk::<PREFIX_LEN>() {
        Some(prefix) => {
            let len = u32::from_le_bytes(*prefix) as usize;
            buffered.len() - PREFIX_LEN >= len
        }
        None => false,
    }
}

fn decode_frames(
    input: &mut Input,
    options: &DecodeOptions,
    out: &mut dyn Write,
) -> Result<(), WriteFailure> {
    let mut decoder = self::options(options.budget, options.dictionary).decoder();
    let live = input.live;
    let mut stream = Counted {
        input: &mut input.reader,
        read: 0,
        first: Vec::new(),
    };
    let mut doc = Vec::new();
    let mut text = Vec::new();
    let mut frame = 0;
    let io = WriteFailure::Io;
    loop {
        let start = stream.read;
        let document = start + PREFIX_LEN;
        let read = surp::frame::read_frame(&mut stream, DEFAULT_MAX_FRAME_LEN, &mut doc);
        let failed = |stream: &Counted, mut failure: SessionFailure| {
            // Text where frames were expected: say so once, at the start.
            failure.json_text = frame == 0 && stream.is_json_text();
            WriteFailure::Command(Error::Session(failure))
        };
        let more = match read {
            Ok(more) => more,
            Err(e) => {
                let failure = match e.kind() {
                    // The input could not be read: say so, and where (output
                    // past the held-back part of standard output is out).
                    surp::ErrorKind::Io(_) => {
                        let at = match frame {
                            0 => input.name.clone(),
                            _ => {
                                format!("{} at byte {}, in frame {frame}", input.name, stream.read)
                            }
                        };
                        return Err(WriteFailure::Command(files::read_failure(&at, e.into())));
                    }
                    // The frame reader reports a frame cut short as a byte
                    // string that does not fit; say it of the frame.
                    surp::ErrorKind::LengthExceedsInput { len, .. } => {
                        let what = format!(
                            "the frame declares {len} bytes but the input ends {} bytes after \
                             its length, at byte {}",
                            doc.len(),
                            document + doc.len()
                        );
                        SessionFailure::at(what, frame, start)
                    }
                    _ => SessionFailure::new(e.shifted(start), frame, start),
                };
                return Err(failed(&stream, failure));
            }
        };
        if !more {
            break;
        }
        let invalid = |e: surp::Error| SessionFailure::new(e.shifted(document), frame, start);
        if frame == 0 {
            if let Err(e) = decoder.read_header(&doc) {
                return Err(failed(&stream, invalid(e)));
            }
            out.write_all(b"[").map_err(io)?;
        } else {
            let value: surp::Value = match decoder.decode(&doc) {
                Ok(value) => value,
                Err(e) => return Err(failed(&stream, invalid(e))),
            };
            // Only the message's frame is named if it has no JSON form.
            value_json(&value, options.bytes, options.pretty, &mut text).map_err(|what| {
                WriteFailure::Command(Error::Session(SessionFailure {
                    not_json: true,
                    ..SessionFailure::at(what, frame, start)
                }))
            })?;
            out.write_all(if frame == 1 { b"\n" } else { b",\n" })
                .map_err(io)?;
            out.write_all(&text).map_err(io)?;
            // A live stream's messages are shown as they arrive: whatever
            // is decoded is written out before reading the next frame could
            // wait for input.
            if live && !holds_next_frame(stream.input.buffer()) {
                out.flush().map_err(io)?;
            }
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
