//! Instruction counts: a regression metric that does not drift with the
//! machine's load.
//!
//! Wall-clock times on a shared machine vary by tens of percent from run to
//! run, so a time-based check cannot tell a 2 % regression from noise. The
//! number of instructions a decode executes, counted by valgrind's
//! callgrind, is the same on every run of the same binary and input. This
//! module counts it for a fixed set of cells: encode and decode of each of
//! the project's own formats ([`COUNTED_FORMATS`]) on every dataset of both
//! suites, at ci scale.
//!
//! How: the harness runs itself under
//! `valgrind --tool=callgrind --collect-atstart=no` with collection toggled
//! on only inside [`counted_cell`] and a profile dump after each call to
//! it. A worker process ([`worker`]) loads every dataset, runs each cell
//! once to warm it, then once inside `counted_cell`; dump *k* holds exactly
//! the instructions of cell *k*. Decoded values are dropped outside the
//! counted call, as the timed runs drop them outside the clock.
//!
//! The counts are written to `instructions.csv` in the run folder. With
//! `--check` they are compared with the committed baseline
//! `bench/instructions-baseline.csv` (also ci scale): a cell that needs more
//! than [`INSTRUCTION_THRESHOLD_PCT`] percent more instructions is a
//! regression. A change that makes the code slower on purpose updates the
//! baseline in the same commit (`--write-instruction-baseline`) and says why.

use std::any::Any;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;
use serde::de::DeserializeOwned;
use surp_datasets::typed::{TypedDataset, TypedValue};
use surp_datasets::{Dataset, Scale, Value};

use crate::{BenchDataset, BenchError, Operation, Suite};

/// The formats whose instructions are counted: the project's own.
pub const COUNTED_FORMATS: [&str; 2] = ["surp", "surp_dedup"];

/// The operations counted.
pub const COUNTED_OPERATIONS: [Operation; 2] = [Operation::Encode, Operation::Decode];

/// How much a cell's count may grow, in percent, before `--check` fails.
pub const INSTRUCTION_THRESHOLD_PCT: f64 = 2.0;

/// The header of `instructions.csv`.
pub const INSTRUCTIONS_HEADER: &str = "format,dataset,op,instructions";

/// The committed baseline, relative to the workspace root.
pub const INSTRUCTION_BASELINE: &str = "bench/instructions-baseline.csv";

/// The hidden subcommand the harness runs under valgrind.
pub const WORKER_COMMAND: &str = "count-instructions-worker";

/// One counted cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InstructionCount {
    /// The format's name.
    pub format: String,
    /// The dataset's name.
    pub dataset: String,
    /// The operation's name.
    pub op: String,
    /// Instructions executed (callgrind's `Ir`).
    pub instructions: u64,
}

/// A cell whose count moved past the threshold against the baseline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionChange {
    /// The cell's format, dataset and operation.
    pub cell: String,
    /// The baseline's count.
    pub baseline: u64,
    /// This run's count.
    pub current: u64,
    /// The change in percent of the baseline.
    pub change_pct: f64,
}

impl fmt::Display for InstructionChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} -> {} instructions ({:+.2}%, threshold {INSTRUCTION_THRESHOLD_PCT}%)",
            self.cell, self.baseline, self.current, self.change_pct
        )
    }
}

/// What the comparison with the baseline found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct InstructionComparison {
    /// The baseline file, if one was read.
    pub baseline: Option<String>,
    /// Cells that grew past the threshold: what `--check` fails on.
    pub regressions: Vec<InstructionChange>,
    /// Cells that shrank past the threshold: the baseline is out of date.
    pub improvements: Vec<InstructionChange>,
    /// Cells of this run the baseline does not have, and the reverse.
    pub unmatched: Vec<String>,
}

/// The cells, in the order the worker counts them.
pub fn cells_to_count() -> Vec<(&'static str, BenchDataset, Operation)> {
    let mut cells = Vec::new();
    for suite in Suite::ALL {
        for dataset in BenchDataset::all(suite) {
            for format in COUNTED_FORMATS {
                for op in COUNTED_OPERATIONS {
                    cells.push((format, dataset, op));
                }
            }
        }
    }
    cells
}

