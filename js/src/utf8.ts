/**
 * UTF-8 in both directions. Short strings are converted in JavaScript,
 * which is faster than a call into the engine for a few bytes; long ones
 * go through Node's `utf8Write`/`utf8Slice`, or elsewhere through
 * `TextEncoder`/`TextDecoder`. Decoding always validates: a string
 * that is not UTF-8 is an error at its first invalid byte (spec section 3.4).
 *
 * @module
 */

import { SurpError } from "./errors.js";

/** Strings shorter than this (in UTF-16 units or bytes) are converted in JavaScript. */
const SHORT = 64;

const encoder = new TextEncoder();

type Utf8Write = (this: Uint8Array, s: string, offset: number, length: number) => number;
type Utf8Slice = (this: Uint8Array, start: number, end: number) => string;
/** `Buffer.prototype` in Node, whose UTF-8 methods work on any `Uint8Array`; `undefined` elsewhere. */
const bufferPrototype = (globalThis as { Buffer?: { prototype: { utf8Write?: Utf8Write; utf8Slice?: Utf8Slice } } }).Buffer?.prototype;

/**
 * Node's `Buffer.prototype.utf8Write`, which writes into any `Uint8Array`
 * at an offset (a lone surrogate as U+FFFD, as `TextEncoder` does) and
 * returns the bytes written; `undefined` outside Node. Unlike `encodeInto`
 * it makes no view of the buffer and no result object, which on long
 * strings took about a quarter of the encoder's time (`--cpu-prof`).
 */
const utf8Write = bufferPrototype?.utf8Write;
// `ignoreBOM` keeps a leading U+FEFF: it is part of the string.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Writes `s` as UTF-8 into `buf` at `p`, which has room for
 * `3 * s.length` bytes, and returns the position after it. A lone surrogate
 * becomes U+FFFD, as `TextEncoder` writes it.
 */
export function writeUtf8(s: string, buf: Uint8Array, p: number): number {
  const n = s.length;
  if (n >= SHORT) {
    if (utf8Write !== undefined) return p + utf8Write.call(buf, s, p, buf.length - p);
    return p + encoder.encodeInto(s, buf.subarray(p)).written;
  }
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      buf[p++] = c;
    } else if (c < 0x800) {
      buf[p++] = 0xc0 | (c >> 6);
      buf[p++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          buf[p++] = 0xf0 | (c >> 18);
          buf[p++] = 0x80 | ((c >> 12) & 0x3f);
          buf[p++] = 0x80 | ((c >> 6) & 0x3f);
          buf[p++] = 0x80 | (c & 0x3f);
          continue;
        }
        c = 0xfffd;
      }
      buf[p++] = 0xe0 | (c >> 12);
      buf[p++] = 0x80 | ((c >> 6) & 0x3f);
      buf[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p;
}

/** The error for a string that is not UTF-8, at its first invalid byte `offset`. */
export function invalidUtf8(offset: number): SurpError {
  return new SurpError("InvalidUtf8", "invalid UTF-8 in a string", offset);
}

/**
 * Strings from this many bytes are decoded by the engine (Node's
 * `utf8Slice`, else `TextDecoder`), shorter ones in JavaScript: below it
 * the call costs more than the loop.
 */
const LONG = 32;

/**
 * Node's `Buffer.prototype.utf8Slice`, which decodes a view of any
 * `Uint8Array` and costs about two thirds of a `TextDecoder` call on short
 * strings; `undefined` outside Node.
 */
const utf8Slice = bufferPrototype?.utf8Slice;

// Char codes of short strings, an array per length (setting an array's
// length costs more than the call), reused between calls.
const unitsOf: number[][] = Array.from({ length: LONG }, (_, n) => new Array<number>(n).fill(0));

/** The string held by `src[start..end]`, which must be valid UTF-8. */
export function readUtf8(src: Uint8Array, start: number, end: number): string {
  const len = end - start;
  if (len >= LONG) return readLong(src, start, end);
  let or = 0;
  for (let i = start; i < end; i++) or |= src[i];
  return or < 0x80 ? asciiShort(src, start, len) : readShortNonAscii(src, start, end);
}

/**
 * The ASCII string of the `len` (below {@link LONG}) bytes at `p`: one
 * `String.fromCharCode` call with the codes as arguments, which costs about
 * half of building an array for `apply`.
 */
