//! `surp decode`: a Surp document, plain or deduplicated, to JSON.

use std::path::PathBuf;

use crate::error::Error;
use crate::files::{self, WriteFailure};
use crate::json::{self, BytesForm, JsonError};
use crate::session;

/// Arguments of `surp decode`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  surp decode data.surp
  surp decode --pretty --bytes hex data.surp -o data.json")]
#[command(after_long_help = "\
Mapping to JSON: floats are written as binary64 (binary16 and binary32 widen
exactly); NaN and the infinities have no JSON form and are an error. A map key
must be a string or an integer (written as its decimal string); any other key
is an error. The `some` marker becomes its content. Integers keep every digit,
up to 128 bits.

With --session, the input is a session's stream of frames, as `surp encode
--session` writes it, read frame by frame as it arrives, and the output a JSON
array of its messages. From a pipe, each message is written out before the
command waits for more input, and a failure leaves the messages before it. The
budget is the most the header may ask for, as for a SessionDecoder.

Examples:
  surp decode data.surp
  surp decode --pretty --bytes hex data.surp -o data.json
  surp decode --session stream.surp
  surp decode --dictionary dict.surp event.surp")]
pub struct Args {
    /// The Surp input; standard input when absent or `-`.
    pub file: Option<PathBuf>,
    /// Indent the JSON.
    #[arg(long)]
    pub pretty: bool,
    /// Read a session's stream of frames, as `surp encode --session`
    /// writes it (the header's frame, then one a message), and write its
    /// messages as a JSON array.
    #[arg(long)]
    pub session: bool,
    /// The most the session's header may ask for: string slots, shapes
    /// and bytes.
    #[arg(long, value_name = "STRINGS,SHAPES,BYTES", requires = "session",
          value_parser = session::parse_budget, default_value = session::DEFAULT_BUDGET)]
    pub budget: surp_dedup::Budget,
    /// The stored dictionary the document was written with (as `surp
    /// encode --dictionary` writes it), or, with --session, that the
    /// session starts from. `-` reads it from standard input, when FILE
    /// names the input.
    #[arg(long, value_name = "DICT")]
    pub dictionary: Option<PathBuf>,
    /// How to write byte strings.
    #[arg(long, value_enum, default_value_t = BytesForm::Base64)]
    pub bytes: BytesForm,
    /// Where to write the JSON; standard output when absent or `-`.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Runs `surp decode`. The JSON is streamed to its destination as the
/// document is read, so a document that expands a lot (deduplicated
/// references, `--pretty`) needs no memory for its whole JSON text.
pub fn run(args: &Args) -> Result<(), Error> {
    files::check_one_stdin(args.dictionary.as_deref(), args.file.as_deref())?;
    let dictionary = session::load_dictionary(args.dictionary.as_deref())?;
    if args.session {
        // Read frame by frame as the stream arrives: memory holds the
        // session's tables and one message, not the stream.
        let mut input = files::open_input(args.file.as_deref())?;
        return files::with_output(args.output.as_deref(), |out| {
            let dictionary = dictionary.as_ref();
            let options = session::DecodeOptions {
                budget: args.budget,
                dictionary,
                bytes: args.bytes,
                pretty: args.pretty,
            };
            session::decode(&mut input, &options, out)
        });
    }
    let input = files::read_input(args.file.as_deref())?;
    if let Some(dictionary) = &dictionary {
        // A dictionary document: its value, then the JSON of that.
        let value: surp::Value = dictionary
            .from_slice(&input)
            .map_err(|e| Error::invalid_surp(e, &input))?;
        let mut text = Vec::new();
        session::value_json(&value, args.bytes, args.pretty, &mut text)
            .map_err(Error::ValueNotJson)?;
        text.push(b'\n');
        return files::write_output(args.output.as_deref(), &text);
    }
    files::with_output(args.output.as_deref(), |out| {
        json::write_json(&input, args.bytes, args.pretty, out).map_err(|e| match e {
            JsonError::Io(e) => WriteFailure::Io(e),
            // The visitor that writes JSON is the only source of serde
            // messages here: those are values without a JSON form, not
            // malformed input.
            JsonError::Surp(e) if matches!(e.kind(), surp::ErrorKind::Message(_)) => {
                WriteFailure::Command(Error::NotJson(e))
            }
            JsonError::Surp(e) => WriteFailure::Command(Error::invalid_surp(e, &input)),
        })
    })
}
