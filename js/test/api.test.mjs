// The JavaScript side of the mapping: which values become which Surp
// values and back, the options, and the errors.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";

import {
  Decoder,
  Encoder,
  Entries,
  Float,
  Some,
  SurpError,
  decode,
  decodeAll,
  decodeMultiple,
  encode,
} from "../dist/index.js";
import { hexOf } from "./notation.mjs";

const hex = (v, options) => hexOf(encode(v, options));
const bytes = (h) => Uint8Array.from(Buffer.from(h, "hex"));

function throwsSurp(fn, kind, offset) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof SurpError, String(e));
    assert.equal(e.kind, kind, e.message);
    if (offset !== undefined) assert.equal(e.offset, offset, e.message);
    return true;
  });
}

test("numbers: safe integers are integers, everything else a float", () => {
  assert.equal(hex(5), "05");
  assert.equal(hex(-1), "ff");
  assert.equal(hex(-9), "e008");
  assert.equal(hex(2 ** 53 - 1), "deffffffffffff1f");
  assert.equal(hex(-(2 ** 53) + 1), "e6feffffffffff1f");
  assert.equal(hex(1.5), "ec003e");
  assert.equal(hex(-0), "ec0080");
  assert.equal(hex(NaN), "ec007e");
  assert.equal(hex(2 ** 53), hex(new Float(2 ** 53)));
  assert.equal(hex(2 ** 53), "ed0000005a");
  assert.equal(hex(0.1), "ee9a9999999999b93f");
  assert.equal(hex(new Float(1)), "ec003c");
  assert.ok(Object.is(decode(bytes("ec0080")), -0));
});

test("bigints are integers of any width up to 128 bits, and only those", () => {
  assert.equal(hex(5n), "05");
  assert.equal(hex(2n ** 64n), "ef09000000000000000001");
  assert.equal(hex(-(2n ** 127n)), "f010ffffffffffffffffffffffffffffff7f");
  throwsSurp(() => encode(2n ** 128n), "IntegerOutOfRange");
  throwsSurp(() => encode(-(2n ** 127n) - 1n), "IntegerOutOfRange");
  // Decoding: a number when safe, else a bigint, never a rounded number.
  assert.equal(decode(bytes("deffffffffffff1f")), 2 ** 53 - 1);
  assert.equal(decode(bytes("de00000000000020")), 2n ** 53n);
  assert.equal(decode(bytes("e6feffffffffff1f")), -(2 ** 53) + 1);
  assert.equal(decode(bytes("e6ffffffffffff1f")), -(2n ** 53n));
  assert.equal(decode(bytes("dfffffffffffffffff")), 2n ** 64n - 1n);
  throwsSurp(() => decode(bytes("f010" + "ff".repeat(16))), "IntegerOutOfRange", 0);
});

test("strings, bytes, null and undefined", () => {
  assert.equal(hex("é"), "82c3a9");
  assert.equal(hex("\ufeffx"), "84efbbbf78");
  assert.equal(decode(bytes("84efbbbf78")), "\ufeffx", "a byte order mark is part of the string");
  assert.equal(hex("\ud800"), "83efbfbd", "a lone surrogate is written as U+FFFD");
  assert.equal(hex(new Uint8Array([1, 2])), "cc020102");
  assert.equal(hex(new Uint8Array([1, 2]).buffer), "cc020102");
  assert.equal(hex(Buffer.from([1, 2])), "cc020102");
  assert.deepEqual(decode(bytes("cc020102")), new Uint8Array([1, 2]));
  assert.equal(hex(null), "e8");
  assert.equal(hex(undefined), "e8");
  assert.equal(hex([undefined]), "a1e8");
  assert.equal(hex({ a: undefined }), "b18161e8");
  assert.equal(hex({ a: undefined, b: 1 }, { ignoreUndefined: true }), "b1816201");
  const long = "x".repeat(100) + "é".repeat(100);
  assert.equal(decode(encode(long)), long);
});

test("a lone surrogate deduplicates as the U+FFFD it is written as", () => {
  // Both strings are written as ef bf bd: the second is a reference.
  assert.equal(hex(["\ud800", "\udc00", "\ufffd"], { dedup: true }), "f2a383efbfbdf300f300");
});

test("a lone surrogate in a key matches the shape of its U+FFFD", () => {
  // Both maps' keys are written as ef bf bd: the second is a shape reference.
  const maps = [new Map([["\ud800", 1]]), new Map([["\udc00", 2]])];
  assert.equal(hex(maps, { dedup: true }), "f2a2b183efbfbd01c002");
});

