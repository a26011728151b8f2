// Hostile input: random bytes, and valid documents with bytes changed,
// inserted or cut, decode or fail with a SurpError, never another error,
// and never take long. Runs for SURP_FUZZ_MS (default: 10 s in CI, 2 s
// otherwise).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Dictionary, SessionDecoder, SurpError, decode, decodeAll, encode } from "../dist/index.js";
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
  return edit(random, seeds[random(seeds.length)]);
}

/**
 * `bytes` after one to four edits, each one of: a byte changed, an
 * interesting tag inserted, up to three bytes cut, or a run of the input's
 * own bytes inserted.
 */
function edit(random, bytes) {
  const out = [...bytes];
  const edits = 1 + random(4);
  for (let i = 0; i < edits; i++) {
    const at = random(out.length + 1);
    switch (random(4)) {
      case 0:
        if (at < out.length) out[at] = random(256);
        break;
      case 1:
        out.splice(at, 0, INTERESTING[random(INTERESTING.length)]);
        break;
      case 2:
        out.splice(at, 1 + random(3));
        break;
      default:
        out.splice(at, 0, ...out.slice(random(out.length), random(out.length)));
    }
  }
  return Uint8Array.from(out);
}

/**
 * What each fuzz test checks of one call on one input: it returns or
 * throws a SurpError (with an offset inside the input when it names one),
 * in under a second. `offsets` says whether every error must name one.
 */
function checker(seed, offsets) {
  const stats = { runs: 0, failures: 0 };
  const attempt = (input, run) => {
    const started = performance.now();
    try {
      run();
    } catch (e) {
      if (!(e instanceof SurpError)) {
        assert.fail(`seed ${seed}: ${Buffer.from(input).toString("hex")} threw ${e?.stack ?? e}`);
      }
      if (offsets === "always" || e.offset !== undefined) {
        assert.ok(Number.isInteger(e.offset) && e.offset >= 0 && e.offset <= input.length, `seed ${seed}: offset ${e.offset}`);
      }
      stats.failures++;
    }
    const took = performance.now() - started;
    assert.ok(took < 1000, `seed ${seed}: ${input.length} bytes took ${took} ms`);
    stats.runs++;
  };
  return { attempt, stats };
}

const OPTIONS = [undefined, { mapsAs: "map", wrapFloats: true }, { mapsAs: "entries" }, { maxDepth: 4, maxAlloc: 64 }];

test("random and mutated input: a value or a SurpError, quickly", { timeout: BUDGET_MS + 60_000 }, (t) => {
  const seed = Number(process.env.SURP_FUZZ_SEED ?? Date.now() % 2 ** 31);
  const random = rng(seed);
  const stop = Date.now() + BUDGET_MS;
  // Plain decoders only: every error they throw names its byte.
  const { attempt, stats } = checker(seed, "always");
  while (Date.now() < stop) {
    for (let k = 0; k < 100; k++) {
      const input = mutate(random);
      const options = OPTIONS[random(OPTIONS.length)];
      attempt(input, () => decode(input, options));
      attempt(input, () => decodeAll(input, options));
    }
  }
  assert.ok(stats.runs > 200, `only ${stats.runs} calls in ${BUDGET_MS} ms`);
  t.diagnostic(`fuzz: ${stats.runs / 2} inputs, ${stats.failures} rejections, seed ${seed}`);
});

// Sessions and dictionaries (spec section 9): the vectors' headers,
// messages, dictionary documents and stored dictionaries, mutated, given
// to decoders that live across inputs (so that a broken session, a
// tumble or a reset is part of the state the next input meets).
const dictionaries = vectors.dictionaries.map((d) => new Dictionary(d.strings, d.shapes));
const sessionSeeds = vectors.sessions.map((s) => ({
  dictionary: s.dictionary === null ? undefined : dictionaries[s.dictionary],
  budget: s.budget,
  header: bytesOfHex(s.header),
  messages: s.messages.map((m) => bytesOfHex(m.hex)),
}));
const dictionarySeeds = vectors.dictionaries.map((d, i) => ({
  dictionary: dictionaries[i],
  stored: bytesOfHex(d.hex),
  documents: d.documents.map((doc) => bytesOfHex(doc.hex)),
}));

test("mutated session and dictionary documents: a value or a SurpError, quickly", { timeout: BUDGET_MS + 60_000 }, (t) => {
  const seed = Number(process.env.SURP_FUZZ_SEED ?? Date.now() % 2 ** 31);
  const random = rng(seed);
  const stop = Date.now() + BUDGET_MS / 2;
  // Some session errors name no byte (a vector's null offset).
  const { attempt, stats } = checker(seed, "when named");
  let session = null;
  let decoder = null;
  let next = 0;
  while (Date.now() < stop) {
    for (let k = 0; k < 100; k++) {
      if (session === null || next >= session.messages.length) {
        session = sessionSeeds[random(sessionSeeds.length)];
        decoder = new SessionDecoder({ budget: session.budget, dictionary: session.dictionary });
        decoder.readHeader(session.header);
        next = 0;
      }
      switch (random(6)) {
        case 0:
        case 1: {
          // The session's next message, mostly as sent, sometimes mutated:
          // the decoder goes on from whatever state that leaves.
          const m = session.messages[next++];
          const input = random(4) === 0 ? edit(random, m) : m;
          attempt(input, () => decoder.decode(input));
          break;
        }
        case 2: {
          const input = edit(random, session.header);
          const fresh = new SessionDecoder({ budget: session.budget, dictionary: session.dictionary });
          attempt(input, () => fresh.readHeader(input));
          break;
        }
        case 3: {
          const d = dictionarySeeds[random(dictionarySeeds.length)];
          if (d.documents.length === 0) break;
          const input = edit(random, d.documents[random(d.documents.length)]);
          attempt(input, () => d.dictionary.decode(input));
          break;
        }
        case 4: {
          const d = dictionarySeeds[random(dictionarySeeds.length)];
          const input = edit(random, d.stored);
          attempt(input, () => Dictionary.fromBytes(input));
          break;
        }
        default: {
          const input = mutate(random);
          attempt(input, () => decoder.decode(input));
        }
      }
    }
  }
  assert.ok(stats.runs > 100, `only ${stats.runs} inputs in ${BUDGET_MS / 2} ms`);
  t.diagnostic(`session fuzz: ${stats.runs} inputs, ${stats.failures} rejections, seed ${seed}`);
});