/// Runs the worker under callgrind and reads back one count per cell.
pub fn count(scratch: &Path) -> Result<Vec<InstructionCount>, BenchError> {
    let failed = |message: String| BenchError::Instructions { message };
    fs::create_dir_all(scratch).map_err(BenchError::io(scratch))?;
    for entry in fs::read_dir(scratch)
        .map_err(BenchError::io(scratch))?
        .flatten()
    {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with("callgrind.")
        {
            fs::remove_file(entry.path()).map_err(BenchError::io(entry.path()))?;
        }
    }
    let exe =
        std::env::current_exe().map_err(|e| failed(format!("no path to the harness: {e}")))?;
    let out_file = scratch.join("callgrind.out");
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg("--collect-atstart=no")
        .arg("--toggle-collect=*::counted_cell")
        .arg("--dump-after=*::counted_cell")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(&exe)
        .arg(WORKER_COMMAND)
        .output()
        .map_err(|e| {
            failed(format!(
                "cannot run valgrind ({e}); install it (Debian: apt-get install valgrind)"
            ))
        })?;
    if !output.status.success() {
        return Err(failed(format!(
            "the callgrind worker failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    let cells = cells_to_count();
    let mut counts = Vec::with_capacity(cells.len());
    for (k, (format, dataset, op)) in cells.into_iter().enumerate() {
        let path = PathBuf::from(format!("{}.{}", out_file.display(), k + 1));
        let text = fs::read_to_string(&path).map_err(BenchError::io(&path))?;
        let instructions = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("summary: ")
                    .or_else(|| l.strip_prefix("totals: "))
            })
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| failed(format!("{} has no instruction total", path.display())))?;
        counts.push(InstructionCount {
            format: format.to_owned(),
            dataset: dataset.name().to_owned(),
            op: op.name().to_owned(),
            instructions,
        });
    }
    Ok(counts)
}

/// The counts as `instructions.csv`.
pub fn to_instructions_csv(counts: &[InstructionCount]) -> String {
    let mut out = format!("{INSTRUCTIONS_HEADER}\n");
    for c in counts {
        out.push_str(&format!(
            "{},{},{},{}\n",
            c.format, c.dataset, c.op, c.instructions
        ));
    }
    out
}

/// Reads an `instructions.csv`.
pub fn parse_instructions_csv(text: &str) -> Result<Vec<InstructionCount>, String> {
    let mut lines = text.lines();
    if lines.next() != Some(INSTRUCTIONS_HEADER) {
        return Err(format!("its header is not `{INSTRUCTIONS_HEADER}`"));
    }
    lines
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            let [format, dataset, op, n] = fields[..] else {
                return Err(format!("line {} has {} fields, not 4", i + 2, fields.len()));
            };
            Ok(InstructionCount {
                format: format.to_owned(),
                dataset: dataset.to_owned(),
                op: op.to_owned(),
                instructions: n
                    .parse()
                    .map_err(|_| format!("line {} has `{n}`, not a whole number", i + 2))?,
            })
        })
        .collect()
}

/// Compares counts with a baseline's.
pub fn compare_instructions(
    current: &[InstructionCount],
    baseline: &[InstructionCount],
) -> InstructionComparison {
    let key = |c: &InstructionCount| format!("{} {} on {}", c.format, c.op, c.dataset);
    let mut out = InstructionComparison::default();
    for c in current {
        let Some(b) = baseline.iter().find(|b| key(b) == key(c)) else {
            out.unmatched
                .push(format!("{} is not in the baseline", key(c)));
            continue;
        };
        let change_pct = (c.instructions as f64 / b.instructions.max(1) as f64 - 1.0) * 100.0;
        let change = InstructionChange {
            cell: key(c),
            baseline: b.instructions,
            current: c.instructions,
            change_pct,
        };
        if change_pct > INSTRUCTION_THRESHOLD_PCT {
            out.regressions.push(change);
        } else if change_pct < -INSTRUCTION_THRESHOLD_PCT {
            out.improvements.push(change);
        }
    }
    for b in baseline {
        if !current.iter().any(|c| key(c) == key(b)) {
            out.unmatched
                .push(format!("{} is only in the baseline", key(b)));
        }
    }
    out
}

/// The counted call: callgrind collects only while this runs, and dumps
/// its counts when it returns. Never inlined, so the symbol exists.
#[inline(never)]
pub fn counted_cell(cell: &mut dyn FnMut()) -> usize {
    cell();
    // Work after the call keeps it from compiling to a tail jump, which
    // callgrind would not see return (and so would not dump after).
    std::hint::black_box(1)
}

type Slot = Option<Box<dyn Any>>;

/// A cell's run: encode into the buffer, or decode and park the value in
/// the slot (so that dropping it happens outside the counted call).
type CellRun<'a> = Box<dyn FnMut(&mut Vec<u8>, &mut Slot) + 'a>;

fn encode_cell<'a, T: serde::Serialize>(format: &str, value: &'a T) -> CellRun<'a> {
    if format == "surp" {
        Box::new(move |buf: &mut Vec<u8>, _: &mut Slot| {
            buf.clear();
            value
                .serialize(&mut surp::Serializer::new(&mut *buf))
                .expect("datasets encode");
        })
    } else {
        Box::new(move |buf: &mut Vec<u8>, _: &mut Slot| {
            buf.clear();
            surp_dedup::append_to_vec(buf, value).expect("datasets encode");
        })
    }
}