test("without String.prototype.isWellFormed, lone surrogates are found all the same", () => {
  const code = `
    delete String.prototype.isWellFormed;
    const { encode } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
    const hex = (v) => Buffer.from(encode(v, { dedup: true })).toString("hex");
    console.log(hex(["\\ud800", "\\udc00"]), hex([new Map([["\\ud800", 1]]), new Map([["\\udc00", 2]])]));
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  assert.equal(out.trim(), "f2a283efbfbdf300 f2a2b183efbfbd01c002");
});

test("with Object.prototype frozen, keys it holds are still own properties of every record", () => {
  // Keys such as toString name read-only properties of a frozen
  // Object.prototype: an assignment would fail (or, outside strict mode,
  // do nothing), so records must define them, on every path: first use
  // (property by property), later uses (a record function), shapes, and
  // records too long for a function.
  const code = `
    const { decode, encode } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
    const wide = Object.fromEntries(Array.from({ length: 70 }, (_, i) => ["k" + i, i]));
    const records = [0, 1, 2, 3].map((i) => ({ toString: i, valueOf: -i, b: i }));
    const docs = [encode(records), encode(records, { dedup: true }), encode([{ ...wide, toString: 1 }, { ...wide, toString: 2 }], { dedup: true })];
    Object.freeze(Object.prototype);
    const out = docs.map((doc) => decode(doc).map((o) => Object.keys(o).includes("toString") && Object.getPrototypeOf(o) === Object.prototype && typeof o.toString === "number"));
    console.log(JSON.stringify(out));
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  assert.deepEqual(JSON.parse(out), [[true, true, true, true], [true, true, true, true], [true, true]]);
});

test("Some: written as its content unless that is null", () => {
  assert.equal(hex(new Some(5)), "05");
  assert.equal(hex(new Some(null)), "ebe8");
  assert.equal(hex(new Some(new Some(undefined))), "ebebe8");
  assert.equal(decode(bytes("ebebe8")), null);
});

test("arrays, sets and typed arrays", () => {
  assert.equal(hex([1, [2]]), "a201a102");
  assert.equal(hex(new Set([1, 2])), "a20102");
  assert.equal(hex(new Int16Array([1, -2])), "a201fe");
  assert.equal(hex(new Float32Array([1, 0.5])), "a2ec003cec0038");
  assert.equal(hex(new BigInt64Array([1n])), "a101");
  assert.equal(hex(new Uint8ClampedArray([7])), "cc0107");
  assert.equal(hex(new DataView(new Uint8Array([9, 8]).buffer, 1)), "cc0108");
});

test("objects with string keys are plain objects; other maps are Maps", () => {
  assert.deepEqual(decode(encode({ a: 1, b: "x" })), { a: 1, b: "x" });
  const m = new Map([
    ["b", 1],
    [2, 3],
    ["a", 4],
  ]);
  const back = decode(encode(m));
  assert.ok(back instanceof Map);
  assert.deepEqual([...back], [...m], "order kept, string keys before the first other one too");
  assert.ok(decode(encode({ a: 1 }), { mapsAs: "map" }) instanceof Map);
  const e = decode(bytes("b201816101ff"), { mapsAs: "entries" }); // {1: "a", 1: -1}
  assert.ok(e instanceof Entries);
  assert.equal(e.entries.length, 2);
  assert.equal(hex(new Entries([[1, "a"], [1, -1]])), "b2018161" + "01ff");
  // A Map with string keys is written as an object is.
  assert.equal(hex(new Map([["a", 1]])), hex({ a: 1 }));
  // A class instance: its own enumerable properties; toJSON where it has one.
  class Point {
    constructor() {
      this.x = 1;
    }
  }
  assert.equal(hex(new Point()), hex({ x: 1 }));
  assert.equal(hex(new Date(0)), hex("1970-01-01T00:00:00.000Z"));
  assert.equal(hex([new Number(5), new String("a"), new Boolean(true)]), hex([5, "a", true]));
});

