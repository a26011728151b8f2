// Property tests: on random values, the encoder writes what the naive
// reference encoder of test/reference.mjs writes, plain and deduplicated,
// and the decoder reads it back.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";

import { decode, encode } from "../dist/index.js";
import { hexOf, normalize, toJs, toNotation } from "./notation.mjs";
import * as reference from "./reference.mjs";

const RUNS = Number(process.env.SURP_PROPERTY_RUNS ?? 300);

// Few distinct strings, so that they repeat and deduplicate; some long
// enough for slots, some too short; non-ASCII too.
const pooled = fc.constantFrom("", "a", "ab", "id", "abc", "name", "status", "active", "é", "ça va", "🙂", "a longer string value");
const text = fc.oneof({ weight: 3, arbitrary: pooled }, { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) });
const bits64 = fc.bigInt(0n, (1n << 64n) - 1n);
const floatBits = fc.oneof(
  fc.double().map((x) => {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, x, true);
    return dv.getBigUint64(0, true);
  }),
  fc.constantFrom(0x7ff8000000000000n, 0x7ff0000000000001n, 0xfff8040000000000n, 0x3ff0000000000000n, 0x8000000000000000n),
  bits64,
);
const integer = fc.oneof(
  fc.integer({ min: -300, max: 300 }),
  fc.bigInt(-(1n << 64n) - 5n, (1n << 64n) + 5n),
  fc.bigInt(-(1n << 127n), (1n << 128n) - 1n),
);

const leaf = fc.oneof(
  fc.constant({ null: null }),
  fc.boolean().map((b) => ({ bool: b })),
  integer.map((i) => ({ int: String(i) })),
  floatBits.map((b) => ({ float: "0x" + b.toString(16).padStart(16, "0") })),
  text.map((s) => ({ str: s })),
  fc.uint8Array({ maxLength: 20 }).map((b) => ({ bytes: hexOf(b) })),
);

const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 12 }).map((a) => ({ array: a })),
    tie("map"),
    tie("record"),
    fc.array(tie("record"), { minLength: 1, maxLength: 6 }).map((a) => ({ array: a })),
    tie("value").map((v) => ({ some: v })),
  ),
  key: fc.oneof(
    { weight: 6, arbitrary: text.map((s) => ({ str: s })) },
    { weight: 1, arbitrary: leaf },
    { weight: 1, arbitrary: text.map((s) => ({ some: { str: s } })) },
    { weight: 1, arbitrary: fc.constant({ some: { null: null } }) },
  ),
  map: fc.array(fc.tuple(tie("key"), tie("value")), { maxLength: 8 }).map((pairs) => ({ map: pairs })),
  // Records: string keys from the pool, so that shapes repeat.
  record: fc
    .uniqueArray(pooled, { minLength: 1, maxLength: 5 })
    .chain((keys) => fc.tuple(...keys.map(() => tie("value"))).map((vals) => ({ map: keys.map((k, i) => [{ str: k }, vals[i]]) }))),
}));

const limits = fc.record({
  strings: fc.oneof(fc.constant(1 << 20), fc.integer({ min: 0, max: 4 })),
  shapes: fc.oneof(fc.constant(1 << 16), fc.integer({ min: 0, max: 4 })),
});

function exact(bytes) {
  return toNotation(decode(bytes, { mapsAs: "entries", wrapFloats: true }));
}

test("the plain encoder writes the reference's bytes, and they decode to the value", () => {
  fc.assert(
    fc.property(value, (v) => {
      const bytes = encode(toJs(v));
      assert.equal(hexOf(bytes), hexOf(Uint8Array.from(reference.plain(v))));
      assert.deepStrictEqual(exact(bytes), normalize(v, true));
    }),
    { numRuns: RUNS },
  );
});

test("the deduplicating encoder writes the reference's bytes, whatever its table limits", () => {
  fc.assert(
    fc.property(value, limits, (v, lim) => {
      const options = { dedup: true, maxStrings: lim.strings, maxShapes: lim.shapes };
      const bytes = encode(toJs(v), options);
      assert.equal(hexOf(bytes), hexOf(reference.dedup(v, lim.strings, lim.shapes)));
      assert.deepStrictEqual(exact(bytes), normalize(v, true));
    }),
    { numRuns: RUNS },
  );
});

test("shapes only is the deduplicating encoder with no string slot", () => {
  fc.assert(
    fc.property(value, (v) => {
      const js = toJs(v);
      assert.equal(hexOf(encode(js, { dedup: "shapes" })), hexOf(encode(js, { dedup: true, maxStrings: 0 })));
    }),
    { numRuns: RUNS },
  );
});

test("a deduplicated document decodes to what the plain one does, in every map form", () => {
  fc.assert(
    fc.property(value, (v) => {
      const js = toJs(v);
      const plain = encode(js);
      const dedup = encode(js, { dedup: true });
      assert.ok(dedup.length <= plain.length, "never larger than plain (section 7.3)");
      for (const mapsAs of ["auto", "map", "entries"]) {
        assert.deepStrictEqual(decode(dedup, { mapsAs }), decode(plain, { mapsAs }));
      }
    }),
    { numRuns: RUNS },
  );
});

test("strings whose UTF-8 is longer than their UTF-16 get the header of their UTF-8 length", () => {
  // The encoder leaves room for the header of a byte per UTF-16 unit and
  // moves the payload on when the UTF-8 comes out longer: around each
  // length class's edge (32, 256 and 65,536 bytes), ASCII followed by a
  // few characters of two, three and four bytes, and lone surrogates
  // (written as U+FFFD, three bytes for one unit), on both paths (the
  // loop below 64 units, the engine's writer from 64 on).
  const utf8 = new TextEncoder();
  const decoder = new TextDecoder();
  let checked = 0;
  for (const edge of [32, 256, 65536]) {
    for (const unit of ["é", "€", "😀", "\ud800", "\udc00"]) {
      for (const k of [1, 2, 3, 40]) {
        for (const back of [1, 2, 3, 5, 30, 120]) {
          if (back > edge) continue;
          const s = "a".repeat(edge - back) + unit.repeat(k);
          const bytes = encode(s);
          assert.equal(hexOf(bytes), hexOf(Uint8Array.from(reference.plain({ str: s }))), `${edge - back} ASCII + ${k} × ${JSON.stringify(unit)}`);
          assert.equal(decode(bytes), decoder.decode(utf8.encode(s)));
          checked++;
        }
      }
    }
  }
  assert.equal(checked, 340);
});
