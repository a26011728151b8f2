// The JavaScript benchmark: the `surp` package against msgpackr, cbor-x,
// @msgpack/msgpack, json-pack and JSON on the datasets the Rust harness
// exports.
//
//     cargo run -p surp-bench --release -- export --mode ci --output ../bench/results/export-ci
//     npm run build
//     node bench/bench.mjs --export ../bench/results/export-ci
//
// The export folder fixes the mode: its export.json names the dataset scale
// and the iteration counts of the Rust harness in that mode, which this
// harness uses too. Output goes to ../bench/results/js/ in ci mode and to
// ../docs/assets/bench/v<version>/js/ in full mode, unless --output says
// otherwise:
//
// - summary.csv: one row per format x dataset x operation, with the columns
//   of the Rust harness's summary.csv (zstd_bytes is empty: Node 20 has no
//   zstd);
// - meta.json: Node and package versions, the machine and the methodology;
// - chart.svg: size, encode and decode time per dataset and format.
//
// Options: --formats a,b  --datasets a,b  --iterations N (timed runs per
// cell)  --processes N (per dataset; 4 in full mode, 1 in ci mode)  --output DIR.

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, platform, release, arch } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { Encoder, decode } from "../dist/index.js";
import { chart } from "./chart.mjs";
import { FORMATS, packageVersion, sizeOf } from "./formats.mjs";
import { equivalent } from "./equivalent.mjs";
import { CSV_HEADER, csvRow, statistics } from "./stats.mjs";

const JS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REPO = resolve(JS_DIR, "..");
/**
 * How long each operation of each format runs untimed before a dataset's
 * timed runs (and at least twice), by mode: a ci-mode run is a smoke test.
 */
const WARMUP_MS = { full: 300, ci: 20 };
/** Processes per dataset, by mode (the --processes default). */
const PROCESSES = { full: 4, ci: 1 };

function usage(message) {
  console.error(`bench.mjs: ${message}`);
  console.error("usage: node bench/bench.mjs --export DIR [--formats a,b] [--datasets a,b] [--iterations N] [--output DIR]");
  process.exit(2);
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (!["--export", "--formats", "--datasets", "--iterations", "--processes", "--output"].includes(flag)) usage(`unknown argument ${flag}`);
    if (value === undefined) usage(`${flag} needs a value`);
    out[flag.slice(2)] = value;
  }
  if (out.export === undefined) usage("--export is required");
  return out;
}

function pick(all, list, what) {
  if (list === undefined) return all;
  const names = list.split(",");
  for (const name of names) {
    if (!all.some((x) => x.name === name)) usage(`unknown ${what} ${name}; known: ${all.map((x) => x.name).join(", ")}`);
  }
  return all.filter((x) => names.includes(x.name));
}

function gitState() {
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: REPO, encoding: "utf8" }).trim() !== "";
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}

const collect = typeof globalThis.gc === "function" ? globalThis.gc : null;

function timeOnce(fn, input) {
  if (collect) collect();
  const start = process.hrtime.bigint();
  const result = fn(input);
  const end = process.hrtime.bigint();
  return [Number(end - start), result];
}

function warmUp(fn, input, ms) {
  const start = performance.now();
  let runs = 0;
  while (runs < 2 || performance.now() - start < ms) {
    fn(input);
    runs++;
  }
}

/** Measures one dataset (in a worker process); returns its rows. */
function measure({ exportDir, dataset, formats: names, iterations, warmupMs }) {
  const formats = FORMATS.filter((f) => names.includes(f.name));
  const bytes = readFileSync(join(exportDir, dataset.surp));
  const value = decode(bytes);
  // The value a JavaScript program holds: a float with an integral value
  // is a number like any integer, so it is written back as an integer and
  // the JavaScript encoding of a dataset can differ from the exported one.
  const reread = equivalent(decode(new Encoder().encode(value)), value);
  if (reread) throw new Error(`${dataset.name}: re-encoding the exported value changes it: ${reread}`);
  // Per format: the codec, its input value, its encoding, checked.
  const lanes = formats.map((format) => {
    const codec = format.make();
    const input = format.prepare ? format.prepare(value) : value;
    const encoded = codec.encode(input);
    const second = codec.encode(input);
    const same = typeof encoded === "string" ? encoded === second : Buffer.compare(Buffer.from(encoded), Buffer.from(second)) === 0;
    if (!same) throw new Error(`${dataset.name}: ${format.name} encodes the same value to different bytes`);
    const problem = equivalent(codec.decode(encoded), input);
    if (problem) throw new Error(`${dataset.name}: ${format.name} does not give the value back: ${problem}`);
    return { format, codec, input, encoded, size: sizeOf(encoded), times: { encode: [], decode: [] } };
  });
  for (const lane of lanes) {
    warmUp(lane.codec.encode, lane.input, warmupMs);
    warmUp(lane.codec.decode, lane.encoded, warmupMs);
  }
  for (let i = 0; i < iterations; i++) {
    for (const op of ["encode", "decode"]) {
      for (let k = 0; k < lanes.length; k++) {
        const lane = lanes[(i + k) % lanes.length];
        const [ns] = timeOnce(lane.codec[op], op === "encode" ? lane.input : lane.encoded);
        lane.times[op].push(ns);
      }
    }
  }
  const cells = [];
  for (const lane of lanes) {
    for (const op of ["encode", "decode"]) {
      cells.push({ format: lane.format.name, dataset: dataset.name, op, samples: lane.times[op], size: lane.size });
    }
  }
  return cells;
}

