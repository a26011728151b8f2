//! Instruction counts: a regression metric that does not drift with the
//! machine's load.
//!
//! Wall-clock times on a shared machine vary by tens of percent from run to
//! run, so a time-based check cannot tell a 2 % regression from noise. The
//! number of instructions a decode executes, counted by valgrind's
//! callgrind, is the same on every run of the same binary and input. This
//! module counts it for a fixed set of cells: encode and decode of each of
//! the project's own formats (those [`counted_formats`] gives, marked in
//! [`FORMATS`]) on every dataset of both suites, at ci scale.
//!
//! How: the harness runs itself under
//! `valgrind --tool=callgrind --collect-atstart=no` with collection toggled
//! on only inside [`counted_cell`] and a profile dump after each call to
//! it. A worker process ([`worker`]) loads every dataset, runs each cell
//! once to warm it, then once inside `counted_cell`; dump *k* holds exactly
//! the instructions of cell *k*. Decoded values are dropped outside the
//! counted call, as the timed runs drop them outside the clock (the cells
//! are in the `cell` module).
//!
//! What is counted: the instructions executed in the harness binary itself
//! (Surp, serde, the standard library: everything statically linked), and,
//! separately, the calls it makes to the C allocator (`malloc`, `calloc`,
//! `realloc` and the aligned forms). The instructions spent inside the
//! shared C library (the allocator's internals, `memcpy`, `memcmp`) are
//! reported as `library_instructions` but not checked: they depend on the
//! machine, not on the code. glibc picks its `memcpy` by the CPU's
//! features, and the path a `malloc` takes depends on the heap's history.
//! One cell (surp_dedup decode of nested_deep, 35% of it in `_int_malloc`)
//! counted 3,434,511 instructions in total on one machine and 4,106,830 on
//! another, from the same commit; its own-code count and its allocation
//! count do not move between machines.
//!
//! The counts are written to `instructions.csv` in the run folder. With
//! `--check` they are compared with the committed baseline
//! `bench/instructions-baseline.csv` (also ci scale): a cell that needs more
//! than [`INSTRUCTION_THRESHOLD_PCT`] percent more own instructions is a
//! regression. Allocator calls are reported beside them, not compared (see
//! [`compare_instructions`]). A change that makes the code slower on purpose updates the
//! baseline in the same commit (`--write-instruction-baseline`) and says why.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;
use surp_datasets::typed::{TypedDataset, TypedValue};
use surp_datasets::{Dataset, Scale, Value};

use crate::cell::{CellInput, CellRun, Slot};
use crate::{BenchDataset, BenchError, FORMATS, Format, Operation, Suite};

/// The formats whose instructions are counted: the project's own, in
/// [`FORMATS`] order.
pub fn counted_formats() -> impl Iterator<Item = &'static Format> {
    FORMATS.iter().filter(|f| f.is_counted())
}

/// The operations counted.
pub const COUNTED_OPERATIONS: [Operation; 2] = [Operation::Encode, Operation::Decode];

/// How much a cell's count may grow, in percent, before `--check` fails.
pub const INSTRUCTION_THRESHOLD_PCT: f64 = 2.0;

/// The header of `instructions.csv`.
pub const INSTRUCTIONS_HEADER: &str =
    "format,dataset,op,instructions,allocations,library_instructions";

/// The C allocator's entry points whose calls are counted as allocations.
const ALLOCATOR_ENTRY_POINTS: [&str; 6] = [
    "malloc",
    "calloc",
    "realloc",
    "posix_memalign",
    "aligned_alloc",
    "memalign",
];

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
    /// Instructions executed in the harness binary's own code (callgrind's
    /// `Ir`, outside shared libraries): what `--check` compares.
    pub instructions: u64,
    /// Calls from the harness binary into the C allocator's allocating
    /// entry points, as callgrind counts them: reported, not compared.
    pub allocations: u64,
    /// Instructions executed inside shared libraries (the allocator's
    /// internals, `memcpy`): reported, not compared, since they vary with
    /// the machine.
    pub library_instructions: u64,
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

/// The suites whose cells are counted: those of one document. A stream of
/// the messages suite runs the same codecs, message by message.
const COUNTED_SUITES: [Suite; 2] = [Suite::Value, Suite::Typed];

