//! The `surp` command: convert JSON to Surp and back (documents, session
//! streams, dictionary documents), learn a dictionary, dump a document
//! token by token, and show where its bytes go.
//!
//! Each subcommand is a module with its arguments and a `run` function;
//! `inspect` and `stats` share the token [`walker`]. Exit codes: 0 on
//! success, 1 for invalid input or a failed read or write, 2 for usage errors.

mod decode;
mod dictionary;
mod encode;
mod error;
mod files;
mod inspect;
mod json;
mod session;
mod stats;
mod tag;
#[cfg(test)]
mod testing;
mod tokens_check;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Convert, inspect and explain Surp documents.
#[derive(Debug, Parser)]
#[command(name = "surp", version)]
#[command(after_help = "\
Examples:
  surp encode data.json -o data.surp       JSON to Surp
  surp encode --dedup data.json -o d.surp  JSON to deduplicated Surp
  surp decode --pretty data.surp           Surp to indented JSON
  surp encode --session m.json -o s.surp   a JSON array as a session's frames
  surp dictionary samples.json -o d.surp   learn a dictionary from samples
  surp inspect data.surp                   one line per token
  surp stats --dedup-estimate data.surp    where the bytes go

Every command reads standard input when FILE is absent or `-`, and writes
standard output. Exit status: 0 on success, 1 for invalid input or a failed
read or write (the message names the byte offset), 2 for usage errors.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Convert JSON to Surp.
    Encode(encode::Args),
    /// Convert Surp (plain or deduplicated) to JSON.
    Decode(decode::Args),
    /// Learn a dictionary from sample values (a JSON array).
    Dictionary(dictionary::Args),
    /// Dump a Surp document, one line per token.
    Inspect(inspect::Args),
    /// Show how a Surp document's bytes split into keys, strings, numbers,
    /// bytes and framing.
    Stats(stats::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Encode(args) => encode::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Dictionary(args) => dictionary::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::Stats(args) => stats::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            // Nothing more to do if standard error is gone too.
            let _ = writeln!(std::io::stderr(), "surp: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::hostile_inputs;

    /// Runs every command's work on `bytes`; any panic fails the test.
    fn run_everything(bytes: &[u8]) {
        let _ = json::parse(bytes);
        for form in [
            json::BytesForm::Base64,
            json::BytesForm::Hex,
            json::BytesForm::Array,
        ] {
            let _ = json::to_json(bytes, form, true);
        }
        let mut dump = Vec::new();
        let _ = inspect::dump(bytes, &mut dump);
        if let Ok(breakdown) = stats::Breakdown::of(bytes) {
            assert_eq!(breakdown.total(), bytes.len() as u64);
            assert_eq!(breakdown.shares().iter().sum::<u64>(), 1000);
            let _ = stats::report(&breakdown);
        }
    }

    #[test]
    fn no_command_panics_on_random_or_mutated_input() {
        for input in hostile_inputs(0x00c0_ffee_d00d_beef, 5_000, 1_000) {
            run_everything(&input);
        }
    }

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
