// The vector notation of docs/spec.md ("Test vectors"), for the tests:
// notation to JavaScript values to encode, decoded values back to
// notation, and the expansion of `repeat`, `numbers` and `nest`.

import { Entries, Float, Some } from "../dist/index.js";

// No Node.js API here: the browser test uses this module too.

/** The bytes of hex digits. */
export function fromHex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
  return out;
}

/** The bytes of a vector's `hex`: a string, or a list of segments. */
export function bytesOfHex(hex) {
  const text = typeof hex === "string" ? hex : hex.map((seg) => (typeof seg === "string" ? seg : seg.repeat.repeat(seg.count))).join("");
  return fromHex(text);
}

const DIGITS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function hexOf(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += DIGITS[bytes[i]];
  return s;
}

/** A payload given literally or as {repeat, count}. */
function expand(x) {
  if (x === null || typeof x !== "object" || Array.isArray(x)) return x;
  if (typeof x.repeat === "string") return x.repeat.repeat(x.count);
  return Array.from({ length: x.count }, () => x.repeat);
}

/**
 * The notation with every shorthand expanded and, with `dropSome`, every
 * `some` replaced by its content (what a dynamic decoder reads).
 */
export function normalize(v, dropSome) {
  const [[kind, x]] = Object.entries(v);
  switch (kind) {
    case "null":
    case "bool":
    case "int":
    case "float":
      return v;
    case "str":
      return { str: expand(x) };
    case "bytes":
      return { bytes: expand(x) };
    case "array":
      return { array: expand(x).map((i) => normalize(i, dropSome)) };
    case "map":
      return { map: expand(x).map(([k, val]) => [normalize(k, dropSome), normalize(val, dropSome)]) };
    case "some":
      return dropSome ? normalize(x, dropSome) : { some: normalize(x, dropSome) };
    case "numbers":
      return { array: Array.from({ length: x.count }, (_, i) => ({ str: String(i).padStart(x.width, "0") })) };
    case "nest": {
      let inner = normalize(x.leaf, dropSome);
      for (let i = 0; i < x.depth; i++) {
        if (x.wrap === "array") inner = { array: [inner] };
        else if (x.wrap === "map") inner = { map: [[{ int: "0" }, inner]] };
        else if (!dropSome) inner = { some: inner };
      }
      return inner;
    }
    default:
      throw new Error(`unknown notation ${kind}`);
  }
}

/** An integer as the decoder gives it: a number when safe, else a bigint. */
export function integer(digits) {
  const b = BigInt(digits);
  const n = Number(b);
  return Number.isSafeInteger(n) ? n : b;
}

/** The JavaScript value to encode for a (normalized) notation value. */
export function toJs(v) {
  const [[kind, x]] = Object.entries(v);
  switch (kind) {
    case "null":
      return null;
    case "bool":
      return x;
    case "int":
      return integer(x);
    case "float":
      return Float.fromBits(BigInt(x));
    case "str":
      return x;
    case "bytes":
      return fromHex(x);
    case "array":
      return x.map(toJs);
    case "map":
      return new Entries(x.map(([k, val]) => [toJs(k), toJs(val)]));
    case "some":
      return new Some(toJs(x));
    default:
      throw new Error(`not normalized: ${kind}`);
  }
}

/**
 * A decoded value (with `wrapFloats`) in notation. Objects and `Map`s
 * become maps in their iteration order, `Entries` in theirs.
 */
export function toNotation(js) {
  if (js === null) return { null: null };
  switch (typeof js) {
    case "boolean":
      return { bool: js };
    case "number":
      if (!Number.isSafeInteger(js)) throw new Error(`a number that is not an integer: ${js}`);
      return { int: String(js) };
    case "bigint":
      return { int: js.toString() };
    case "string":
      return { str: js };
  }
  if (js instanceof Float) return { float: "0x" + js.bits.toString(16).padStart(16, "0") };
  if (js instanceof Uint8Array) return { bytes: hexOf(js) };
  if (Array.isArray(js)) return { array: js.map(toNotation) };
  if (js instanceof Entries) return { map: js.entries.map(([k, v]) => [toNotation(k), toNotation(v)]) };
  if (js instanceof Map) return { map: [...js].map(([k, v]) => [toNotation(k), toNotation(v)]) };
  return { map: Object.keys(js).map((k) => [{ str: k }, toNotation(js[k])]) };
}

/** The 64-bit FNV-1a hash of `bytes`, as 16 hex digits. */
export function fnv1a64(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, "0");
}
