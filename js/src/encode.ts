/**
 * The encoder: JavaScript values to Surp documents, plain (spec sections
 * 3–5) or deduplicated (section 7). One walk over the value serves both;
 * deduplication changes only how strings and maps with string keys are
 * written.
 *
 * The output is one growing buffer, kept between calls.
 *
 * @module
 */

import { EncoderTables, MAX_SHAPE_KEYS, shapeRefSize, shapeWeight, slotWeight, strRefSize } from "./dedup.js";
import { SurpError, depthLimitExceeded, fromEngine, unsupported } from "./errors.js";
import { f16BitsOfF32, f32Bits, Float, narrowNaN } from "./float.js";
import {
  DEFAULT_MAX_DEDUP_SHAPES,
  DEFAULT_MAX_DEDUP_STRINGS,
  DEFAULT_MAX_DEPTH,
  type EncodeOptions,
} from "./options.js";
import * as tag from "./tag.js";
import { isWellFormed, utf8Length, wellFormed, writeUtf8 } from "./utf8.js";
import { Entries, Some, unwrapSome } from "./value.js";

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE_BIG = -MAX_SAFE_BIG;
const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;
const I128_MIN = -(1n << 127n);
const TWO_32 = 2 ** 32;
/** The encoder's first buffer. */
const INITIAL = 256;
/** Documents from this size on are handed over in the buffer they were written in. */
const HAND_OVER = 1 << 16;
const EMPTY = new Uint8Array(0);

type NodeBuffer = { allocUnsafeSlow(size: number): Uint8Array };
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;

/**
 * A buffer of `size` bytes whose contents the encoder writes before it
 * reads: in Node, memory that is not zeroed first (a large document's
 * buffer would otherwise be written twice), as a plain `Uint8Array`.
 */
function allocate(size: number): Uint8Array {
  if (nodeBuffer === undefined) return new Uint8Array(size);
  return new Uint8Array(nodeBuffer.allocUnsafeSlow(size).buffer, 0, size);
}

/**
 * Encodes values as Surp documents, reusing its output buffer (and, when
 * deduplicating, its tables) from one call to the next.
 *
 * ```ts
 * const encoder = new Encoder({ dedup: true });
 * const bytes = encoder.encode([{ id: 1, status: "active" }, { id: 2, status: "active" }]);
 * ```
 */
export class Encoder {
  private buf: Uint8Array;
  /** The size of the next buffer after a large document took its own: that document's size and an eighth. */
  private handedOver = INITIAL;
  private view: DataView;
  private pos = 0;
  private readonly maxDepth: number;
  private readonly ignoreUndefined: boolean;
  /** The deduplication tables, or `null` for plain documents. */
  private readonly tables: EncoderTables | null;
  /** Whether the document so far holds a reference, and so needs the marker. */
  private refs = false;
  /** The size of the last string from now on: a reference if it holds a slot. */
  private sizeNow = 0;
  /** The payload length of the last string literal written. */
  private literalLen = 0;
  private busy = false;
  private readonly options: EncodeOptions;

  constructor(options: EncodeOptions = {}) {
    this.options = options;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.ignoreUndefined = options.ignoreUndefined ?? false;
    const dedup = options.dedup ?? false;
    this.tables = dedup
      ? new EncoderTables(
          dedup === "shapes" ? 0 : (options.maxStrings ?? DEFAULT_MAX_DEDUP_STRINGS),
          options.maxShapes ?? DEFAULT_MAX_DEDUP_SHAPES,
        )
      : null;
    this.buf = new Uint8Array(INITIAL);
    this.view = new DataView(this.buf.buffer);
  }

  /** The document for `value`, in a new `Uint8Array`. */
  encode(value: unknown): Uint8Array {
    // A `toJSON` or a getter that encodes with this encoder gets its own.
    if (this.busy) return new Encoder(this.options).encode(value);
    this.busy = true;
    try {
      const tables = this.tables;
      this.pos = 0;
      if (this.buf === EMPTY) this.fresh();
      if (tables !== null) {
        tables.reset();
        this.refs = false;
        this.buf[this.pos++] = tag.DEDUP_MARKER;
      }
      this.value(value, 0);
      // The marker stays only if a reference needs it (section 7.3).
      return this.output(tables !== null && !this.refs ? 1 : 0);
    } catch (e) {
      throw fromEngine(e);
    } finally {
      this.busy = false;
      if (this.tables !== null) this.tables.reset();
    }
  }

