//! `surp inspect`: an annotated dump, one line per token.
//!
//! Each line shows the token's offset (decimal, like the offsets in error
//! messages), its bytes in hex (the first 16, then `…`), indentation for
//! nesting, the tag's name from the spec and what the token means. In a
//! deduplicated document a string literal that takes a table slot says
//! `(slot #N)`, a map that becomes a shape says `(shape #N)`, and references
//! show the string or the keys they stand for. A corrupt document is dumped
//! up to the token that fails, followed by the error. The walk is a
//! streaming one: a truncated document shows every token before the point
//! where it runs out, rather than failing at the first container whose count
//! the rest of the input cannot hold.
//!
//! The document is walked twice: once to size the hex column and find which
//! maps become shapes (known only when a map ends), once to print. Neither
//! pass keeps the tokens, so memory does not grow with the document.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use crate::error::Error;
use crate::files;
use crate::json::Hex;
use crate::tag;
use surp::tokens::{Item, Place, Token, Tokens};

/// Bytes of a token shown in the hex column before `…`.
const SHOWN_BYTES: usize = 16;
/// Characters of a string shown before `…`.
const SHOWN_CHARS: usize = 40;

/// Arguments of `surp inspect`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  surp inspect data.surp
  echo '[1.5, \"hi\"]' | surp encode | surp inspect")]
pub struct Args {
    /// The Surp input; standard input when absent or `-`.
    pub file: Option<PathBuf>,
}

/// Runs `surp inspect`.
pub fn run(args: &Args) -> Result<(), Error> {
    let input = files::read_input(args.file.as_deref())?;
    let mut out = BufWriter::new(io::stdout().lock());
    let result = dump(&input, &mut out);
    out.flush().map_err(Error::stdout)?;
    result
}

/// Writes the dump of `input` to `out`. A corrupt document gives its dump,
/// the error line, and then `Err`.
pub fn dump<W: Write>(input: &[u8], out: &mut W) -> Result<(), Error> {
    let layout = Layout::of(input);
    let mut walker = Tokens::streaming(input);
    while let Some(token) = walker.next() {
        let line = match token {
            Ok(token) => layout.token_line(&token, &walker),
            Err(e) => {
                let start = walker.offset();
                let depth = walker.depth();
                let line = layout.line(start, &input[start..], depth, &format!("error: {e}"));
                writeln!(out, "{line}").map_err(Error::stdout)?;
                return Err(Error::invalid_surp(e, input));
            }
        };
        writeln!(out, "{line}").map_err(Error::stdout)?;
    }
    Ok(())
}

/// Column widths and the maps that become shapes, from a first walk.
struct Layout {
    offset_width: usize,
    hex_width: usize,
    /// Map offset to the shape it becomes.
    shapes: HashMap<usize, u32>,
}

/// The hex column of `bytes`: at most [`SHOWN_BYTES`], then `…`.
fn hex_column(bytes: &[u8]) -> String {
    let mut text = String::new();
    for (i, b) in bytes.iter().take(SHOWN_BYTES).enumerate() {
        if i > 0 {
            text.push(' ');
        }
        let _ = write!(text, "{b:02x}");
    }
    if bytes.len() > SHOWN_BYTES {
        text.push_str(" …");
    }
    text
}

/// Characters in the hex column of `len` bytes.
fn hex_width(len: usize) -> usize {
    match len {
        0 => 0,
        1..=SHOWN_BYTES => len * 3 - 1,
        _ => SHOWN_BYTES * 3 + 1,
    }
}

impl Layout {
    fn of(input: &[u8]) -> Layout {
        let mut walker = Tokens::streaming(input);
        let mut widest = 0;
        while let Some(token) = walker.next() {
            let len = match token {
                Ok(token) => token.bytes.len(),
                Err(_) => input.len() - walker.offset(),
            };
            widest = widest.max(hex_width(len));
        }
        let shapes = walker
            .tables()
            .map(|t| {
                t.shape_origins()
                    .enumerate()
                    .map(|(index, offset)| (offset, index as u32))
                    .collect()
            })
            .unwrap_or_default();
        Layout {
            offset_width: input.len().to_string().len(),
            hex_width: widest,
            shapes,
        }
    }

    fn line(&self, offset: usize, bytes: &[u8], depth: usize, text: &str) -> String {
        format!(
            "{offset:>ow$}  {hex:<hw$}  {indent}{text}",
            ow = self.offset_width,
            hex = hex_column(bytes),
            hw = self.hex_width,
            indent = "  ".repeat(depth),
        )
    }

