// Differential tests against the Rust crates, through the `surp` CLI
// (surp-cli) and the datasets that `surp-bench export` writes. Skipped
// unless they are at hand: SURP_CLI (default target/release/surp, else
// target/debug/surp) and SURP_EXPORT_DIR (default: exported now by
// surp-bench, from the same places). `cargo test --workspace` builds both
// in debug; `cargo build --release -p surp-cli -p surp-bench` is faster.
//
// The CLI reads JSON: an integer in the i64 or u64 range is an integer,
// any other number a binary64 float (surp-cli/src/json.rs). Values here
// are written in the vector notation and turned into JSON that says the
// same: floats always with a point or an exponent.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";

import { DEFAULT_BUDGET, Dictionary, DictionaryDecoder, SessionDecoder, SessionEncoder, decode, encode, frame, readFrames } from "../dist/index.js";
import { fromHex, hexOf, normalize, toJs, toNotation } from "./notation.mjs";

const root = new URL("../../", import.meta.url).pathname;
/** A workspace binary: the release build if there is one, else the debug build. */
function binary(name) {
  const release = join(root, "target/release", name);
  return existsSync(release) ? release : join(root, "target/debug", name);
}
const cli = process.env.SURP_CLI ?? binary("surp");
const bench = binary("surp-bench");
// Values compared one by one (a process each), and in one document.
const RUNS = Number(process.env.SURP_DIFFERENTIAL_RUNS ?? 30);
const BATCH = Number(process.env.SURP_DIFFERENTIAL_BATCH ?? 10_000);
/** Random values per document in the batch comparison. */
const CHUNK = 250;