  /**
   * A session message or dictionary document (spec section 9): `prefix`,
   * then `value` written against the tables as they stand, without the
   * marker. The tables keep what it adds; after an error they are in no
   * defined state, and the caller returns them to their initial state.
   *
   * @internal
   */
  encodePrefixed(prefix: ArrayLike<number>, value: unknown): Uint8Array {
    if (this.busy || this.tables === null) {
      throw new SurpError("Message", "a session or dictionary encoder cannot encode while it encodes");
    }
    this.busy = true;
    try {
      this.pos = 0;
      if (this.buf === EMPTY) this.fresh();
      this.ensure(prefix.length);
      for (let i = 0; i < prefix.length; i++) this.buf[this.pos++] = prefix[i];
      this.value(value, 0);
      return this.output(0);
    } catch (e) {
      throw fromEngine(e);
    } finally {
      this.busy = false;
    }
  }

  /** The deduplication tables (for sessions and dictionaries). @internal */
  get dedupTables(): EncoderTables | null {
    return this.tables;
  }

  /** The document written, from `start` to `pos`. */
  private output(start: number): Uint8Array {
    if (this.pos < HAND_OVER) return this.buf.slice(start, this.pos);
    // A large document keeps the buffer it was written in, which is
    // then the caller's alone: copying it out would cost as much again
    // as writing it. The next call starts a new buffer (see `fresh`).
    // Past the document, the buffer holds memory that was never
    // written (see `allocate`): zeroed, so that nothing leaks.
    this.buf.fill(0, this.pos);
    const out = this.buf.subarray(start, this.pos);
    this.handedOver = this.pos + (this.pos >>> 3) + 1024;
    this.buf = EMPTY;
    return out;
  }

  /** A new buffer, a little larger than the document that took the last one with it. */
  private fresh(): void {
    this.buf = allocate(this.handedOver);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes. */
  private ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    const size = Math.max(this.buf.length * 2, this.pos + n);
    const buf = allocate(size);
    buf.set(this.buf.subarray(0, this.pos));
    this.buf = buf;
    this.view = new DataView(buf.buffer);
  }

  private value(v: unknown, depth: number): void {
    switch (typeof v) {
      case "string":
        if (this.tables === null) this.string(v);
        else this.dedupString(v, this.tables);
        return;
      case "number":
        this.number(v);
        return;
      case "boolean":
        this.ensure(1);
        this.buf[this.pos++] = v ? tag.TRUE : tag.FALSE;
        return;
      case "object":
        if (v === null) break;
        this.object(v, depth);
        return;
      case "undefined":
        break;
      case "bigint":
        this.bigint(v);
        return;
      default:
        throw unsupported(`a ${typeof v}`);
    }
    this.ensure(1);
    this.buf[this.pos++] = tag.NULL;
  }

