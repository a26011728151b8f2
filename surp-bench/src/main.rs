//! The `surp-bench` binary: parses the command line, runs the harness, prints
//! the results table, and sets the exit status.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
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
    if let Some(Command::InstructionsWorker) = &cli.command {
        return match surp_bench::instructions_worker() {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("surp-bench: {err}");
                ExitCode::FAILURE
            }
        };
    }
    let check = cli.check;
    let instructions = cli.instructions.then(|| InstructionOptions {
        baseline: cli
            .instruction_baseline
            .clone()
            .unwrap_or_else(|| surp_bench::workspace_root().join(surp_bench::INSTRUCTION_BASELINE)),
        write_baseline: cli.write_instruction_baseline,
    });
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
    let mut instruction_regressions = 0;
    if let Some(options) = instructions {
        match count_instructions(&report.output, &options) {
            Ok(n) => instruction_regressions = n,
            Err(err) => {
                eprintln!("surp-bench: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    let regressions = report.regressions().len() + instruction_regressions;
    if check && regressions > 0 {
        eprintln!("surp-bench: {regressions} regression(s) found; failing because of --check");
        return ExitCode::from(REGRESSION_EXIT);
    }
    ExitCode::SUCCESS
}

/// Where the instruction counts are compared or written.
struct InstructionOptions {
    baseline: PathBuf,
    write_baseline: bool,
}

/// Counts instructions, writes `instructions.csv` into the run folder,
/// compares with (or writes) the baseline and prints the findings; returns
/// the number of regressions.
fn count_instructions(
    output: &Path,
    options: &InstructionOptions,
) -> Result<usize, surp_bench::BenchError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| surp_bench::BenchError::Io { path, source }
    };
    let mut out = io::stdout().lock();
    let _ = writeln!(
        out,
        "Counting instructions (callgrind; encode and decode of {} at ci scale)...",
        surp_bench::counted_formats()
            .map(|f| f.name)
            .collect::<Vec<_>>()
            .join(" and ")
    );
    let scratch = std::env::temp_dir().join(format!("surp-bench-callgrind-{}", std::process::id()));
    let counts = surp_bench::count_instructions(&scratch);
    let _ = fs::remove_dir_all(&scratch);
    let counts = counts?;
    let csv = surp_bench::to_instructions_csv(&counts);
    let file = output.join("instructions.csv");
    fs::write(&file, &csv).map_err(io(&file))?;
    if options.write_baseline {
        fs::write(&options.baseline, &csv).map_err(io(&options.baseline))?;
        let _ = writeln!(
            out,
            "Instruction baseline written to {} ({} cells)",
            options.baseline.display(),
            counts.len()
        );
        return Ok(0);
    }
    let text = match fs::read_to_string(&options.baseline) {
        Ok(text) => text,
        Err(_) => {
            let _ = writeln!(
                out,
                "Instruction check: skipped (no baseline at {})",
                options.baseline.display()
            );
            return Ok(0);
        }
    };
    let baseline = surp_bench::parse_instructions_csv(&text).map_err(|reason| {
        surp_bench::BenchError::Baseline {
            path: options.baseline.clone(),
            reason,
        }
    })?;
    let comparison = surp_bench::compare_instructions(&counts, &baseline);
    let _ = writeln!(
        out,
        "Instruction check against {}: {} cells, {} regression(s) above {}%",
        options.baseline.display(),
        counts.len(),
        comparison.regressions.len(),
        surp_bench::INSTRUCTION_THRESHOLD_PCT
    );
    for r in &comparison.regressions {
        let _ = writeln!(out, "  REGRESSION {r}");
    }
    for i in &comparison.improvements {
        let _ = writeln!(
            out,
            "  fewer instructions {i} (update the baseline to keep the gain)"
        );
    }
    for u in &comparison.unmatched {
        let _ = writeln!(out, "  note: {u}");
    }
    Ok(comparison.regressions.len())
}