/// The cells, in the order the worker counts them.
pub fn cells_to_count() -> Vec<(&'static Format, BenchDataset, Operation)> {
    let mut cells = Vec::new();
    for suite in COUNTED_SUITES {
        for dataset in BenchDataset::all(suite) {
            for format in counted_formats() {
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
        let dump = parse_callgrind_dump(&text)
            .map_err(|reason| failed(format!("{}: {reason}", path.display())))?;
        counts.push(InstructionCount {
            format: format.name.to_owned(),
            dataset: dataset.name().to_owned(),
            op: op.name().to_owned(),
            instructions: dump.own_instructions,
            allocations: dump.allocations,
            library_instructions: dump.library_instructions,
        });
    }
    Ok(counts)
}

/// What one callgrind dump holds, split by where the instructions ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DumpCounts {
    /// Instructions in objects that are not shared libraries.
    pub own_instructions: u64,
    /// Instructions in shared libraries (`*.so*`).
    pub library_instructions: u64,
    /// Calls from non-library code to the C allocator's entry points
    /// (`malloc`, `calloc`, `realloc` and the aligned forms).
    pub allocations: u64,
}

/// Splits a callgrind profile (format version 1, one event, `Ir`) into
/// own-code and library instructions, and counts allocator calls.
///
/// The format: `ob=`/`fn=` set the object and function that the following
/// cost lines (`<position> <Ir>`) belong to; `cob=`/`cfn=` name a call's
/// target, `calls=<n> <position>` records `n` calls, and the cost line right
/// after it is the call's inclusive cost, which is not the caller's own.
/// Names are compressed: `(id) name` defines an id, `(id)` reuses it, and
/// `ob`/`cob` and `fn`/`cfn` share their id spaces.
pub fn parse_callgrind_dump(text: &str) -> Result<DumpCounts, String> {
    use std::collections::HashMap;

    fn name<'a>(
        value: &'a str,
        names: &mut HashMap<&'a str, &'a str>,
        line: usize,
    ) -> Result<&'a str, String> {
        let value = value.trim();
        let Some(rest) = value.strip_prefix('(') else {
            return Ok(value);
        };
        let (id, name) = rest
            .split_once(')')
            .ok_or_else(|| format!("line {line}: unclosed name id in `{value}`"))?;
        let name = name.trim();
        if name.is_empty() {
            names
                .get(id)
                .copied()
                .ok_or_else(|| format!("line {line}: name id ({id}) used before it is defined"))
        } else {
            names.insert(id, name);
            Ok(name)
        }
    }
    let is_library = |object: &str| {
        let file = object.rsplit('/').next().unwrap_or(object);
        file.contains(".so")
    };

    let mut objects = HashMap::new();
    let mut functions = HashMap::new();
    let mut out = DumpCounts::default();
    let mut events_seen = false;
    let mut total = None;
    let mut object = "";
    let mut call_target = "";
    let mut skip_next_cost = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(positions) = line.strip_prefix("positions:") {
            // With `--dump-instr=yes` (from a `.valgrindrc`, say) a cost
            // line would start with an address as well as a line number.
            if positions.trim() != "line" {
                return Err(format!("line {n}: positions other than `line`: `{line}`"));
            }
        } else if let Some(v) = line
            .strip_prefix("summary:")
            .or_else(|| line.strip_prefix("totals:"))
        {
            total = v
                .split_whitespace()
                .next()
                .and_then(|v| v.parse::<u64>().ok());
        } else if let Some(events) = line.strip_prefix("events:") {
            if events.split_whitespace().next() != Some("Ir") {
                return Err(format!("line {n}: the first event is not Ir: `{line}`"));
            }
            events_seen = true;
        } else if let Some(v) = line.strip_prefix("ob=") {
            object = name(v, &mut objects, n)?;
        } else if let Some(v) = line.strip_prefix("cob=") {
            name(v, &mut objects, n)?;
        } else if let Some(v) = line.strip_prefix("fn=") {
            name(v, &mut functions, n)?;
        } else if let Some(v) = line.strip_prefix("cfn=") {
            call_target = name(v, &mut functions, n)?;
        } else if let Some(v) = line.strip_prefix("calls=") {
            let calls: u64 = v
                .split_whitespace()
                .next()
                .and_then(|c| c.parse().ok())
                .ok_or_else(|| format!("line {n}: no call count in `{line}`"))?;
            if !is_library(object) && ALLOCATOR_ENTRY_POINTS.contains(&call_target) {
                out.allocations += calls;
            }
            skip_next_cost = true;
        } else if line.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '*')) {
            if std::mem::take(&mut skip_next_cost) {
                continue;
            }
            let ir: u64 = match line.split_whitespace().nth(1) {
                None => 0,
                Some(v) => v
                    .parse()
                    .map_err(|_| format!("line {n}: `{v}` is not an instruction count"))?,
            };
            if is_library(object) {
                out.library_instructions += ir;
            } else {
                out.own_instructions += ir;
            }
        }
    }
    if !events_seen {
        return Err("no `events:` line; not a callgrind profile".to_owned());
    }
    // Every instruction is either the binary's or a library's: a split that
    // does not add up to callgrind's own total misread the file.
    if let Some(total) = total
        && total != out.own_instructions + out.library_instructions
    {
        return Err(format!(
            "own ({}) and library ({}) instructions do not add up to the total ({total})",
            out.own_instructions, out.library_instructions
        ));
    }
    Ok(out)
}