function main() {
  if (process.argv[2] === "--worker") {
    process.stdout.write(JSON.stringify(measure(JSON.parse(process.argv[3]))));
    return;
  }
  const args = parseArgs(process.argv.slice(2));
  const exportDir = resolve(args.export);
  const manifest = JSON.parse(readFileSync(join(exportDir, "export.json"), "utf8"));
  const formats = pick(FORMATS, args.formats, "format");
  const datasets = pick(manifest.datasets, args.datasets, "dataset");
  const iterations = args.iterations === undefined ? manifest.iterations : Number(args.iterations);
  if (!Number.isInteger(iterations) || iterations < 1) usage(`--iterations must be a positive whole number`);
  const processes = args.processes === undefined ? (PROCESSES[manifest.mode] ?? PROCESSES.full) : Number(args.processes);
  if (!Number.isInteger(processes) || processes < 1) usage(`--processes must be a positive whole number`);
  // Before anything is written: a run into a committed run's folder
  // changes tracked files, which are not what was measured.
  const git = gitState();
  const warmupMs = WARMUP_MS[manifest.mode] ?? WARMUP_MS.full;
  const version = JSON.parse(readFileSync(join(JS_DIR, "package.json"), "utf8")).version;
  const output = resolve(
    args.output ?? (manifest.mode === "full" ? join(REPO, "docs/assets/bench", `v${version}`, "js") : join(REPO, "bench/results/js")),
  );

  // Each dataset is measured in processes of its own, so that no codec
  // carries compiled code or inline caches shaped by another dataset; and
  // in several, one after another, their samples pooled, because one
  // process's compiled code and heap layout can make a codec's times
  // differ from another process's by more than the spread within it.
  const rows = [];
  for (const dataset of datasets) {
    const cells = new Map();
    for (let k = 0; k < processes; k++) {
      // The iterations, shared out as evenly as they go.
      const share = Math.floor(iterations / processes) + (k < iterations % processes ? 1 : 0);
      if (share === 0) continue;
      const out = execFileSync(
        process.execPath,
        [
          "--expose-gc",
          fileURLToPath(import.meta.url),
          "--worker",
          JSON.stringify({ exportDir, dataset, formats: formats.map((f) => f.name), iterations: share, warmupMs }),
        ],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 26 },
      );
      for (const cell of JSON.parse(out)) {
        const key = `${cell.format} ${cell.op}`;
        const pooled = cells.get(key);
        if (pooled === undefined) cells.set(key, cell);
        else pooled.samples.push(...cell.samples);
      }
    }
    for (const cell of cells.values()) {
      rows.push({ format: cell.format, dataset: cell.dataset, op: cell.op, stats: statistics(cell.samples), size: cell.size });
    }
    console.error(`bench.mjs: ${dataset.name} measured`);
  }

  mkdirSync(output, { recursive: true });
  writeFileSync(join(output, "summary.csv"), CSV_HEADER + "\n" + rows.map(csvRow).join("\n") + "\n");
  const meta = {
    harness: "js/bench/bench.mjs",
    mode: manifest.mode,
    iterations,
    processes,
    warmup: `each operation of each format runs at least 2 times and at least ${warmupMs} ms before a dataset's timed runs`,
    node: { version: process.versions.node, v8: process.versions.v8 },
    packages: Object.fromEntries(
      formats.map((f) => [f.name, { package: f.package, version: packageVersion(f), call: f.call, bytes: f.bytes }]),
    ),
    machine: { os: platform(), release: release(), arch: arch(), cpu_model: cpus()[0]?.model ?? "unknown", cores: cpus().length },
    dataset_version: manifest.dataset_version,
    surp_format_version: manifest.surp_format_version,
    datasets: datasets.map((d) => ({ name: d.name, sha256: d.sha256 })),
    git,
    methodology: {
      ops: "encode is the value to bytes (a string for json_string), decode is bytes to the value",
      check: "before timing, each format encodes each dataset twice (identical bytes) and decodes it back to the value it was given, compared structurally (types, float bits with NaN equal to NaN, map order not compared; an integer may come back as a number or a BigInt of the same value); JSON is given bytes as base64 text and integers beyond 2^53 as the nearest number",
      process: `each dataset is measured in ${processes} Node process${processes === 1 ? "" : "es"} of its own, one after another (started with --expose-gc), the ${iterations} timed iterations shared out between them and their samples pooled: no codec carries compiled code or inline caches from another dataset, and no one process's compiled code or heap layout decides a cell`,
      order: "per dataset: warm-up runs of every operation per format; then each timed iteration runs encode, then decode, each round-robin over the formats, starting one format later at each iteration",
      timer: "process.hrtime.bigint() around one call; the result is kept until the clock stops",
      gc: "a full garbage collection (gc(), from --expose-gc) runs before every timed call, outside the clock, so that no call pays for another's garbage",
      p95: "nearest rank; with fewer than 20 samples it is the maximum (labelled max)",
      throughput: "serialized bytes / median time, in MB/s (10^6 bytes/s)",
      zstd: "zstd_bytes is empty: Node 20 has no zstd",
    },
  };
  writeFileSync(join(output, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
  writeFileSync(join(output, "chart.svg"), chart(rows, formats.map((f) => f.name), datasets.map((d) => d.name), iterations));
  console.error(`bench.mjs: wrote summary.csv, meta.json and chart.svg to ${output}`);
}

main();
