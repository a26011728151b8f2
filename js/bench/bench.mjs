// Encode and decode speed on the benchmark datasets, which the Rust
// harness exports: `cargo run --release -p surp-bench -- export --output DIR`,
// then `node bench/bench.mjs DIR`. Prints MB/s of Surp bytes (plain
// document size) per dataset and direction, with JSON as a baseline.
//
// Options: --datasets a,b  --ms N (time per cell, default 1000). Speeds
// are MB of the plain Surp document per second for every codec, so that
// cells compare times on the same data.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { decode as msgpackDecode, encode as msgpackEncode } from "@msgpack/msgpack";
import { Packr } from "msgpackr";

import { Decoder, Encoder } from "../dist/index.js";

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith("--"));
if (!dir) {
  console.error("usage: node bench/bench.mjs EXPORT_DIR [--datasets a,b] [--ms N]");
  process.exit(2);
}
const flag = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const only = flag("--datasets")?.split(",");
const cellMs = Number(flag("--ms") ?? 1000);

/** Vector notation to the value a JavaScript program would hold. */
function natural(v) {
  const [[kind, x]] = Object.entries(v);
  switch (kind) {
    case "null":
      return null;
    case "bool":
      return x;
    case "int": {
      const n = Number(x);
      return Number.isSafeInteger(n) ? n : BigInt(x);
    }
    case "float": {
      const dv = new DataView(new ArrayBuffer(8));
      dv.setBigUint64(0, BigInt(x), true);
      return dv.getFloat64(0, true);
    }
    case "str":
      return typeof x === "string" ? x : x.repeat.repeat(x.count);
    case "bytes":
      return Uint8Array.from(Buffer.from(typeof x === "string" ? x : x.repeat.repeat(x.count), "hex"));
    case "array":
      return x.map(natural);
    case "map": {
      if (x.every(([k]) => "str" in k)) {
        const o = {};
        for (const [k, val] of x) o[k.str] = natural(val);
        return o;
      }
      return new Map(x.map(([k, val]) => [natural(k), natural(val)]));
    }
    case "some":
      return natural(x);
  }
  throw new Error(kind);
}

function time(fn) {
  for (let i = 0; i < 3; i++) fn();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < cellMs) {
    fn();
    n++;
    now = performance.now();
  }
  return (now - start) / n;
}

const manifest = JSON.parse(readFileSync(join(dir, "export.json"), "utf8"));
const rows = [];
for (const d of manifest.datasets) {
  if (only && !only.includes(d.name)) continue;
  const value = natural(JSON.parse(readFileSync(join(dir, d.json), "utf8")));
  const plainEncoder = new Encoder();
  const dedupEncoder = new Encoder({ dedup: true });
  const decoder = new Decoder();
  const plain = plainEncoder.encode(value);
  const dedup = dedupEncoder.encode(value);
  const hasBigInt = (() => {
    try {
      JSON.stringify(value);
      return false;
    } catch {
      return true;
    }
  })();
  const json = hasBigInt ? null : JSON.stringify(value);
  const mb = plain.length / 1e6;
  // MessagePack for comparison: msgpackr without its record extension
  // (plain MessagePack, as Surp's plain documents) and with it (its own
  // structure dedup), and @msgpack/msgpack.
  const packr = new Packr({ useRecords: false, useBigIntExtension: false, int64AsType: "bigint" });
  const recordsPackr = new Packr({ useRecords: true, int64AsType: "bigint" });
  const packed = packr.pack(value);
  const packedRecords = recordsPackr.pack(value);
  const msgpack = msgpackEncode(value, { useBigInt64: true });
  const row = {
    dataset: d.name,
    "plain bytes": plain.length,
    "dedup bytes": dedup.length,
    "encode MB/s": mb / (time(() => plainEncoder.encode(value)) / 1000),
    "decode MB/s": mb / (time(() => decoder.decode(plain)) / 1000),
    "dedup encode MB/s": mb / (time(() => dedupEncoder.encode(value)) / 1000),
    "dedup decode MB/s": mb / (time(() => decoder.decode(dedup)) / 1000),
    "msgpackr pack MB/s": mb / (time(() => packr.pack(value)) / 1000),
    "msgpackr unpack MB/s": mb / (time(() => packr.unpack(packed)) / 1000),
    "msgpackr records bytes": packedRecords.length,
    "msgpackr records pack MB/s": mb / (time(() => recordsPackr.pack(value)) / 1000),
    "msgpackr records unpack MB/s": mb / (time(() => recordsPackr.unpack(packedRecords)) / 1000),
    "@msgpack encode MB/s": mb / (time(() => msgpackEncode(value, { useBigInt64: true })) / 1000),
    "@msgpack decode MB/s": mb / (time(() => msgpackDecode(msgpack, { useBigInt64: true })) / 1000),
    "JSON.stringify MB/s": json === null ? NaN : mb / (time(() => JSON.stringify(value)) / 1000),
    "JSON.parse MB/s": json === null ? NaN : mb / (time(() => JSON.parse(json)) / 1000),
  };
  rows.push(row);
  console.error(`${d.name} done`);
}
const cols = Object.keys(rows[0]);
console.log(`| ${cols.join(" | ")} |`);
console.log(`|${cols.map((c, i) => (i === 0 ? "---" : "--:")).join("|")}|`);
for (const r of rows) {
  console.log(`| ${cols.map((c) => (typeof r[c] === "number" && !Number.isInteger(r[c]) ? r[c].toFixed(0) : r[c])).join(" | ")} |`);
}