/// The counts as `instructions.csv`.
pub fn to_instructions_csv(counts: &[InstructionCount]) -> String {
    let mut out = format!("{INSTRUCTIONS_HEADER}\n");
    for c in counts {
        out.push_str(&format!(
            "{},{},{},{},{},{}\n",
            c.format, c.dataset, c.op, c.instructions, c.allocations, c.library_instructions
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
            let [format, dataset, op, instructions, allocations, library] = fields[..] else {
                return Err(format!("line {} has {} fields, not 6", i + 2, fields.len()));
            };
            let number = |n: &str| {
                n.parse::<u64>()
                    .map_err(|_| format!("line {} has `{n}`, not a whole number", i + 2))
            };
            Ok(InstructionCount {
                format: format.to_owned(),
                dataset: dataset.to_owned(),
                op: op.to_owned(),
                instructions: number(instructions)?,
                allocations: number(allocations)?,
                library_instructions: number(library)?,
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
        // Allocator calls are reported, not compared: callgrind counted 61
        // and 58 of them in two builds that executed the same instructions
        // (a cause not pinned down). A change in allocations still shows in
        // the own-code count, through the standard library's allocation
        // paths.
        let change_pct = match (b.instructions, c.instructions) {
            (b, n) if b == n => 0.0,
            // A cell that counted nothing and now counts something has grown
            // without bound.
            (0, _) => f64::INFINITY,
            (b, n) => (n as f64 / b as f64 - 1.0) * 100.0,
        };
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
        let input = match dataset {
            BenchDataset::Value(_) => {
                let (_, value) = values.iter().find(|(d, _)| *d == dataset).expect("loaded");
                CellInput::Value(value)
            }
            BenchDataset::Typed(_) => {
                let (_, value) = typed.iter().find(|(d, _)| *d == dataset).expect("loaded");
                CellInput::Typed(value)
            }
            BenchDataset::Messages(_) => unreachable!("no counted suite has workloads"),
        };
        let mut run: CellRun<'_> =
            format
                .codec()
                .cell(op, input)
                .ok_or_else(|| BenchError::Instructions {
                    message: format!("{} is counted, but its codec has no cells", format.name),
                })?;
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
            allocations: 100,
            library_instructions: 7 * n,
        }
    }

    #[test]
    fn only_own_instructions_are_compared() {
        let baseline = [count("surp", 1_000_000)];
        let mut current = count("surp", 1_000_000);
        current.library_instructions *= 3;
        current.allocations += 50;
        let c = compare_instructions(std::slice::from_ref(&current), &baseline);
        assert!(c.regressions.is_empty() && c.improvements.is_empty());
        current.instructions = 1_030_000;
        let c = compare_instructions(&[current], &baseline);
        assert_eq!(c.regressions.len(), 1);
        assert_eq!(
            (c.regressions[0].baseline, c.regressions[0].current),
            (1_000_000, 1_030_000)
        );
    }

    /// A hand-written profile in callgrind's format: the caller's own
    /// costs, a call into libc's `malloc` whose inclusive cost must not be
    /// counted as the caller's, and the library's own costs.
    const DUMP: &str = "# callgrind format
version: 1
positions: line
events: Ir
summary: 1095

ob=(1) /work/target/release/surp-bench
fl=(1) /work/surp/src/de/mod.rs
fn=(1) surp::de::decode
10 100
+2 50
cob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6
cfl=(2) ./malloc/malloc.c
cfn=(2) malloc
calls=3 0
12 900
13 5
cob=(1)
cfn=(3) surp::de::helper
calls=1 20
13 40
fn=(3)
20 40

ob=(2)
fl=(2)
fn=(2)
0 870
cfn=(4) _int_malloc
calls=2 0
0 30
fn=(4)
0 30
";

    #[test]
    fn a_dump_splits_into_own_and_library_instructions() {
        let counts = parse_callgrind_dump(DUMP).unwrap();
        assert_eq!(
            counts,
            DumpCounts {
                own_instructions: 100 + 50 + 5 + 40,
                library_instructions: 870 + 30,
                allocations: 3,
            }
        );
        assert!(parse_callgrind_dump("not a profile").is_err());
        // A total that the split does not add up to, a name id never
        // defined, and instruction addresses among the positions.
        assert!(parse_callgrind_dump(&DUMP.replace("summary: 1095", "summary: 1096")).is_err());
        assert!(parse_callgrind_dump(&DUMP.replace("ob=(2)\n", "ob=(9)\n")).is_err());
        assert!(
            parse_callgrind_dump(&DUMP.replace("positions: line", "positions: instr line"))
                .is_err()
        );
        assert!(parse_callgrind_dump("events: Ir\n1 x\n").is_err());
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