function exportDir() {
  if (process.env.SURP_EXPORT_DIR) return process.env.SURP_EXPORT_DIR;
  if (!existsSync(bench)) return null;
  const dir = mkdtempSync(join(tmpdir(), "surp-export-"));
  const run = spawnSync(bench, ["export", "--output", dir], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return dir;
}

const hasCli = existsSync(cli);
const datasets = hasCli || process.env.SURP_EXPORT_DIR ? exportDir() : null;

/** What `surp args...` writes for `input`, which it must accept. */
function runCli(args, input) {
  const run = spawnSync(cli, args, { input, maxBuffer: 1 << 30 });
  assert.equal(run.status, 0, `surp ${args.join(" ")}: ${run.stderr}`);
  return new Uint8Array(run.stdout);
}

/** What the Rust side writes for JSON text, with `surp encode [flag]`. */
const rust = (json, flag) => runCli(["encode", ...(flag ? [flag] : []), "-"], json);

/**
 * Asserts that two byte strings are equal. Compared as bytes; only a
 * difference is turned into hex (with the message `what()`), which on
 * large documents costs more than the rest of the test.
 */
function sameBytes(ours, theirs, what) {
  if (Buffer.from(ours.buffer, ours.byteOffset, ours.length).equals(theirs)) return;
  assert.equal(hexOf(ours), hexOf(theirs), what());
}

const I64_MIN = -(1n << 63n);
const U64_MAX = (1n << 64n) - 1n;

/** JSON text for a normalized notation value, or null if JSON cannot say it. */
function json(v) {
  const [[kind, x]] = Object.entries(v);
  switch (kind) {
    case "null":
      return "null";
    case "bool":
      return String(x);
    case "int": {
      const n = BigInt(x);
      return n >= I64_MIN && n <= U64_MAX ? x : null;
    }
    case "float": {
      const dv = new DataView(new ArrayBuffer(8));
      dv.setBigUint64(0, BigInt(x), true);
      const f = dv.getFloat64(0, true);
      if (!Number.isFinite(f)) return null;
      if (Object.is(f, -0)) return "-0.0";
      const s = String(f);
      return /[.e]/.test(s) ? s : `${s}.0`;
    }
    case "str":
      return JSON.stringify(x);
    case "array": {
      const items = x.map(json);
      return items.includes(null) ? null : `[${items.join(",")}]`;
    }
    case "map": {
      const parts = [];
      for (const [k, val] of x) {
        if (!("str" in k)) return null;
        const j = json(val);
        if (j === null) return null;
        parts.push(`${JSON.stringify(k.str)}:${j}`);
      }
      return `{${parts.join(",")}}`;
    }
    default:
      return null; // bytes, some
  }
}

const MODES = [
  [undefined, undefined],
  ["--dedup", { dedup: true }],
  ["--dedup-shapes", { dedup: "shapes" }],
];

function exact(bytes) {
  return toNotation(decode(bytes, { mapsAs: "entries", wrapFloats: true }));
}

test("datasets: the plain documents Rust wrote, byte for byte, both ways", { skip: datasets === null && "no exported datasets" }, () => {
  const manifest = JSON.parse(readFileSync(join(datasets, "export.json"), "utf8"));
  for (const d of manifest.datasets) {
    const value = normalize(JSON.parse(readFileSync(join(datasets, d.json), "utf8")), false);
    const surp = new Uint8Array(readFileSync(join(datasets, d.surp)));
    sameBytes(encode(toJs(value)), surp, () => d.name);
    assert.deepStrictEqual(exact(surp), normalize(value, true), d.name);
  }
});

test("datasets: deduplicated documents equal the Rust encoder's", { skip: (datasets === null || !hasCli) && "no CLI or datasets" }, () => {
  const manifest = JSON.parse(readFileSync(join(datasets, "export.json"), "utf8"));
  let compared = 0;
  for (const d of manifest.datasets) {
    const value = normalize(JSON.parse(readFileSync(join(datasets, d.json), "utf8")), false);
    const text = json(value);
    if (text === null) continue; // byte strings: no JSON form
    for (const [flag, options] of MODES.slice(1)) {
      const theirs = rust(text, flag);
      sameBytes(encode(toJs(value), options), theirs, () => `${d.name} ${flag}`);
      assert.deepStrictEqual(exact(theirs), normalize(value, true), `${d.name} ${flag}`);
    }
    compared++;
  }
  assert.ok(compared >= 8, `${compared} datasets`);
});

// JSON-shaped values: string keys only (duplicates allowed), numbers the
// CLI keeps as they are, strings that repeat.
const pooled = fc.constantFrom("", "a", "ab", "id", "abc", "name", "status", "active", "é", "🙂", "a longer string value");
const text = fc.oneof({ weight: 3, arbitrary: pooled }, { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) });
const leaf = fc.oneof(
  fc.constant({ null: null }),
  fc.boolean().map((b) => ({ bool: b })),
  fc.oneof(fc.integer({ min: -300, max: 300 }), fc.bigInt(I64_MIN, U64_MAX)).map((i) => ({ int: String(i) })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((f) => {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, f, true);
    return { float: "0x" + dv.getBigUint64(0, true).toString(16).padStart(16, "0") };
  }),
  text.map((s) => ({ str: s })),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true, maxDepth: 4 },
    leaf,
    fc.array(tie("value"), { maxLength: 10 }).map((a) => ({ array: a })),
    fc.array(fc.tuple(text.map((s) => ({ str: s })), tie("value")), { maxLength: 6 }).map((p) => ({ map: p })),
    fc.array(tie("record"), { minLength: 1, maxLength: 12 }).map((a) => ({ array: a })),
  ),
  record: fc
    .uniqueArray(pooled, { minLength: 1, maxLength: 5 })
    .chain((keys) => fc.tuple(...keys.map(() => tie("value"))).map((vals) => ({ map: keys.map((k, i) => [{ str: k }, vals[i]]) }))),
}));

/** The random values, drawn once (it takes seconds) for the tests that use them. */
let drawn = null;
const randomValues = () => (drawn ??= fc.sample(value, { numRuns: BATCH, seed: Number(process.env.SURP_DIFFERENTIAL_SEED ?? 34) }));

