//! The `surp-bench` binary: parses the command line, runs the harness, prints
//! the results table, and sets the exit status.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use surp_bench::{Cli, Command};

#[cfg(feature = "jemalloc")]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The exit status when `--check` finds a regression (1 is any error, 2 a
/// command-line mistake).
const REGRESSION_EXIT: u8 = 3;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Export(args)) = &cli.command {
        return match surp_bench::export(&args.output, args.mode, &args.datasets()) {
            Ok(index) => {
                let _ = writeln!(
                    io::stdout().lock(),
                    "Exported {} datasets ({} mode) to {}",
                    index.datasets.len(),
                    index.mode,
                    args.output.display()
                );
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("surp-bench: {err}");
                ExitCode::FAILURE
            }
        };
    }
    let check = cli.check;
    if cfg!(debug_assertions) {
        eprintln!(
            "surp-bench: warning: this is a debug build; its times mean little (use --release)"
        );
    }
    let report = match cli
        .into_options()
        .and_then(|options| surp_bench::run(&options))
    {
        Ok(report) => report,
        Err(err) => {
            eprintln!("surp-bench: {err}");
            return ExitCode::FAILURE;
        }
    };
    // A closed stdout (`| head`) must not turn a finished run into a panic:
    // the files are written and the exit status below still holds.
    let _ = writeln!(
        io::stdout().lock(),
        "{}Results written to {}",
        report.table(),
        report.output.display()
    );
    if check && !report.regressions().is_empty() {
        eprintln!(
            "surp-bench: {} regression(s) found; failing because of --check",
            report.regressions().len()
        );
        return ExitCode::from(REGRESSION_EXIT);
    }
    ExitCode::SUCCESS
}