test("__proto__ and constructor keys become own properties, never the prototype", () => {
  const doc = encode(new Map([["__proto__", { polluted: true }], ["constructor", 1]]));
  const o = decode(doc);
  assert.equal(Object.getPrototypeOf(o), Object.prototype);
  assert.deepEqual(Object.keys(o), ["__proto__", "constructor"]);
  assert.deepEqual(Object.getOwnPropertyDescriptor(o, "__proto__").value, { polluted: true });
  assert.equal(o.constructor, 1);
  assert.equal({}.polluted, undefined);
  // Through a deduplicated document's shapes too.
  const twice = decode(encode([JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 2}')], { dedup: true }));
  assert.equal(Object.getPrototypeOf(twice[1]), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(twice[1], "__proto__").value, 2);
  // Shapes referenced again and again are built by a made function: not these.
  const many = decode(encode([1, 2, 3, 4, 5].map((i) => JSON.parse(`{"__proto__": ${i}, "a": 0}`)), { dedup: true }));
  for (const o of many) assert.equal(Object.getPrototypeOf(o), Object.prototype);
  assert.deepEqual(many.map((o) => Object.getOwnPropertyDescriptor(o, "__proto__").value), [1, 2, 3, 4, 5]);
  // And records of a plain document.
  const plain = decode(encode([1, 2, 3, 4, 5].map((i) => JSON.parse(`{"a": 0, "__proto__": ${i}}`))));
  for (const o of plain) assert.equal(Object.getPrototypeOf(o), Object.prototype);
  assert.deepEqual(plain.map((o) => Object.getOwnPropertyDescriptor(o, "__proto__").value), [1, 2, 3, 4, 5]);
});

test("records built for a shape hold every key, in order, whatever the key", () => {
  const keys = ["b", "a", "1", "", "é", "\u2028", 'q"uote', "constructor", "toString"];
  const records = [0, 1, 2, 3, 4].map((i) => Object.fromEntries(keys.map((k) => [k, i])));
  for (const options of [undefined, { dedup: true }]) {
    const back = decode(encode(records, options));
    assert.deepEqual(back, records);
    for (const o of back) assert.deepEqual(Object.keys(o), Object.keys(records[0]));
  }
  // A repeated key keeps its first place and its last value.
  const twice = new Entries([["a", 1], ["b", 2], ["a", 3]]);
  for (const o of decode(encode([twice, twice, twice]))) assert.deepEqual(Object.entries(o), [["a", 3], ["b", 2]]);
  // A key that is no string, after string keys, makes the map a Map, in order.
  const mixed = new Entries([["a", 1], [2, 2], ["c", 3]]);
  for (const m of decode(encode([mixed, mixed, mixed]))) assert.deepEqual([...m], [["a", 1], [2, 2], ["c", 3]]);
});

test("floats keep their bits with wrapFloats", () => {
  const nan = Float.fromBits(0x7ff0000000000001n);
  assert.equal(hex(nan), "ee010000000000f07f");
  const back = decode(encode(nan), { wrapFloats: true });
  assert.ok(back instanceof Float);
  assert.equal(back.bits, 0x7ff0000000000001n);
  const half = decode(bytes("ec017e"), { wrapFloats: true });
  assert.equal(half.bits, 0x7ff8040000000000n);
  assert.equal(decode(bytes("ec003c"), { wrapFloats: true }).value, 1);
  assert.equal(decode(bytes("ec003c")), 1);
});

test("binary64 reads the same with and without wrapFloats", () => {
  // `read` takes binary64 itself unless wrapFloats is on, which goes the
  // general way: both must agree on values, NaNs and truncation.
  const doc = encode([1.1, -0, Infinity, Float.fromBits(0x7ff0000000000001n)]);
  const plain = decode(doc);
  const wrapped = decode(doc, { wrapFloats: true });
  assert.deepEqual(plain.slice(0, 3), [1.1, -0, Infinity]);
  assert.ok(Object.is(plain[1], -0));
  assert.ok(Number.isNaN(plain[3]));
  assert.deepEqual(
    wrapped.map((f) => f.bits),
    plain.slice(0, 3).map((x) => new Float(x).bits).concat([0x7ff0000000000001n]),
  );
  for (let len = 1; len < 9; len++) {
    const cut = bytes("a1ee" + "00".repeat(len - 1));
    for (const options of [undefined, { wrapFloats: true }]) {
      throwsSurp(() => decode(cut, options), "UnexpectedEof", cut.length);
    }
  }
});

test("arrays that start with a float read every item, and fail where the general path fails", () => {
  // An array whose first item is a float is read by a loop of its own
  // (decode.ts, floats), which wrapFloats turns off: both must agree.
  const items = [1.5, 0.1, -0, Infinity, NaN, 65504, 3.4028234663852886e38, 2, -7, "x", 1n << 70n, [0.5, 1], { a: 0.25 }, null, 1e-300];
  for (let n = 5; n <= items.length; n++) {
    const doc = encode(items.slice(0, n));
    const plain = decode(doc);
    const unwrap = (x) =>
      x instanceof Float
        ? x.value
        : Array.isArray(x)
          ? x.map(unwrap)
          : x !== null && typeof x === "object"
            ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, unwrap(v)]))
            : x;
    const wrapped = unwrap(decode(doc, { wrapFloats: true }));
    assert.deepEqual(plain, wrapped);
    assert.deepEqual(plain, items.slice(0, n));
    assert.ok(Object.is(plain[2], -0));
    for (let cut = 1; cut < doc.length; cut++) {
      const part = doc.subarray(0, cut);
      let general;
      try {
        decode(part, { wrapFloats: true });
      } catch (e) {
        general = e;
      }
      assert.ok(general instanceof SurpError);
      throwsSurp(() => decode(part), general.kind, general.offset);
    }
  }
  // Every width of float, as the encoder narrows them.
  const widths = [1, 1.5, 0.1, 1e300, 0.3333333432674408, -2.5, 1e-7];
  const doc = encode(widths);
  assert.deepEqual([...new Set(Array.from(doc.subarray(1)).filter((b) => b >= 0xec && b <= 0xee))].length > 1, true);
  assert.deepEqual(decode(doc), widths);
});