test("random JSON values: the same bytes as the Rust encoders, plain and deduplicated", { skip: !hasCli && "no CLI" }, () => {
  const values = randomValues();
  // One by one, and then all of them, CHUNK to a document, where tables
  // grow large.
  const chunks = [];
  for (let i = 0; i < values.length; i += CHUNK) chunks.push({ array: values.slice(i, i + CHUNK) });
  for (const v of [...values.slice(0, RUNS), ...chunks]) {
    const text = json(v);
    for (const [flag, options] of MODES) {
      const theirs = rust(text, flag);
      sameBytes(encode(toJs(v), options), theirs, () => `surp encode ${flag ?? ""} of ${text}`);
      assert.deepStrictEqual(exact(theirs), normalize(v, true));
    }
  }
});

// Sessions (spec section 9.1): the random values as the messages of
// sessions, three of the four budgets small enough (in strings, shapes or
// bytes) that the tables tumble every few messages. `surp encode
// --session` writes a header frame and a frame a message; `surp decode
// --session` prints the messages as a JSON array.
const BUDGETS = [DEFAULT_BUDGET, { strings: 12, shapes: 3, bytes: 600 }, { strings: 400, shapes: 1, bytes: 1 << 20 }, { strings: 0, shapes: 0, bytes: 0 }];
/** Messages a session. */
const SESSION = 500;

/** The frames of a JavaScript session of `messages`: its header's, then one a message. */
function jsSession(options, messages) {
  const encoder = new SessionEncoder(options);
  return Buffer.concat([frame(encoder.header()), ...messages.map((m) => frame(encoder.encode(toJs(m))))]);
}

/** Reads the session `stream` in JavaScript and checks that its messages are `messages`. */
function readSession(stream, options, messages) {
  const decoder = new SessionDecoder({ ...options, mapsAs: "entries", wrapFloats: true });
  const docs = [...readFrames(stream)];
  assert.equal(docs.length, 1 + messages.length);
  decoder.readHeader(docs[0]);
  docs.slice(1).forEach((doc, k) => assert.deepStrictEqual(toNotation(decoder.decode(doc)), normalize(messages[k], true)));
}

test("random JSON values as session messages: the Rust session encoder's frames, read both ways", { skip: !hasCli && "no CLI" }, (t) => {
  const values = randomValues();
  let sessions = 0;
  for (let i = 0; i < values.length; i += SESSION) {
    const messages = values.slice(i, i + SESSION);
    const budget = BUDGETS[sessions++ % BUDGETS.length];
    const flag = ["--budget", `${budget.strings},${budget.shapes},${budget.bytes}`];
    const text = json({ array: messages });
    const theirs = runCli(["encode", "--session", ...flag, "-"], text);
    // Ours: the same frames, byte for byte.
    const ours = jsSession({ budget }, messages);
    sameBytes(ours, theirs, () => `session ${sessions} (budget ${flag[1]})`);
    // JavaScript reads Rust's stream...
    readSession(theirs, { budget }, messages);
    // ...and Rust reads ours to the same values: its JSON, encoded again
    // by Rust, is the plain document of all the messages.
    const back = runCli(["decode", "--session", ...flag, "-"], ours);
    sameBytes(rust(back), encode(toJs({ array: messages })), () => `session ${sessions}`);
  }
  t.diagnostic(`${values.length} messages in ${sessions} sessions agree`);
});

