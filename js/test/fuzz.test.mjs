// Hostile input: random bytes, and valid documents with bytes changed,
// inserted or cut, decode or fail with a SurpError, never another error,
// and never take long. Runs for SURP_FUZZ_MS (default: 10 s in CI, 2 s
// otherwise).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { SurpError, decode, decodeAll, encode } from "../dist/index.js";
import { bytesOfHex } from "./notation.mjs";

const BUDGET_MS = Number(process.env.SURP_FUZZ_MS ?? (process.env.CI ? 10_000 : 2_000));
const vectors = JSON.parse(readFileSync(new URL("../../docs/vectors/surp-v2.json", import.meta.url), "utf8"));

// Seeds: the valid documents that are not too long, plain and deduplicated.
const seeds = [];
for (const list of ["vectors", "decode_only", "dedup", "deep", "dedup_limited", "invalid"]) {
  for (const v of vectors[list]) {
    const b = bytesOfHex(v.hex);
    if (b.length <= 4096) seeds.push(b);
  }
}
seeds.push(encode([{ id: 1, name: "alpha", tags: ["x", "y"] }, { id: 2, name: "alpha", tags: ["x"] }], { dedup: true }));

/** A small deterministic generator (xorshift32), so a failure can be replayed from its seed. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % n;
  };
}

// Tags that make interesting headers: lengths, references, markers.
const INTERESTING = [0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xc0, 0xc7, 0xeb, 0xef, 0xf0, 0xcb, 0xcf, 0xd3, 0xd7, 0xff, 0x00, 0x80, 0xb1];

function mutate(random) {
  if (random(4) === 0) {
    const out = new Uint8Array(random(64));
    for (let i = 0; i < out.length; i++) out[i] = random(256);
    return out;
  }
  const bytes = [...seeds[random(seeds.length)]];
  const edits = 1 + random(4);
  for (let i = 0; i < edits; i++) {
    const at = random(bytes.length + 1);
    switch (random(4)) {
      case 0:
        if (at < bytes.length) bytes[at] = random(256);
        break;
      case 1:
        bytes.splice(at, 0, INTERESTING[random(INTERESTING.length)]);
        break;
      case 2:
        bytes.splice(at, 1 + random(3));
        break;
      default:
        bytes.splice(at, 0, ...bytes.slice(random(bytes.length), random(bytes.length)));
    }
  }
  return Uint8Array.from(bytes);
}

const OPTIONS = [undefined, { mapsAs: "map", wrapFloats: true }, { mapsAs: "entries" }, { maxDepth: 4, maxAlloc: 64 }];

test("random and mutated input: a value or a SurpError, quickly", { timeout: BUDGET_MS + 60_000 }, (t) => {
  const seed = Number(process.env.SURP_FUZZ_SEED ?? Date.now() % 2 ** 31);
  const random = rng(seed);
  const stop = Date.now() + BUDGET_MS;
  let runs = 0;
  let failures = 0;
  while (Date.now() < stop) {
    for (let k = 0; k < 100; k++) {
      const input = mutate(random);
      const options = OPTIONS[random(OPTIONS.length)];
      const started = performance.now();
      for (const run of [() => decode(input, options), () => decodeAll(input, options)]) {
        try {
          run();
        } catch (e) {
          if (!(e instanceof SurpError)) {
            assert.fail(`seed ${seed}: ${Buffer.from(input).toString("hex")} threw ${e?.stack ?? e}`);
          }
          assert.ok(Number.isInteger(e.offset) && e.offset >= 0 && e.offset <= input.length, `seed ${seed}: offset ${e.offset}`);
          failures++;
        }
      }
      const took = performance.now() - started;
      assert.ok(took < 1000, `seed ${seed}: ${input.length} bytes took ${took} ms`);
      runs++;
    }
  }
  assert.ok(runs > 100, `only ${runs} inputs in ${BUDGET_MS} ms`);
  t.diagnostic(`fuzz: ${runs} inputs, ${failures} rejections, seed ${seed}`);
});
