//! `surp encode`: JSON to Surp, optionally deduplicated.

use std::path::PathBuf;

use crate::error::Error;
use crate::files;
use crate::json;
use crate::session;

/// Arguments of `surp encode`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  surp encode data.json -o data.surp
  surp encode --dedup data.json > data.surp
  echo '{\"id\": 7, \"tags\": [\"a\"]}' | surp encode | surp inspect")]
#[command(after_long_help = "\
JSON numbers: an integer in the i64 or u64 range becomes a Surp integer;
every other number (a fraction, an exponent, or an integer beyond 64 bits)
becomes a binary64 float, written in the shortest exact float form. Object
keys keep their order, duplicates included.

With --session, the input is a JSON array and each item is a message of one
session (docs/spec.md section 9.1); the output is a stream of frames (4-byte
little-endian length, then the document): the header's, then one a message.
`surp decode --session` with the same budget reads it back.

Examples:
  surp encode data.json -o data.surp
  surp encode --dedup data.json > data.surp
  surp encode --session --budget 1024,128,65536 messages.json -o stream.surp
  surp encode --dictionary dict.surp event.json -o event.surp
  echo '{\"id\": 7, \"tags\": [\"a\"]}' | surp encode | surp inspect")]
pub struct Args {
    /// The JSON input; standard input when absent or `-`.
    pub file: Option<PathBuf>,
    /// Deduplicate repeated strings and map key sets (surp-dedup).
    #[arg(long)]
    pub dedup: bool,
    /// Deduplicate map key sets only: repeated keys become shape
    /// references, every string is written out, and none is hashed
    /// (surp-dedup's `Options::dedup_strings(false)`).
    #[arg(long, conflicts_with = "dedup")]
    pub dedup_shapes: bool,
    /// Encode the items of a JSON array as the messages of one session
    /// (surp-dedup's `SessionEncoder`): a stream of frames, the session's
    /// header first, then a frame per message.
    #[arg(long, conflicts_with_all = ["dedup", "dedup_shapes"])]
    pub session: bool,
    /// The session's budget: string slots, shapes and bytes.
    #[arg(long, value_name = "STRINGS,SHAPES,BYTES", requires = "session",
          value_parser = session::parse_budget, default_value = session::DEFAULT_BUDGET)]
    pub budget: surp_dedup::Budget,
    /// A stored dictionary (as `surp dictionary` writes it): the document
    /// is written with it (spec section 9.2), or with --session, the
    /// session starts from it. The reader needs the same dictionary. `-`
    /// reads it from standard input, when FILE names the input.
    #[arg(long, value_name = "DICT", conflicts_with_all = ["dedup", "dedup_shapes"])]
    pub dictionary: Option<PathBuf>,
    /// Where to write the Surp document; standard output when absent or `-`.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Runs `surp encode`.
pub fn run(args: &Args) -> Result<(), Error> {
    files::check_binary_output(args.output.as_deref())?;
    files::check_one_stdin(args.dictionary.as_deref(), args.file.as_deref())?;
    let dictionary = session::load_dictionary(args.dictionary.as_deref())?;
    let input = files::read_input(args.file.as_deref())?;
    let value = json::parse(&input)?;
    let bytes = if args.session {
        session::encode(&value, args.budget, dictionary.as_ref())?
    } else if let Some(dictionary) = &dictionary {
        dictionary.to_vec(&value).map_err(Error::Encode)?
    } else if args.dedup {
        surp_dedup::to_vec(&value).map_err(Error::Encode)?
    } else if args.dedup_shapes {
        surp_dedup::Options::new()
            .dedup_strings(false)
            .to_vec(&value)
            .map_err(Error::Encode)?
    } else {
        surp::to_vec(&value).map_err(Error::Encode)?
    };
    files::write_output(args.output.as_deref(), &bytes)
}
