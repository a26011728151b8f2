//! `surp dictionary`: learn a dictionary (spec section 9.2) from sample
//! values, for `surp encode --dictionary` and the crates' dictionaries.

use std::path::PathBuf;

use surp_dedup::Dictionary;

use crate::error::Error;
use crate::{files, json};

/// Arguments of `surp dictionary`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  surp dictionary samples.json -o dict.surp
  surp encode --dictionary dict.surp event.json -o event.surp")]
#[command(after_long_help = "\
The input is a JSON array of sample values, such as messages a service
sends. The dictionary holds the strings and map key sets that repeat in them,
most frequent first (surp-dedup's `Dictionary::from_samples`), in its stored
form: a plain Surp document, which `surp decode` shows. Documents and
sessions written with it (`--dictionary`) carry its id, and only a reader
with the same dictionary reads them.

Examples:
  surp dictionary samples.json -o dict.surp
  surp encode --dictionary dict.surp event.json -o event.surp
  surp decode --dictionary dict.surp event.surp")]
pub struct Args {
    /// The JSON array of samples; standard input when absent or `-`.
    pub file: Option<PathBuf>,
    /// Where to write the dictionary; standard output when absent or `-`.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Runs `surp dictionary`.
pub fn run(args: &Args) -> Result<(), Error> {
    files::check_binary_output(args.output.as_deref())?;
    let input = files::read_input(args.file.as_deref())?;
    let value = json::parse(&input)?;
    let surp::Value::Array(samples) = &value else {
        return Err(Error::NotAnArray(
            "`surp dictionary` takes a JSON array of sample values",
        ));
    };
    let dictionary = Dictionary::from_samples(samples).map_err(Error::Encode)?;
    files::write_output(args.output.as_deref(), dictionary.to_bytes())
}