function asciiShort(b: Uint8Array, p: number, len: number): string {
  const f = String.fromCharCode;
  switch (len) {
    case 0:
      return "";
    case 1:
      return f(b[p]);
    case 2:
      return f(b[p], b[p + 1]);
    case 3:
      return f(b[p], b[p + 1], b[p + 2]);
    case 4:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3]);
    case 5:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4]);
    case 6:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5]);
    case 7:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6]);
    case 8:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7]);
    case 9:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8]);
    case 10:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9]);
    case 11:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10]);
    case 12:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11]);
    case 13:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12]);
    case 14:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13]);
    case 15:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14]);
    case 16:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15]);
    case 17:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16]);
    case 18:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17]);
    case 19:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18]);
    case 20:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19]);
    case 21:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20]);
    case 22:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21]);
    case 23:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22]);
    case 24:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22], b[p + 23]);
    case 25:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22], b[p + 23], b[p + 24]);
    case 26:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22], b[p + 23], b[p + 24], b[p + 25]);
    case 27:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22], b[p + 23], b[p + 24], b[p + 25], b[p + 26]);
    case 28:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22], b[p + 23], b[p + 24], b[p + 25], b[p + 26], b[p + 27]);
    case 29:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22], b[p + 23], b[p + 24], b[p + 25], b[p + 26], b[p + 27], b[p + 28]);
    case 30:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22], b[p + 23], b[p + 24], b[p + 25], b[p + 26], b[p + 27], b[p + 28], b[p + 29]);
    default:
      return f(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6], b[p + 7], b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15], b[p + 16], b[p + 17], b[p + 18], b[p + 19], b[p + 20], b[p + 21], b[p + 22], b[p + 23], b[p + 24], b[p + 25], b[p + 26], b[p + 27], b[p + 28], b[p + 29], b[p + 30]);
  }
}

/** A short string that is not all ASCII, validated as it is decoded. */
function readShortNonAscii(src: Uint8Array, start: number, end: number): string {
  // As many units as bytes at most: a scratch array, copied at the end.
  const units = unitsOf[end - start];
  let n = 0;
  let i = start;
  while (i < end) {
    const b = src[i];
    if (b < 0x80) {
      units[n++] = b;
      i++;
      continue;
    }
    let need: number;
    let cp: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      cp = b & 0x0f;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      cp = b & 0x07;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f; // nothing above U+10FFFF
    } else {
      throw invalidUtf8(i);
    }
    // The continuation bytes must be in the string.
    if (i + need >= end) throw invalidUtf8(i);
    const c1 = src[i + 1];
    if (c1 < lo || c1 > hi) throw invalidUtf8(i);
    cp = (cp << 6) | (c1 & 0x3f);
    for (let k = 2; k <= need; k++) {
      const c = src[i + k];
      if (c < 0x80 || c > 0xbf) throw invalidUtf8(i);
      cp = (cp << 6) | (c & 0x3f);
    }
    i += need + 1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units[n++] = 0xd800 | (cp >> 10);
      units[n++] = 0xdc00 | (cp & 0x3ff);
    } else {
      units[n++] = cp;
    }
  }
  return String.fromCharCode.apply(null, n === units.length ? units : units.slice(0, n));
}

function readLong(src: Uint8Array, start: number, end: number): string {
  if (utf8Slice !== undefined) {
    // `utf8Slice` does not validate: it writes U+FFFD for every invalid
    // sequence. A result without U+FFFD therefore came from valid UTF-8;
    // one with it is decoded again by the validating decoder below (the
    // input may hold U+FFFD itself).
    const s = utf8Slice.call(src, start, end);
    if (s.indexOf("\ufffd") < 0) return s;
  }
  try {
    return decoder.decode(src.subarray(start, end));
  } catch (e) {
    // TextDecoder refuses views of shared memory: decode a copy.
    if (!(e instanceof TypeError) || isShared(src)) return readLongCopy(src, start, end);
    throw invalidUtf8(firstInvalid(src, start, end));
  }
}

function isShared(src: Uint8Array): boolean {
  return typeof SharedArrayBuffer !== "undefined" && src.buffer instanceof SharedArrayBuffer;
}

function readLongCopy(src: Uint8Array, start: number, end: number): string {
  try {
    return decoder.decode(src.slice(start, end));
  } catch {
    throw invalidUtf8(firstInvalid(src, start, end));
  }
}

/** Where the UTF-8 of `src[start..end]`, which `TextDecoder` refused, first goes wrong. */
function firstInvalid(src: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const b = src[i];
    let need = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else {
      return i;
    }
    if (i + need >= end) return i;
    if (src[i + 1] < lo || src[i + 1] > hi) return i;
    for (let k = 2; k <= need; k++) {
      if (src[i + k] < 0x80 || src[i + k] > 0xbf) return i;
    }
    i += need + 1;
  }
  return start;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

type WellFormedString = { isWellFormed(): boolean; toWellFormed(): string };
const native = typeof (String.prototype as Partial<WellFormedString>).isWellFormed === "function";

/** Whether `s` has no lone surrogate (cheap for strings the engine stores as one byte per character). */
export function isWellFormed(s: string): boolean {
  if (native) return (s as unknown as WellFormedString).isWellFormed();
  LONE_SURROGATE.lastIndex = 0;
  return !LONE_SURROGATE.test(s);
}

/**
 * `s` with every lone surrogate replaced by U+FFFD: the string whose UTF-8
 * `writeUtf8` writes for `s`.
 */
export function wellFormed(s: string): string {
  if (isWellFormed(s)) return s;
  return native ? (s as unknown as WellFormedString).toWellFormed() : s.replace(LONE_SURROGATE, "\ufffd");
}

/** The UTF-8 length of `s` as written (a lone surrogate as U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  let len = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      len += 1;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        // A pair: 4 bytes for 2 units.
        len += 2;
        i++;
      } else {
        len += 2;
      }
    } else {
      len += 2;
    }
  }
  return len;
}