test("records are plain objects, however often their keys were seen", () => {
  const records = Array.from({ length: 6 }, (_, i) => ({ id: i, name: `n${i}`, tags: ["a"], at: 0.5 * i }));
  for (const options of [undefined, { dedup: true }]) {
    const back = decode(encode(records, options));
    assert.deepEqual(back, records);
    for (const o of back) {
      assert.equal(Object.getPrototypeOf(o), Object.prototype);
      assert.equal(o.constructor, Object);
      assert.deepEqual(Object.getOwnPropertyNames(o), ["id", "name", "tags", "at"]);
      assert.deepEqual(structuredClone(o), o);
    }
  }
});

test("the encoder refuses to nest past its depth limit, cycles included", () => {
  let deep = 0;
  for (let i = 0; i < 128; i++) deep = [deep];
  assert.equal(encode(deep).length, 129);
  throwsSurp(() => encode([deep]), "DepthLimitExceeded");
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  throwsSurp(() => encode(cyclic), "DepthLimitExceeded");
  assert.equal(encode([[1]], { maxDepth: 2 }).length, 3);
  throwsSurp(() => encode([[1]], { maxDepth: 1 }), "DepthLimitExceeded");
});

test("values with no Surp form are an error", () => {
  throwsSurp(() => encode(() => 1), "Message");
  throwsSurp(() => encode(Symbol("s")), "Message");
  assert.equal(new SurpError("Message", "x").category, "Data");
});

test("decoder limits", () => {
  const nested = encode([[[1]]]);
  throwsSurp(() => decode(nested, { maxDepth: 2 }), "DepthLimitExceeded", 2);
  throwsSurp(() => decode(encode("abcdef"), { maxLen: 5 }), "LengthLimitExceeded", 0);
  throwsSurp(() => decode(encode([1, 2, 3]), { maxLen: 2 }), "LengthLimitExceeded", 0);
  // A 2-byte string referenced 3 times: 6 bytes of expansion.
  const doc = bytes("f2a48268 69f300f300f300".replace(/ /g, ""));
  assert.deepEqual(decode(doc, { maxAlloc: 6 }), ["hi", "hi", "hi", "hi"].slice(0, 4));
  throwsSurp(() => decode(doc, { maxAlloc: 5 }), "AllocationLimitExceeded", 9);
  // Longer than maxAlloc: a limit error if the input holds that much, else a truncation.
  throwsSurp(() => decode(encode("abcdef"), { maxAlloc: 5 }), "AllocationLimitExceeded", 0);
  throwsSurp(() => decode(bytes("86616263"), { maxAlloc: 5 }), "LengthExceedsInput", 0);
  throwsSurp(() => decode(bytes("f2a383616263f300f300"), { maxDedupStrings: 0 }), "UnknownStringRef", 6);
  throwsSurp(() => decode(bytes("f2a2b18361626301c002"), { maxDedupShapes: 0 }), "UnknownShapeRef", 8);
  // One 1000-byte string, then 1000 references to it.
  const bomb = Uint8Array.from([0xf2, 0xd1, 0xe9, 0x03, 0xc9, 0xe8, 0x03, ...new Array(1000).fill(0x78), ...new Array(1000).fill([0xf3, 0]).flat()]);
  assert.equal(decode(bomb).length, 1001);
  throwsSurp(() => decode(bomb, { maxExpansion: { ratio: 16, base: 0 } }), "AllocationLimitExceeded", 1039);
});