  private object(v: object, depth: number): void {
    if (Array.isArray(v)) {
      this.array(v, depth);
      return;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      this.record(v as Record<string, unknown>, depth);
      return;
    }
    if (v instanceof Uint8Array) {
      this.bytes(v);
    } else if (v instanceof Map) {
      this.map(v, depth);
    } else if (v instanceof Some) {
      this.some(v, depth);
    } else if (v instanceof Entries) {
      const e = v.entries;
      this.pairs(
        e.map((p) => p[0]),
        e.map((p) => p[1]),
        depth,
      );
    } else if (v instanceof Float) {
      if (v.nanBits !== undefined) this.nan(v.nanBits);
      else this.float(v.value);
    } else if (ArrayBuffer.isView(v)) {
      this.typedArray(v, depth);
    } else if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && v instanceof SharedArrayBuffer)) {
      this.bytes(new Uint8Array(v));
    } else if (v instanceof Set) {
      this.array(Array.from(v), depth);
    } else if (v instanceof Number || v instanceof String || v instanceof Boolean) {
      // A boxed primitive is its primitive, as in JSON.
      this.value(v.valueOf(), depth);
    } else if (typeof (v as { toJSON?: unknown }).toJSON === "function") {
      this.value((v as { toJSON(): unknown }).toJSON(), depth);
    } else {
      // A class instance: its own enumerable properties, as JSON has them.
      this.record(v as Record<string, unknown>, depth);
    }
  }

  /** Typed arrays other than `Uint8Array`, and `DataView`s. */
  private typedArray(v: ArrayBufferView, depth: number): void {
    if (v instanceof Uint8ClampedArray || v instanceof DataView) {
      this.bytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      return;
    }
    const items = v as unknown as ArrayLike<number | bigint>;
    if (v instanceof Float32Array || v instanceof Float64Array) {
      this.open(depth);
      this.header(items.length, tag.FIXARRAY, 15, tag.ARRAY8);
      for (let i = 0; i < items.length; i++) this.float(items[i] as number);
      return;
    }
    this.array(items, depth);
  }

  /** Checks the depth of a nesting token about to be written at `depth`. */
  private open(depth: number): void {
    if (depth >= this.maxDepth) throw depthLimitExceeded(this.maxDepth);
  }

  private array(a: ArrayLike<unknown>, depth: number): void {
    this.open(depth);
    const n = a.length;
    this.header(n, tag.FIXARRAY, 15, tag.ARRAY8);
    for (let i = 0; i < n; i++) {
      // Numbers straight to their writer: arrays of numbers are common,
      // and `value` is one call more.
      const x = a[i];
      if (typeof x === "number") this.number(x);
      else this.value(x, depth + 1);
    }
  }

  /** A plain object (or class instance): a map of its own enumerable properties. */
  private record(o: Record<string, unknown>, depth: number): void {
    this.open(depth);
    let keys = Object.keys(o);
    if (this.ignoreUndefined) keys = keys.filter((k) => o[k] !== undefined);
    if (this.tables !== null) {
      this.shaped(keys, null, o, depth, this.tables);
      return;
    }
    const n = keys.length;
    this.header(n, tag.FIXMAP, 15, tag.MAP8);
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      this.string(k);
      this.value(o[k], depth + 1);
    }
  }

  private map(m: Map<unknown, unknown>, depth: number): void {
    const keys: unknown[] = [];
    const values: unknown[] = [];
    for (const [k, v] of m) {
      if (this.ignoreUndefined && v === undefined) continue;
      keys.push(k);
      values.push(v);
    }
    this.pairs(keys, values, depth);
  }

  /** A map of the pairs `keys[i]`, `values[i]`, in order. */
  private pairs(keys: unknown[], values: unknown[], depth: number): void {
    this.open(depth);
    const n = keys.length;
    const tables = this.tables;
    if (tables !== null) {
      // A key is a string key when it is written as a string (section 7.2).
      const written = keys.map(unwrapSome);
      if (written.every((k) => typeof k === "string")) {
        this.shaped(written as string[], values, null, depth, tables);
        return;
      }
    }
    this.header(n, tag.FIXMAP, 15, tag.MAP8);
    for (let i = 0; i < n; i++) {
      this.value(keys[i], depth + 1);
      this.value(values[i], depth + 1);
    }
  }

  /**
   * `Option::Some` (section 5.3): its content, unless the innermost
   * content is null; then a `some` tag per `Some` of the chain, each a
   * nesting token.
   */
  private some(v: Some, depth: number): void {
    const inner = unwrapSome(v);
    if (inner !== v) {
      this.value(inner, depth);
      return;
    }
    let x: unknown = v;
    while (x instanceof Some) {
      this.open(depth++);
      this.ensure(1);
      this.buf[this.pos++] = tag.SOME;
      x = x.value;
    }
    this.ensure(1);
    this.buf[this.pos++] = tag.NULL;
  }

  /**
   * A map whose keys are all strings, in a deduplicated document: a shape
   * reference if an earlier map registered these keys and the reference is
   * shorter, else the explicit map, which may then register its keys
   * (section 7.2). Values come from `values`, or else from `o`.
   */
  private shaped(
    keys: string[],
    values: unknown[] | null,
    o: Record<string, unknown> | null,
    depth: number,
    tables: EncoderTables,
  ): void {
    const n = keys.length;
    const shapeable = n >= 1 && n <= MAX_SHAPE_KEYS;
    // The shape table holds keys as written: a lone surrogate as U+FFFD.
    // Looked at only when the keys as given are not there.
    let shapeKeys: string[] | null = null;
    if (shapeable && tables.shapes > 0) {
      // The lowest-numbered shape registered before this map's first byte.
      let node = tables.findShape(keys, n);
      if ((node === undefined || node.shape < 0) && !keys.every(isWellFormed)) {
        shapeKeys = keys.map(wellFormed);
        node = tables.findShape(shapeKeys, n);
      }
      if (node !== undefined && node.reference) {
        this.shapeRef(node.shape);
        for (let i = 0; i < n; i++) this.value(values !== null ? values[i] : o![keys[i]], depth + 1);
        return;
      }
    }
    const header = this.header(n, tag.FIXMAP, 15, tag.MAP8);
    // The explicit form as written, and as it would be written from now on.
    let written = header;
    let now = header;
    for (let i = 0; i < n; i++) {
      written += this.dedupString(keys[i], tables);
      now += this.sizeNow;
      this.value(values !== null ? values[i] : o![keys[i]], depth + 1);
    }
    const t = tables.shapes;
    if (shapeable && written > shapeRefSize(t) && t < tables.maxShapes) {
      if (shapeKeys === null) shapeKeys = keys.every(isWellFormed) ? keys : keys.map(wellFormed);
      let node = tables.root;
      for (let i = 0; i < n; i++) node = node.childOrNew(shapeKeys[i]);
      if (node.shape < 0) {
        node.shape = t;
        node.reference = shapeRefSize(t) < now;
      }
      tables.shapes = t + 1;
      if (tables.charging) tables.bytes += shapeWeight(shapeKeys.reduce((sum, k) => sum + utf8Length(k), 0), n);
    }
  }

  private shapeRef(shape: number): void {
    this.refs = true;
    this.ensure(3);
    const buf = this.buf;
    if (shape < 8) {
      buf[this.pos++] = tag.FIXSHAPE + shape;
    } else if (shape < 0x100) {
      buf[this.pos++] = tag.SHAPE_REF;
      buf[this.pos++] = shape;
    } else {
      buf[this.pos++] = tag.SHAPE_REF + 1;
      buf[this.pos++] = shape & 0xff;
      buf[this.pos++] = shape >>> 8;
    }
  }

  /**
   * Writes the header of a string, byte string, array or map of `n`
   * items: inline up to `inlineMax` when `inline` is given, else the
   * smallest length class; returns its size.
   */
  private header(n: number, inline: number, inlineMax: number, class8: number): number {
    this.ensure(9);
    const buf = this.buf;
    if (n <= inlineMax) {
      buf[this.pos++] = inline + n;
      return 1;
    }
    const w = tag.lengthWidth(n);
    buf[this.pos] = class8 + (w === 1 ? 0 : w === 2 ? 1 : w === 4 ? 2 : 3);
    this.uintBytes(n, w, this.pos + 1);
    this.pos += 1 + w;
    return 1 + w;
  }

  /** Writes the safe integer `n >= 0` in `w` little-endian bytes at `p`. */
  private uintBytes(n: number, w: number, p: number): void {
    const buf = this.buf;
    let lo = n >>> 0;
    let hi = (n - lo) / TWO_32;
    for (let i = 0; i < w; i++) {
      if (i < 4) {
        buf[p + i] = lo & 0xff;
        lo >>>= 8;
      } else {
        buf[p + i] = hi & 0xff;
        hi >>>= 8;
      }
    }
  }

  /**
   * Writes a string literal and returns its size; `literalLen` is its
   * payload's. Short ASCII strings take the fast path.
   */
  private string(s: string): number {
    const n = s.length;
    this.ensure(9 + 3 * n);
    const buf = this.buf;
    const start = this.pos;
    if (n < 32) {
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[start + 1 + i] = c;
      }
      if (i === n) {
        buf[start] = tag.FIXSTR + n;
        this.pos = start + 1 + n;
        this.literalLen = n;
        return 1 + n;
      }
    }
    // Room for the header of the shortest encoding (a byte per UTF-16
    // unit: ASCII); moved on if the string came out longer, which text
    // that is mostly ASCII seldom does. (Room for the longest encoding's
    // header, three bytes per unit, moved back every string of 86 to 255
    // ASCII characters.)
    const room = tag.strHeaderSize(n);
    const end = writeUtf8(s, buf, start + room);
    const len = end - start - room;
    const size = tag.strHeaderSize(len);
    if (size > room) buf.copyWithin(start + size, start + room, end);
    if (len < 32) {
      buf[start] = tag.FIXSTR + len;
    } else {
      const w = size - 1;
      buf[start] = tag.STR8 + (w === 1 ? 0 : w === 2 ? 1 : w === 4 ? 2 : 3);
      this.uintBytes(len, w, start + 1);
    }
    this.pos = start + size + len;
    this.literalLen = len;
    return size + len;
  }

  /**
   * Writes a string in a deduplicated document: a reference if it holds a
   * slot, else the literal, which takes the next slot if long enough
   * (section 7.1). Returns the bytes written; `sizeNow` is what the string
   * costs from now on.
   */
  private dedupString(s: string, tables: EncoderTables): number {
    if (tables.maxStrings === 0) {
      // Shapes only: no string is ever looked up.
      return (this.sizeNow = this.string(s));
    }
    const slot = tables.slot(s);
    if (slot !== undefined) return (this.sizeNow = this.stringRef(slot));
    const start = this.pos;
    const size = this.string(s);
    const len = this.literalLen;
    let key = s;
    if (len !== s.length) {
      // Not ASCII: a lone surrogate is written as U+FFFD, so the table
      // holds strings as written, and this one may be there already.
      key = wellFormed(s);
      if (key !== s) {
        const same = tables.slot(key);
        if (same !== undefined) {
          this.pos = start;
          return (this.sizeNow = this.stringRef(same));
        }
      }
    }
    const next = tables.strings;
    if (len >= strRefSize(next) && next < tables.maxStrings) {
      tables.slots.set(key, next);
      tables.strings = next + 1;
      if (tables.charging) tables.bytes += slotWeight(len);
      this.sizeNow = strRefSize(next);
    } else {
      this.sizeNow = size;
    }
    return size;
  }

  private stringRef(slot: number): number {
    this.refs = true;
    this.ensure(4);
    const buf = this.buf;
    const p = this.pos;
    buf[p + 1] = slot & 0xff;
    if (slot < 0x100) {
      buf[p] = tag.STR_REF;
      this.pos = p + 2;
      return 2;
    }
    buf[p + 2] = (slot >>> 8) & 0xff;
    if (slot < 0x10000) {
      buf[p] = tag.STR_REF + 1;
      this.pos = p + 3;
      return 3;
    }
    buf[p] = tag.STR_REF + 2;
    buf[p + 3] = slot >>> 16;
    this.pos = p + 4;
    return 4;
  }

  private bytes(b: Uint8Array): void {
    const n = b.length;
    // Byte strings have no inline form (section 3.4).
    this.header(n, 0, -1, tag.BIN8);
    this.ensure(n);
    this.buf.set(b, this.pos);
    this.pos += n;
  }

  /**
   * A number: an integer when it is a safe integer (other than -0), else a
   * float.
   */
  private number(x: number): void {
    if (Number.isSafeInteger(x) && !(x === 0 && 1 / x < 0)) this.integer(x);
    else this.float(x);
  }

  /** A safe integer, in the smallest form (section 3.1). */
  private integer(x: number): void {
    this.ensure(9);
    if (x >= 0) {
      if (x <= tag.FIXUINT_MAX) this.buf[this.pos++] = x;
      else this.uint(tag.UINT, x);
    } else if (x >= -8) {
      this.buf[this.pos++] = x + 256;
    } else {
      this.uint(tag.NINT, -1 - x);
    }
  }

  /** Writes `base + w - 1` and the safe integer `n` in the fewest bytes `w`. */
  private uint(base: number, n: number): void {
    const buf = this.buf;
    const p = this.pos;
    // Up to 32 bits, byte by byte without a loop: the common widths.
    if (n < 0x100) {
      buf[p] = base;
      buf[p + 1] = n;
      this.pos = p + 2;
      return;
    }
    if (n < 0x10000) {
      buf[p] = base + 1;
      buf[p + 1] = n;
      buf[p + 2] = n >>> 8;
      this.pos = p + 3;
      return;
    }
    if (n < 0x1000000) {
      buf[p] = base + 2;
      buf[p + 1] = n;
      buf[p + 2] = n >>> 8;
      buf[p + 3] = n >>> 16;
      this.pos = p + 4;
      return;
    }
    if (n < TWO_32) {
      buf[p] = base + 3;
      buf[p + 1] = n;
      buf[p + 2] = n >>> 8;
      buf[p + 3] = n >>> 16;
      buf[p + 4] = n >>> 24;
      this.pos = p + 5;
      return;
    }
    const hi = Math.floor(n / TWO_32);
    const w = hi < 0x100 ? 5 : hi < 0x10000 ? 6 : 7;
    this.buf[this.pos] = base + w - 1;
    this.uintBytes(n, w, this.pos + 1);
    this.pos += 1 + w;
  }

  private bigint(v: bigint): void {
    if (v >= MIN_SAFE_BIG && v <= MAX_SAFE_BIG) {
      this.integer(Number(v));
      return;
    }
    const negative = v < 0n;
    const n = negative ? -1n - v : v;
    this.ensure(18);
    if (n <= U64_MAX) {
      // Beyond 2^53 and within 64 bits: 7 or 8 bytes, as the top one is
      // zero or not.
      const p = this.pos;
      this.view.setBigUint64(p + 1, n, true);
      const w = this.buf[p + 8] === 0 ? 7 : 8;
      this.buf[p] = (negative ? tag.NINT : tag.UINT) + w - 1;
      this.pos = p + 1 + w;
      return;
    }
    if (v > U128_MAX || v < I128_MIN) {
      throw new SurpError("IntegerOutOfRange", `the integer ${v} is outside i128::MIN to u128::MAX`);
    }
    let w = 8;
    while (n >> BigInt(8 * w) > 0n) w++;
    const buf = this.buf;
    buf[this.pos++] = negative ? tag.WIDE_NINT : tag.WIDE_UINT;
    buf[this.pos++] = w;
    for (let i = 0, m = n; i < w; i++, m >>= 8n) buf[this.pos++] = Number(m & 0xffn);
  }

  /**
   * A float in the shortest binary format that holds it exactly (section
   * 3.2). `NaN` is the default quiet NaN; a `Float` carries any other.
   */
  private float(x: number): void {
    this.ensure(9);
    const buf = this.buf;
    const p = this.pos;
    if (x !== x) {
      buf[p] = tag.F16;
      buf[p + 1] = 0x00;
      buf[p + 2] = 0x7e;
      this.pos = p + 3;
    } else if (Math.fround(x) !== x) {
      buf[p] = tag.F64;
      this.view.setFloat64(p + 1, x, true);
      this.pos = p + 9;
    } else {
      const b = f32Bits(x);
      const h = f16BitsOfF32(b);
      if (h >= 0) {
        buf[p] = tag.F16;
        buf[p + 1] = h & 0xff;
        buf[p + 2] = h >>> 8;
        this.pos = p + 3;
      } else {
        buf[p] = tag.F32;
        this.view.setUint32(p + 1, b, true);
        this.pos = p + 5;
      }
    }
  }

  /** A NaN with the binary64 bits `bits`, its payload kept. */
  private nan(bits: bigint): void {
    this.ensure(9);
    const [width, narrow] = narrowNaN(bits);
    const p = this.pos;
    if (width === 2) {
      this.buf[p] = tag.F16;
      this.view.setUint16(p + 1, narrow, true);
    } else if (width === 4) {
      this.buf[p] = tag.F32;
      this.view.setUint32(p + 1, narrow, true);
    } else {
      this.buf[p] = tag.F64;
      this.view.setBigUint64(p + 1, bits, true);
    }
    this.pos = p + 1 + width;
  }
}