// Dictionaries (spec section 9.2): Rust learns one from some of the random
// values (`surp dictionary`); JavaScript reads its stored form, writes each
// value as Rust writes it with `surp encode --dictionary`, and reads Rust's
// documents; and a session that starts from it gives the same frames.
test("random JSON values with a dictionary Rust learnt: the same documents and sessions, both ways", { skip: !hasCli && "no CLI" }, (t) => {
  const values = randomValues().slice(0, 2000);
  const stored = runCli(["dictionary", "-"], json({ array: values.slice(0, 300) }));
  const dictionary = Dictionary.fromBytes(stored);
  sameBytes(dictionary.toBytes(), stored, () => "the stored dictionary, read and written again");
  const dir = mkdtempSync(join(tmpdir(), "surp-dictionary-"));
  const path = join(dir, "dict.surp");
  writeFileSync(path, stored);
  const reader = new DictionaryDecoder(dictionary, { mapsAs: "entries", wrapFloats: true });
  // A process a value would be slow: each document holds CHUNK of them,
  // as an array.
  let documents = 0;
  for (let i = 0; i < values.length; i += CHUNK) {
    const v = { array: values.slice(i, i + CHUNK) };
    const theirs = runCli(["encode", "--dictionary", path, "-"], json(v));
    sameBytes(dictionary.encode(toJs(v)), theirs, () => `values ${i}.. with the dictionary`);
    assert.deepStrictEqual(toNotation(reader.decode(theirs)), normalize(v, true));
    documents++;
  }
  for (const budget of [DEFAULT_BUDGET, { strings: 12, shapes: 3, bytes: 600 }]) {
    const flag = ["--budget", `${budget.strings},${budget.shapes},${budget.bytes}`, "--dictionary", path];
    const messages = values.slice(0, SESSION);
    const theirs = runCli(["encode", "--session", ...flag, "-"], json({ array: messages }));
    sameBytes(jsSession({ budget, dictionary }, messages), theirs, () => `a session from the dictionary (budget ${flag[1]})`);
    readSession(theirs, { budget, dictionary }, messages);
  }
  rmSync(dir, { recursive: true });
  t.diagnostic(`${documents} dictionary documents and 2 sessions of ${SESSION} messages agree`);
});

/** The offset of the error the Rust decoder reports for `input`, "ok", or null when only its JSON output failed. */
function rustDecode(input) {
  const run = spawnSync(cli, ["decode", "-"], { input });
  if (run.status === 0) return { offset: "ok" };
  const err = run.stderr.toString();
  if (/cannot convert to JSON/.test(err)) return null;
  const at = / at byte (\d+)/.exec(err);
  assert.ok(at, err);
  return { offset: Number(at[1]), utf8: /invalid UTF-8/.test(err) };
}

test("mutated documents: the Rust decoder accepts and rejects the same, at the same byte", { skip: !hasCli && "no CLI" }, (t) => {
  const vectors = JSON.parse(readFileSync(join(root, "docs/vectors/surp-v2.json"), "utf8"));
  const seeds = [];
  for (const list of ["vectors", "decode_only", "dedup", "dedup_limited", "invalid"]) {
    for (const v of vectors[list]) if (typeof v.hex === "string" && v.hex.length <= 600) seeds.push(fromHex(v.hex));
  }
  const mutated = fc.sample(
    fc.tuple(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.constantFrom(0x00, 0x81, 0xa1, 0xb1, 0xc0, 0xcb, 0xeb, 0xef, 0xf2, 0xf3, 0xf6, 0xff)), { minLength: 1, maxLength: 3 })),
    { numRuns: RUNS * 5, seed: 340 },
  );
  let compared = 0;
  for (const [seed, edits] of mutated) {
    const bytes = [...seed];
    for (const [at, op, b] of edits) {
      const i = at % (bytes.length + 1);
      if (op === 0 && i < bytes.length) bytes[i] = b;
      else if (op === 1) bytes.splice(i, 0, b);
      else bytes.splice(i, 1);
    }
    const input = Uint8Array.from(bytes);
    const theirs = rustDecode(input);
    if (theirs === null) continue;
    let ours;
    try {
      decode(input);
      ours = { offset: "ok" };
    } catch (e) {
      ours = { offset: e.offset, utf8: e.kind === "InvalidUtf8" };
    }
    // Invalid UTF-8 included: both place it at the first invalid byte
    // (spec section 3.4).
    assert.equal(ours.offset, theirs.offset, `decode ${hexOf(input)}`);
    assert.equal(ours.utf8 ?? false, theirs.utf8 ?? false, `decode ${hexOf(input)}`);
    compared++;
  }
  t.diagnostic(`${compared} documents agree`);
});