test("errors carry kind, category, offset and a sentence", () => {
  try {
    decode(bytes("a2e8"));
    assert.fail();
  } catch (e) {
    assert.ok(e instanceof SurpError);
    assert.equal(e.name, "SurpError");
    assert.equal(e.category, "Eof");
    assert.equal(e.message, "array declares 2 items but the input is too short to hold them at byte 0");
  }
  throwsSurp(() => decode(bytes("0000")), "TrailingBytes", 1);
  throwsSurp(() => decode("not bytes"), "Message");
});

test("a sequence of documents, each with its own tables", () => {
  const a = encode(["abc", "abc"], { dedup: true });
  const b = encode({ x: 1 });
  const c = encode(["abc", "abc"], { dedup: true });
  const all = new Uint8Array([...a, ...b, ...c]);
  assert.deepEqual(decodeAll(all), [["abc", "abc"], { x: 1 }, ["abc", "abc"]]);
  // A reference never reaches an earlier document's table.
  throwsSurp(() => decodeAll(new Uint8Array([...a, 0xf2, 0xf3, 0x00])), "UnknownStringRef", a.length + 1);
  // The decoder can be used between two documents of the iteration.
  const it = decodeMultiple(all);
  assert.deepEqual(it.next().value, ["abc", "abc"]);
  assert.equal(decode(encode(7)), 7);
  assert.deepEqual([...it], [{ x: 1 }, ["abc", "abc"]]);
  assert.deepEqual(decodeAll(new Uint8Array(0)), []);
  throwsSurp(() => decodeAll(new Uint8Array([...b, 0xa1])), "LengthExceedsInput", b.length);
});

test("Encoder and Decoder keep their buffers between calls", () => {
  const encoder = new Encoder({ dedup: true });
  const decoder = new Decoder();
  const value = { name: "x".repeat(1000), list: [{ id: 1 }, { id: 2 }] };
  const first = encoder.encode(value);
  const second = encoder.encode(value);
  assert.deepEqual(first, second);
  assert.deepEqual(decoder.decode(first), value);
  assert.deepEqual(decoder.decode(second), value);
  // A toJSON that encodes with the same encoder does not disturb it.
  class Inner {
    toJSON() {
      return hexOf(encoder.encode(["y", "y"]));
    }
  }
  const inner = new Inner();
  assert.deepEqual(decoder.decode(encoder.encode([inner, "abc", "abc"]))[1], "abc");
});

test("a depth limit beyond the JavaScript stack is still a SurpError", () => {
  const deep = new Uint8Array(200_000).fill(0xa1);
  throwsSurp(() => decode(deep, { maxDepth: Infinity }), "DepthLimitExceeded");
  const some = new Uint8Array(200_000).fill(0xeb);
  throwsSurp(() => decode(some, { maxDepth: Infinity }), "DepthLimitExceeded");
  let nested = [];
  for (let i = 0; i < 200_000; i++) nested = [nested];
  throwsSurp(() => encode(nested, { maxDepth: Infinity }), "DepthLimitExceeded");
});

test("input in shared memory decodes as any other", () => {
  const doc = encode({ text: "é".repeat(40), list: ["abc", "abc"] }, { dedup: true });
  const shared = new Uint8Array(new SharedArrayBuffer(doc.length + 3), 3);
  shared.set(doc);
  assert.deepEqual(decode(shared), decode(doc));
  shared[9 + 10] = 0xff; // inside the long string, whose payload starts at 9
  throwsSurp(() => decode(shared), "InvalidUtf8", 9 + 10);
});

test("every binary16 value decodes to its number and encodes back to itself", () => {
  const doc = new Uint8Array([0xec, 0, 0]);
  for (let h = 0; h < 0x10000; h++) {
    doc[1] = h & 0xff;
    doc[2] = h >> 8;
    const exp = (h >> 10) & 0x1f;
    const man = h & 0x3ff;
    const magnitude = exp === 0 ? man * Math.pow(2, -24) : exp === 31 ? (man ? NaN : Infinity) : (1024 + man) * Math.pow(2, exp - 25);
    const x = decode(doc);
    assert.ok(Object.is(x, h & 0x8000 ? -magnitude : magnitude), `ec ${h.toString(16)}: ${x}`);
    assert.equal(hex(decode(doc, { wrapFloats: true })), hexOf(doc), `ec ${h.toString(16)}`);
  }
});