    fn token_line(&self, token: &Token<'_>, walker: &Tokens<'_>) -> String {
        let mut text = String::new();
        if let Place::ShapeValue { shape, key } = token.place
            && let Some(name) = walker
                .tables()
                .and_then(|t| t.shape(shape))
                .and_then(|keys| keys.get(key as usize))
        {
            let _ = write!(text, "{}: ", quoted(name));
        }
        let name = tag::name(token.bytes[0]);
        let _ = match token.item {
            Item::DedupMarker | Item::Null | Item::Bool(_) | Item::Some => write!(text, "{name}"),
            Item::Integer(i) => write!(text, "{name} {i}"),
            Item::F16(v) | Item::F32(v) => write!(text, "{name} {}", float(f64::from(v), v)),
            Item::F64(v) => write!(text, "{name} {}", float(v, v)),
            Item::Str { text: s, slot } => {
                let _ = write!(text, "{name} {}", quoted(s));
                let long = s.chars().nth(SHOWN_CHARS).map(|_| s.len());
                notes(&mut text, long, slot.map(|n| ("slot", n)))
            }
            Item::Bytes(b) => {
                let shown = &b[..b.len().min(SHOWN_BYTES)];
                let more = if b.len() > SHOWN_BYTES { "…" } else { "" };
                let _ = write!(text, "{name} h'{}'{more}", Hex(shown));
                notes(&mut text, (b.len() > SHOWN_BYTES).then_some(b.len()), None)
            }
            Item::Array(n) => write!(text, "{name} {n} {}", plural(n, "item", "items")),
            Item::Map(n) => {
                let _ = write!(text, "{name} {n} {}", plural(n, "entry", "entries"));
                let shape = self.shapes.get(&token.offset).map(|&n| ("shape", n));
                notes(&mut text, None, shape)
            }
            Item::StrRef { index, text: s } => write!(text, "{name} #{index}: {}", quoted(s)),
            Item::ShapeRef { index, .. } => {
                let _ = write!(text, "{name} #{index}:");
                let keys = walker.tables().and_then(|t| t.shape(index)).unwrap_or(&[]);
                for (i, key) in keys.iter().enumerate() {
                    let sep = if i == 0 { " " } else { ", " };
                    let _ = write!(text, "{sep}{}", quoted(key));
                }
                Ok(())
            }
        };
        self.line(token.offset, token.bytes, token.depth, &text)
    }
}

/// Appends `(300 bytes, slot #2)`-style notes, when there are any.
fn notes(text: &mut String, bytes: Option<usize>, table: Option<(&str, u32)>) -> std::fmt::Result {
    match (bytes, table) {
        (None, None) => Ok(()),
        (Some(len), None) => write!(text, " ({len} bytes)"),
        (None, Some((what, n))) => write!(text, " ({what} #{n})"),
        (Some(len), Some((what, n))) => write!(text, " ({len} bytes, {what} #{n})"),
    }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// A string with Rust's escapes, cut after [`SHOWN_CHARS`] characters.
fn quoted(s: &str) -> String {
    match s.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{:?}…", &s[..cut]),
        None => format!("{s:?}"),
    }
}

/// A float as its own width prints it: `0.1` for a binary32 0.1, not its
/// widened digits.
fn float<T: std::fmt::Debug>(wide: f64, v: T) -> String {
    if wide.is_nan() {
        "NaN".to_owned()
    } else if wide.is_infinite() {
        (if wide > 0.0 { "Infinity" } else { "-Infinity" }).to_owned()
    } else {
        format!("{v:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dump_text(input: &[u8]) -> (String, bool) {
        let mut out = Vec::new();
        let ok = dump(input, &mut out).is_ok();
        (String::from_utf8(out).unwrap(), ok)
    }

    #[test]
    fn every_token_gets_a_line_with_its_bytes() {
        let (text, ok) = dump_text(&[0xa3, 0xec, 0x00, 0x3e, 0xe8, 0xff]);
        assert!(ok);
        assert_eq!(
            text,
            "0  a3        fixarray 3 items\n\
             1  ec 00 3e    f16 1.5\n\
             4  e8          null\n\
             5  ff          fixnint -1\n"
        );
    }

    #[test]
    fn long_payloads_are_cut() {
        let s = "x".repeat(50);
        let bytes = surp::to_vec(&s).unwrap();
        let (text, _) = dump_text(&bytes);
        assert_eq!(
            text,
            format!(
                " 0  c8 32 78 78 78 78 78 78 78 78 78 78 78 78 78 78 …  str {:?}… (50 bytes)\n",
                "x".repeat(40)
            )
        );
    }

    #[test]
    fn a_corrupt_document_is_dumped_up_to_the_error() {
        let (text, ok) = dump_text(&[0xa2, 0x01, 0xd9, 0xff]);
        assert!(!ok);
        assert_eq!(
            text,
            "0  a2     fixarray 2 items\n\
             1  01       fixuint 1\n\
             2  d9 ff    error: unexpected end of input at byte 4\n"
        );
    }
}
