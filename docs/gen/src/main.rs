//! The `docs-gen` binary: regenerates the docs site's benchmark pages, or
//! with `--check` fails when the committed ones are stale.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use docs_gen::{Site, Stale, docs_dir};

/// Generate the docs site's benchmark pages from the runs committed under
/// docs/assets/bench/.
#[derive(Parser)]
#[command(name = "docs-gen")]
struct Cli {
    /// Write nothing; exit with status 1 if any generated file differs from
    /// the one on disk.
    #[arg(long)]
    check: bool,

    /// The docs folder [default: this repository's docs/].
    #[arg(long, value_name = "DIR")]
    docs: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let docs = cli.docs.unwrap_or_else(docs_dir);
    let site = match Site::generate(&docs) {
        Ok(site) => site,
        Err(err) => {
            eprintln!("docs-gen: {err}");
            return ExitCode::FAILURE;
        }
    };
    let runs = if site.runs.is_empty() {
        "no committed run".to_owned()
    } else {
        format!("runs {}", site.runs.join(", "))
    };
    let result = if cli.check {
        site.stale(&docs)
    } else {
        site.write(&docs)
    };
    let changes = match result {
        Ok(changes) => changes,
        Err(err) => {
            eprintln!("docs-gen: {err}");
            return ExitCode::FAILURE;
        }
    };
    if cli.check {
        if changes.is_empty() {
            println!(
                "docs-gen: {} generated files are up to date ({runs})",
                site.files.len()
            );
            return ExitCode::SUCCESS;
        }
        for change in &changes {
            eprintln!("docs-gen: {change}");
        }
        eprintln!(
            "docs-gen: the benchmark pages are stale; run `cargo run -p docs-gen` and commit"
        );
        return ExitCode::FAILURE;
    }
    for change in &changes {
        let (verb, path) = match change {
            Stale::Missing(path) => ("wrote", path),
            Stale::Differs(path) => ("updated", path),
            Stale::Extra(path) => ("removed", path),
        };
        println!("docs-gen: {verb} docs/{}", path.display());
    }
    println!(
        "docs-gen: {} generated files, {} updated ({runs})",
        site.files.len(),
        changes.len()
    );
    ExitCode::SUCCESS
}