test("byte strings are views of the input unless copyBytes is set", () => {
  const doc = encode({ blob: new Uint8Array([1, 2, 3]) });
  const view = decode(doc).blob;
  assert.equal(view.buffer, doc.buffer, "a view shares the input's memory");
  const copy = decode(doc, { copyBytes: true }).blob;
  assert.notEqual(copy.buffer, doc.buffer);
  doc[doc.length - 1] = 9;
  assert.deepEqual(view, new Uint8Array([1, 2, 9]), "a change to the input shows in a view");
  assert.deepEqual(copy, new Uint8Array([1, 2, 3]), "and not in a copy");
});

test("a large document keeps its buffer: independent of the next one, nothing past it but zeros", () => {
  const encoder = new Encoder();
  const big = (fill) => ({ blob: new Uint8Array(200_000).fill(fill), text: "é".repeat(50_000) });
  const first = encoder.encode(big(1));
  const second = encoder.encode(big(2));
  assert.notEqual(first.buffer, second.buffer);
  assert.deepEqual(decode(first), big(1), "the second encode did not write into the first document");
  assert.deepEqual(decode(second), big(2));
  for (const doc of [first, second]) {
    assert.equal(doc.byteOffset, 0);
    const past = new Uint8Array(doc.buffer, doc.length);
    assert.ok(past.every((b) => b === 0), "the buffer past the document is zeroed");
  }
  // Small documents after a large one are copies of their own.
  const small = encoder.encode([1, 2, 3]);
  assert.equal(small.buffer.byteLength, small.length);
  assert.deepEqual(decode(small), [1, 2, 3]);
});

test("long strings: U+FFFD in the input is text, an invalid byte an error at its offset", () => {
  for (const len of [19, 20, 24, 64, 1000]) {
    const s = "\ufffd" + "a".repeat(len);
    assert.equal(decode(encode(s)), s);
    const doc = encode("a".repeat(len));
    const at = doc.length - 3;
    doc[at] = 0xc3; // a lead byte followed by an ASCII byte
    throwsSurp(() => decode(doc), "InvalidUtf8", at);
  }
});

test("predicted keys: a key that only looks like the predicted one is read as itself", () => {
  const decoder = new Decoder();
  const records = [{ id: 1, name: "a" }, { id: 2, name: "b" }, { id: 3, nbme: "c" }, { é: 1, name: "d" }, { id: 4 }];
  assert.deepEqual(decoder.decode(encode(records)), records);
  // Latin-1 bytes are not UTF-8: "\xe9" must not match a key "é" (U+00E9).
  const doc = bytes("a2b182c3a901b181e901");
  throwsSurp(() => decoder.decode(doc), "InvalidUtf8", 8);
});

test("predicted keys of every length are compared in every byte", () => {
  // A predicted key is compared four bytes at a time, the last four
  // overlapping: a key that differs from it in any one byte, at any length
  // a fixstr holds, must be read as itself.
  const decoder = new Decoder();
  for (const unit of ["k", "é", "€"]) {
    const width = new TextEncoder().encode(unit).length;
    for (let len = 0; len * width <= 31; len++) {
      const key = unit.repeat(len);
      const size = len * width;
      for (let at = 0; at < size; at++) {
        // The same key with byte `at` changed, kept valid UTF-8 by
        // changing an ASCII byte to another and a continuation byte to
        // another continuation byte.
        const other = new TextEncoder().encode(key);
        other[at] = other[at] < 0x80 ? other[at] ^ 1 : other[at] === 0xbf ? 0xbe : other[at] + 1;
        const twin = new TextDecoder("utf-8", { fatal: true }).decode(other);
        const records = [{ [key]: 1, z: 0 }, { [key]: 2, z: 0 }, { [twin]: 3, z: 0 }, { [key]: 4, z: 0 }];
        const back = decoder.decode(encode(records));
        assert.deepEqual(back, records, `key of ${size} bytes, byte ${at} changed`);
        assert.deepEqual(Object.keys(back[2]), [twin, "z"]);
      }
      // And the key itself, predicted from the second object on.
      const same = [1, 2, 3].map((v) => ({ [key]: v }));
      assert.deepEqual(decoder.decode(encode(same)), same);
    }
  }
});