fn decode_cell<T: DeserializeOwned + 'static>(format: &str, bytes: Vec<u8>) -> CellRun<'static> {
    if format == "surp" {
        Box::new(move |_: &mut Vec<u8>, slot: &mut Slot| {
            let v: T = surp::from_slice(&bytes).expect("datasets decode");
            *slot = Some(Box::new(v));
        })
    } else {
        Box::new(move |_: &mut Vec<u8>, slot: &mut Slot| {
            let v: T = surp_dedup::from_slice(&bytes).expect("datasets decode");
            *slot = Some(Box::new(v));
        })
    }
}

fn cell_run<'a, T: serde::Serialize + DeserializeOwned + 'static>(
    format: &str,
    op: Operation,
    value: &'a T,
) -> CellRun<'a> {
    match op {
        Operation::Encode => encode_cell(format, value),
        _ => {
            let bytes = if format == "surp" {
                surp::to_vec(value).expect("datasets encode")
            } else {
                surp_dedup::to_vec(value).expect("datasets encode")
            };
            decode_cell::<T>(format, bytes)
        }
    }
}

/// The worker: runs every cell once to warm it, then once inside
/// `counted_cell`, in [`cells_to_count`] order. Meant to run under
/// callgrind (see [`count`]); on its own it only exercises the cells.
pub fn worker() -> Result<(), BenchError> {
    let mut values: Vec<(BenchDataset, Value)> = Vec::new();
    for d in Dataset::ALL {
        values.push((d.into(), d.load(Scale::Ci)?));
    }
    let mut typed: Vec<(BenchDataset, TypedValue)> = Vec::new();
    for d in TypedDataset::ALL {
        typed.push((BenchDataset::Typed(d), d.load(Scale::Ci)?));
    }
    let mut buf = Vec::new();
    for (format, dataset, op) in cells_to_count() {
        let mut run: CellRun<'_> = match dataset {
            BenchDataset::Value(_) => {
                let (_, value) = values.iter().find(|(d, _)| *d == dataset).expect("loaded");
                cell_run(format, op, value)
            }
            BenchDataset::Typed(_) => {
                let (_, value) = typed.iter().find(|(d, _)| *d == dataset).expect("loaded");
                match value {
                    TypedValue::Log(v) => cell_run(format, op, v),
                    TypedValue::Mesh(v) => cell_run(format, op, v),
                    TypedValue::GameSave(v) => cell_run(format, op, v),
                    TypedValue::GameUpdates(v) => cell_run(format, op, v),
                }
            }
        };
        let mut slot: Slot = None;
        run(&mut buf, &mut slot);
        slot = None;
        std::hint::black_box(counted_cell(&mut || run(&mut buf, &mut slot)));
        drop(slot);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(format: &str, n: u64) -> InstructionCount {
        InstructionCount {
            format: format.to_owned(),
            dataset: "mesh".to_owned(),
            op: "decode".to_owned(),
            instructions: n,
        }
    }

    #[test]
    fn growth_past_the_threshold_is_a_regression_and_shrinking_is_not() {
        let baseline = [count("surp", 1_000_000), count("surp_dedup", 1_000_000)];
        let current = [count("surp", 1_021_000), count("surp_dedup", 970_000)];
        let c = compare_instructions(&current, &baseline);
        assert_eq!(c.regressions.len(), 1);
        assert_eq!(c.regressions[0].cell, "surp decode on mesh");
        assert_eq!(c.improvements.len(), 1);
        let within = [count("surp", 1_019_000), count("surp_dedup", 1_000_000)];
        assert!(
            compare_instructions(&within, &baseline)
                .regressions
                .is_empty()
        );
    }

    #[test]
    fn cells_missing_on_either_side_are_listed() {
        let c = compare_instructions(&[count("surp", 1)], &[count("surp_dedup", 1)]);
        assert_eq!(c.unmatched.len(), 2);
    }

    #[test]
    fn the_csv_round_trips() {
        let counts = vec![count("surp", 123), count("surp_dedup", 456)];
        assert_eq!(
            parse_instructions_csv(&to_instructions_csv(&counts)).unwrap(),
            counts
        );
        assert!(parse_instructions_csv("x\n").is_err());
    }

    #[test]
    fn every_counted_cell_runs_outside_valgrind() {
        // The worker is what callgrind measures; on its own it must run
        // every cell without error.
        worker().unwrap();
    }
}
