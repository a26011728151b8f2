/**
 * The decoder: Surp documents, plain or deduplicated, to JavaScript values.
 *
 * One `read` loop walks the input with a position; every length is checked
 * against the limits and the remaining input before anything is allocated
 * for it (spec section 6). In a deduplicated document the decoder fills
 * its string and shape tables as it reads (section 7): they only append
 * and index, and belong to the document being read.
 *
 * @module
 */

import { MAX_SHAPE_KEYS, shapeRefSize, strRefSize } from "./dedup.js";
import {
  type LengthOf,
  SurpError,
  allocationLimitExceeded,
  depthLimitExceeded,
  fromEngine,
  lengthExceedsInput,
  lengthLimitExceeded,
  unexpectedEof,
  unknownRef,
} from "./errors.js";
import { f16NaNBits, f16ToNumber, f32NaNBits, Float } from "./float.js";
import {
  DEFAULT_EXPANSION_BASE,
  DEFAULT_EXPANSION_RATIO,
  DEFAULT_MAX_ALLOC,
  DEFAULT_MAX_DEDUP_SHAPES,
  DEFAULT_MAX_DEDUP_STRINGS,
  DEFAULT_MAX_DEPTH,
  type DecodeOptions,
} from "./options.js";
import * as tag from "./tag.js";
import { type KeyBytes, MAX_RECORD_NODES, RecordNode, type ValueReader, recordFn, shapeFn } from "./records.js";
import { readUtf8 } from "./utf8.js";
import { Entries } from "./value.js";

const EMPTY = new Uint8Array(0);
const EMPTY_VIEW = new DataView(EMPTY.buffer);
const TWO_32 = 2 ** 32;

/** Keys up to this many bytes go through the key cache. */
const CACHED_KEY_MAX = 16;
const KEY_CACHE_SIZE = 4096;

/** Input a decoder accepts: bytes, or a buffer of them. */
export type Input = Uint8Array | ArrayBufferLike | ArrayBufferView;

/** @internal */
export function bytesOf(input: Input): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && input instanceof SharedArrayBuffer)) {
    return new Uint8Array(input);
  }
  throw new SurpError("Message", "the input is not a Uint8Array, an ArrayBuffer or a view of one");
}

/**
 * Sets `o[key]` as an own property, even for a key that `Object.prototype`
 * holds: `__proto__`, whose assignment sets the prototype, and keys such as
 * `toString`, which an assignment cannot set once `Object.prototype` is
 * frozen.
 */
function setProperty(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key in Object.prototype) {
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    o[key] = value;
  }
}

/**
 * Deduplication tables that outlive a document (spec section 9): a
 * session's or a dictionary's. A reference to slot `i` is charged
 * `slotLens[i]`, one to shape `t` `shapeCharges[t]` (section 7.4).
 *
 * @internal
 */
export interface DecoderTables {
  slots: string[];
  slotLens: number[];
  shapeKeys: string[][];
  shapeCharges: number[];
}

/**
 * Decodes Surp documents. It keeps its key cache and scratch space between
 * calls; each document's deduplication tables are its own.
 *
 * ```ts
 * const decoder = new Decoder({ maxDepth: 32 });
 * const value = decoder.decode(bytes);
 * ```
 */
export class Decoder {
  private src: Uint8Array = EMPTY;
  private view: DataView = EMPTY_VIEW;
  private pos = 0;
  private end = 0;

  private readonly maxDepth: number;
  private readonly maxLen: number;
  private readonly maxAlloc: number;
  /** Lengths up to this pass `maxLen` and `maxAlloc` without a second look. */
  private readonly lenBound: number;
  private readonly expansionRatio: number;
  private readonly expansionBase: number;
  private readonly maxDedupStrings: number;
  private readonly maxDedupShapes: number;
  /** `mapsAs`: 0 auto, 1 map, 2 entries. */
  private readonly mapsAs: number;
  /** Whether the last map key read started with a string tag. */
  private stringTag = false;
  private readonly wrapFloats: boolean;
  private readonly copyBytes: boolean;

  // The current document's deduplication state (section 7).
  private dedup = false;
  private docStart = 0;
  /** The string of each slot, validated once when the slot was filled. */
  private slots: string[] = [];
  /** The UTF-8 length of each slot's string: what a reference to it is charged. */
  private slotLens: number[] = [];
  private shapeKeys: string[][] = [];
  /** The record node of each shape referenced so far. */
  private shapeNodes: (RecordNode | null | undefined)[] = [];
  /** What a reference to each shape is charged: its keys' lengths plus 2 each. */
  private shapeCharges: number[] = [];
  /** What the references so far expand to. */
  private expanded = 0;
  /** The expansion allowed when last computed; it only grows within a document. */
  private allowed = 0;
  /** The UTF-8 length of the last string read. */
  private strLen = 0;

  /** The string keys of the maps being read, innermost last. */
  private keyStack: string[] = [];
  /** The values of the keys on `keyStack`, while their object is read. */
  private valueStack: unknown[] = [];
  /** Key sequences of the plain objects read, and their record functions. */
  private records = new RecordNode();
  private recordNodes = 0;
  private keyTop = 0;

  /** Short keys by their bytes, so that a repeated key is one string. */
  private readonly keyCache: (string | undefined)[] = new Array(KEY_CACHE_SIZE);
  private readonly keyCacheBytes = new Uint8Array(KEY_CACHE_SIZE * CACHED_KEY_MAX);
  private readonly keyCacheLens = new Uint8Array(KEY_CACHE_SIZE);
  /**
   * At each depth, the record node of the first key of the last map whose
   * first key the trie knew when it was not predicted (a sparse array,
   * bounded by `maxDepth`): it predicts the next map's first key there.
   */
  private readonly firstNodes: (RecordNode | undefined)[] = [];

  constructor(options: DecodeOptions = {}) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxLen = options.maxLen ?? Infinity;
    this.maxAlloc = options.maxAlloc ?? DEFAULT_MAX_ALLOC;
    this.lenBound = Math.min(this.maxLen, this.maxAlloc);
    this.expansionRatio = options.maxExpansion?.ratio ?? DEFAULT_EXPANSION_RATIO;
    this.expansionBase = options.maxExpansion?.base ?? DEFAULT_EXPANSION_BASE;
    this.maxDedupStrings = options.maxDedupStrings ?? DEFAULT_MAX_DEDUP_STRINGS;
    this.maxDedupShapes = options.maxDedupShapes ?? DEFAULT_MAX_DEDUP_SHAPES;
    const mapsAs = options.mapsAs ?? "auto";
    this.mapsAs = mapsAs === "auto" ? 0 : mapsAs === "map" ? 1 : 2;
    this.wrapFloats = options.wrapFloats ?? false;
    this.copyBytes = options.copyBytes ?? false;
  }

  /** Decodes one document, which must fill `input` exactly. */
  decode(input: Input): unknown {
    this.setInput(bytesOf(input), 0);
    return this.whole(false);
  }

  /**
   * The value that must end the input set by `setInput`: a document's
   * (its marker first), or with `tablesSet` a value read against the
   * tables already in place (`decodeWith`). Lets go of the input after.
   */
  private whole(tablesSet: boolean): unknown {
    try {
      const value = tablesSet ? this.read(0) : this.document();
      if (this.pos !== this.end) {
        throw new SurpError("TrailingBytes", "trailing bytes after the value", this.pos);
      }
      return value;
    } catch (e) {
      throw fromEngine(e, this.pos);
    } finally {
      // For `decodeWith`, this also lets go of the tables, which stay the caller's.
      this.release();
    }
  }

  /**
   * Decodes the documents of `input`, one after another, each with its
   * own tables (section 7.4). Error offsets count from the start of
   * `input`.
   */
  *decodeMultiple(input: Input): Generator<unknown, void, undefined> {
    const src = bytesOf(input);
    let pos = 0;
    while (pos < src.length) {
      // Set again for each document: the caller may use this decoder
      // between two of them.
      this.setInput(src, pos);
      let value: unknown;
      try {
        value = this.document();
        pos = this.pos;
      } catch (e) {
        throw fromEngine(e, this.pos);
      } finally {
        this.release();
      }
      yield value;
    }
  }

  /**
   * Reads the value at `at` of a session message or dictionary document
   * (spec section 9), which must end the input, against `tables`: read as
   * in a deduplicated document, except that the tables do not start empty
   * and keep what the value adds. Error offsets count from the input's
   * first byte, and so does the expansion limit (section 9.3).
   *
   * @internal
   */
  decodeWith(src: Uint8Array, at: number, tables: DecoderTables): unknown {
    this.setInput(src, at);
    this.dedup = true;
    this.docStart = 0;
    this.slots = tables.slots;
    this.slotLens = tables.slotLens;
    this.shapeKeys = tables.shapeKeys;
    this.shapeCharges = tables.shapeCharges;
    this.shapeNodes = [];
    this.expanded = 0;
    this.allowed = 0;
    return this.whole(true);
  }

  private setInput(src: Uint8Array, pos: number): void {
    this.src = src;
    this.view = new DataView(src.buffer, src.byteOffset, src.byteLength);
    this.pos = pos;
    this.end = src.length;
  }

  /** Drops what refers to the input and the document's tables. */
  private release(): void {
    this.src = EMPTY;
    this.view = EMPTY_VIEW;
    this.keyTop = 0;
    // The staged values would keep the last document alive.
    if (this.valueStack.length > 1024) this.valueStack = [];
    else this.valueStack.fill(undefined);
    if (this.dedup) {
      this.dedup = false;
      this.newTables();
    }
  }

  /** Empty deduplication tables, for a document or to let the last one's go. */
  private newTables(): void {
    this.slots = [];
    this.slotLens = [];
    this.shapeKeys = [];
    this.shapeCharges = [];
    this.shapeNodes = [];
    this.expanded = 0;
    this.allowed = 0;
  }

  /** Reads the document at `pos`: its marker, if any, then its value. */
  private document(): unknown {
    const start = this.pos;
    this.docStart = start;
    if (start < this.end && this.src[start] === tag.DEDUP_MARKER) {
      this.dedup = true;
      this.newTables();
      this.pos = start + 1;
    } else {
      this.dedup = false;
    }
    return this.read(0);
  }

  /** Reads one value at `depth`. */
  private read(depth: number): unknown {
    const start = this.pos;
    if (start >= this.end) throw unexpectedEof(start);
    const t = this.src[start];
    this.pos = start + 1;
    if (t < tag.FIXSTR) return t;
    if (t < tag.FIXARRAY) return this.string(t & 0x1f, start);
    if (t < tag.FIXMAP) return this.array(t & 0x0f, start, depth);
    if (t < tag.FIXSHAPE) return this.map(t & 0x0f, start, depth);
    if (t >= tag.FIXNINT) return t - 256;
    // binary64 here rather than through `other`'s switch: whole documents
    // are made of it (coordinates, measurements), and without that call
    // canada decodes in 1.8-2.0 ms, not 2.0-2.5. Reading binary16,
    // binary32 and short integers here as well was slower on canada (2.1
    // against 1.9 ms) and no faster on numeric_heavy.
    if (t === tag.F64) return this.f64();
    return this.other(t, start, depth);
  }

  /**
   * The tags from `0xc0` to `0xf7`, one case each (the numbers are those
   * of tag.ts), so that the engine dispatches through a jump table rather
   * than a chain of comparisons.
   */
  private other(t: number, start: number, depth: number): unknown {
    switch (t) {
      case 0xc0: // fixshape
      case 0xc1:
      case 0xc2:
      case 0xc3:
      case 0xc4:
      case 0xc5:
      case 0xc6:
      case 0xc7:
        return this.shapeRef(t - tag.FIXSHAPE, start, depth);
      case 0xc8: // str8
        return this.string(this.u8(), start);
      case 0xc9:
      case 0xca:
      case 0xcb:
        return this.string(this.length(t - tag.STR8), start);
      case 0xcc: // bin8
      case 0xcd:
      case 0xce:
      case 0xcf:
        return this.bytes(this.length(t - tag.BIN8), start);
      case 0xd0: // array8
      case 0xd1:
      case 0xd2:
      case 0xd3:
        return this.array(this.length(t - tag.ARRAY8), start, depth);
      case 0xd4: // map8
      case 0xd5:
      case 0xd6:
      case 0xd7:
        return this.map(this.length(t - tag.MAP8), start, depth);
      case 0xd8: // uint, 1 to 8 bytes
        return this.u8();
      case 0xd9:
        return this.u16();
      case 0xda:
        return this.u24();
      case 0xdb:
        return this.u32();
      case 0xdc:
      case 0xdd:
      case 0xde:
      case 0xdf:
        return this.uint(t - tag.UINT + 1);
      case 0xe0: // nint, 1 to 8 bytes
        return -1 - this.u8();
      case 0xe1:
        return -1 - this.u16();
      case 0xe2:
        return -1 - this.u24();
      case 0xe3:
        return -1 - this.u32();
      case 0xe4:
      case 0xe5:
      case 0xe6:
      case 0xe7:
        return this.nint(t - tag.NINT + 1);
      case 0xe8:
        return null;
      case 0xe9:
        return false;
      case 0xea:
        return true;
      case 0xeb: // some
        // A dynamic decoder has no `Option`: the content (section 5.3).
        this.enter(depth, start);
        return this.read(depth + 1);
      case 0xec:
        return this.f16();
      case 0xed:
        return this.f32();
      case 0xee:
        return this.f64();
      case 0xef: // wide uint, wide nint
      case 0xf0:
        return this.wide(t, start);
      case 0xf1:
        throw new SurpError("ReservedTag", `reserved tag byte 0x${t.toString(16)}`, start);
      case 0xf2:
        throw new SurpError(
          "MisplacedDedupMarker",
          "deduplication marker is only allowed at the start of a document",
          start,
        );
      case 0xf3: // string reference, 1 to 3 bytes
        return this.stringRef(this.u8(), start);
      case 0xf4:
        return this.stringRef(this.u16(), start);
      case 0xf5:
        return this.stringRef(this.le(3), start);
      case 0xf6: // shape reference, 1 or 2 bytes
        return this.shapeRef(this.u8(), start, depth);
      default: // 0xf7
        return this.shapeRef(this.u16(), start, depth);
    }
  }

  /** Checks that a nesting token at `depth` is within the limit (section 4). */
  private enter(depth: number, start: number): void {
    if (depth >= this.maxDepth) throw depthLimitExceeded(this.maxDepth, start);
  }

  /** Reads an unsigned `w`-byte little-endian number (w <= 6, or a length). */
  private le(w: number): number {
    const p = this.pos;
    if (p + w > this.end) throw unexpectedEof(this.end);
    const src = this.src;
    let n = 0;
    for (let i = w - 1; i >= 0; i--) n = n * 256 + src[p + i];
    this.pos = p + w;
    return n;
  }

  /** Reads a byte. */
  private u8(): number {
    const p = this.pos;
    if (p >= this.end) throw unexpectedEof(this.end);
    this.pos = p + 1;
    return this.src[p];
  }

  /** Reads a 2-byte little-endian number. */
  private u16(): number {
    const p = this.pos;
    if (p + 2 > this.end) throw unexpectedEof(this.end);
    const src = this.src;
    this.pos = p + 2;
    return src[p] | (src[p + 1] << 8);
  }

  /** Reads a 3-byte little-endian number. */
  private u24(): number {
    const p = this.pos;
    if (p + 3 > this.end) throw unexpectedEof(this.end);
    const src = this.src;
    this.pos = p + 3;
    return src[p] | (src[p + 1] << 8) | (src[p + 2] << 16);
  }

  /** Reads a 4-byte little-endian number. */
  private u32(): number {
    const p = this.pos;
    if (p + 4 > this.end) throw unexpectedEof(this.end);
    const src = this.src;
    this.pos = p + 4;
    return (src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24)) >>> 0;
  }

  /**
   * The length after a length-class tag, in `1 << c` bytes. An 8-byte
   * length beyond 2^53 comes out rounded, still beyond any input.
   */
  private length(c: number): number {
    return c === 0 ? this.u8() : c === 1 ? this.u16() : c === 2 ? this.u32() : this.le(8);
  }

  /** Checks a declared count of items of at least `per` bytes each (section 6). */
  private count(of: LengthOf, n: number, per: number, start: number): void {
    if (n > this.maxLen) throw lengthLimitExceeded(of, n, this.maxLen, start);
    if (n * per > this.end - this.pos) throw lengthExceedsInput(of, n, start);
  }

  /** Checks a declared string or byte string length; returns where the payload starts. */
  private literal(of: LengthOf, len: number, start: number): number {
    const p = this.pos;
    if (len > this.lenBound) {
      if (len > this.maxLen) throw lengthLimitExceeded(of, len, this.maxLen, start);
      // No decoder holds more than `maxAlloc`; a shorter input is a truncation.
      if (this.end - p > this.maxAlloc) throw allocationLimitExceeded(this.maxAlloc, start);
    }
    if (len > this.end - p) throw lengthExceedsInput(of, len, start);
    this.pos = p + len;
    return p;
  }

  private string(len: number, start: number): string {
    const p = this.literal("string", len, start);
    const s = readUtf8(this.src, p, p + len);
    this.strLen = len;
    if (this.dedup) this.fillSlot(s, len);
    return s;
  }

  /** Gives a string literal of a deduplicated document the next slot if it is eligible (section 7.1). */
  private fillSlot(s: string, len: number): void {
    const next = this.slots.length;
    if (len >= strRefSize(next) && next < this.maxDedupStrings) {
      this.slots.push(s);
      this.slotLens.push(len);
    }
  }

  private stringRef(index: number, start: number): string {
    if (!this.dedup) throw refWithoutMarker(start);
    if (index >= this.slots.length || index >= this.maxDedupStrings) {
      throw unknownRef("string slot", index, this.slots.length, this.maxDedupStrings, start);
    }
    const len = this.slotLens[index];
    this.charge(len, start);
    this.strLen = len;
    return this.slots[index];
  }

  /**
   * Charges `amount` bytes of expansion at the reference at `start`
   * (section 7.4): the references so far may stand for at most
   * `ratio * n + base` bytes, `n` the bytes of the document read so far,
   * and never more than `maxAlloc`.
   */
  private charge(amount: number, start: number): void {
    const expanded = this.expanded + amount;
    if (expanded > this.allowed) {
      // The allowance grows with the input read: computed again only when
      // a charge passes it, which gives the same answers.
      const read = this.pos - this.docStart;
      this.allowed = Math.min(read * this.expansionRatio + this.expansionBase, this.maxAlloc);
      if (expanded > this.allowed) throw allocationLimitExceeded(this.allowed, start);
    }
    this.expanded = expanded;
  }

  /** A byte string: a view of the input, or a copy with `copyBytes`. */
  private bytes(len: number, start: number): Uint8Array {
    const p = this.literal("byte string", len, start);
    return this.copyBytes ? this.src.slice(p, p + len) : this.src.subarray(p, p + len);
  }

  private array(n: number, start: number, depth: number): unknown[] {
    this.count("array", n, 1, start);
    this.enter(depth, start);
    const d = depth + 1;
    // Short arrays by `new Array(k)` and stores, not by literals such as
    // `[this.read(d), this.read(d)]`: with the literal, V8 at times
    // decided in warm-up to pretenure its allocation site, and from then
    // on canada (about 55,000 pairs) decoded in 3.4-4.2 ms instead of
    // 2.0-2.4 (4 of 12 processes); made this way, 0 of 24.
    switch (n) {
      case 0:
        return [];
      case 1: {
        const a = new Array(1);
        a[0] = this.read(d);
        return a;
      }
      case 2: {
        const a = new Array(2);
        a[0] = this.read(d);
        a[1] = this.read(d);
        return a;
      }
      case 3: {
        const a = new Array(3);
        a[0] = this.read(d);
        a[1] = this.read(d);
        a[2] = this.read(d);
        return a;
      }
      case 4: {
        const a = new Array(4);
        a[0] = this.read(d);
        a[1] = this.read(d);
        a[2] = this.read(d);
        a[3] = this.read(d);
        return a;
      }
    }
    // Longer ones by `new Array(n)` too, not by pushes onto `[]`: pushes
    // grow the array a step at a time, and in a process that held other
    // codecs' values V8 often pretenured the `[]` site, so that canada's
    // rings were made in old space and kept their young pairs alive through
    // scavenges. `n` is at most the bytes left (count() checked it).
    const first = this.src[this.pos];
    if (first >= tag.F16 && first <= tag.F64 && !this.wrapFloats) return this.floats(n, d);
    const a = new Array(n);
    for (let i = 0; i < n; i++) a[i] = this.read(d);
    return a;
  }

  /**
   * An array whose first item is a float (samples, vectors, series): each
   * float read here by its own method, not through `read`'s dispatch, and
   * stored from an allocation site of its own, whose arrays V8 soon makes
   * with unboxed doubles, so no float is a heap object of its own. Any
   * other item is read by `read` (which leaves the array an ordinary one).
   * Only without `wrapFloats`, so the float methods return numbers.
   */
  private floats(n: number, d: number): unknown[] {
    const a = new Array(n);
    const src = this.src;
    for (let i = 0; i < n; i++) {
      const p = this.pos;
      const t = src[p];
      if (t === tag.F64) {
        this.pos = p + 1;
        a[i] = this.f64();
      } else if (t === tag.F32) {
        this.pos = p + 1;
        a[i] = this.f32();
      } else if (t === tag.F16) {
        this.pos = p + 1;
        a[i] = this.f16();
      } else {
        a[i] = this.read(d);
      }
    }
    return a;
  }

  /**
   * An explicit map: a plain object while its keys are strings, a `Map`
   * from the first other key on (or as `mapsAs` says). In a deduplicated
   * document it registers its keys as a shape when it ends (section 7.2).
   */
  private map(n: number, start: number, depth: number): unknown {
    this.count("map", n, 2, start);
    this.enter(depth, start);
    const base = this.keyTop;
    const keys = this.keyStack;
    // An object's keys and values are staged on the stacks until the map
    // ends (or a key that is no string makes it a `Map`).
    let staged = this.mapsAs === 0;
    let m: Map<unknown, unknown> | null = this.mapsAs === 1 ? new Map() : null;
    const e: [unknown, unknown][] | null = this.mapsAs === 2 ? new Array(n) : null;
    // Whether every key starts with a string tag, and the bytes and
    // expansion charge of the keys, for the shape.
    let stringKeys = true;
    let keyBytes = this.pos - start;
    let charge = 0;
    // The key sequences of the objects read so far predict the keys of
    // this one: a key that is the predicted one takes one comparison, no
    // lookup. The first key is predicted by the last map read at this
    // depth (siblings in an array), each next one by the key that followed
    // the keys so far in earlier objects. (In a deduplicated document keys
    // also fill slots, so they take the general path.)
    const predict = staged && !this.dedup;
    let node: RecordNode | undefined = predict ? this.records : undefined;
    for (let i = 0; i < n; i++) {
      const k = this.pos;
      const likely = node === undefined ? undefined : i === 0 ? this.firstNodes[depth] : node.likelyNode;
      const bytes = likely === undefined ? null : likely.keyBytes();
      let key: unknown;
      if (bytes !== null && this.isNextKey(bytes)) {
        key = likely!.key;
        node = likely;
      } else {
        key = this.mapKey(depth);
        // On a miss the trie may still know the key: a record type with
        // an optional field, or another type at this depth. Keys that are
        // data (identifiers) end the predictions at the first that it does
        // not know.
        if (node !== undefined) {
          node = typeof key === "string" ? node.child(key) : undefined;
          if (i === 0 && node !== undefined) this.firstNodes[depth] = node;
        }
      }
      if (this.stringTag) {
        keyBytes += this.pos - k;
        charge += this.strLen + 2;
      } else {
        stringKeys = false;
      }
      // The keys in order, duplicates included: the object's and the shape's.
      const onStack = typeof key === "string" && (staged || stringKeys);
      if (onStack) keys[this.keyTop++] = key as string;
      const value = this.read(depth + 1);
      if (staged) {
        if (onStack) {
          this.valueStack[this.keyTop - 1] = value;
          continue;
        }
        m = this.stagedMap(base);
        staged = false;
      }
      if (m !== null) m.set(key, value);
      else e![i] = [key, value];
    }
    if (this.dedup && stringKeys && n >= 1 && n <= MAX_SHAPE_KEYS) {
      const t = this.shapeKeys.length;
      if (keyBytes > shapeRefSize(t) && t < this.maxDedupShapes) {
        this.shapeKeys.push(keys.slice(base, this.keyTop));
        this.shapeCharges.push(charge);
      }
    }
    // After keys that the trie knows, `node` is their record node.
    const value = staged ? this.record(base, node) : m !== null ? m : new Entries(e!);
    this.keyTop = base;
    return value;
  }

  /**
   * The object of the keys and values staged from `base` on: built by its
   * key sequence's function if it has one (records.ts), else property by
   * property; its second use gives the sequence a function.
   */
  private record(base: number, known: RecordNode | undefined): Record<string, unknown> {
    const keys = this.keyStack;
    const values = this.valueStack;
    const top = this.keyTop;
    const node = known ?? this.recordNode(keys, base, top);
    if (node !== null && node.fn !== null) return node.fn(values, base);
    const o: Record<string, unknown> = {};
    for (let i = base; i < top; i++) setProperty(o, keys[i], values[i]);
    if (node !== null && ++node.uses === 2) node.fn = recordFn(keys.slice(base, top));
    return o;
  }

  /**
   * The record node of the key sequence `keys[from..to)`, made if missing
   * while the trie has room; null for a sequence too long to be a shape or
   * when the trie is full.
   */
  private recordNode(keys: readonly string[], from: number, to: number): RecordNode | null {
    let node: RecordNode = this.records;
    for (let i = from; i < to; i++) {
      const next = node.child(keys[i]);
      if (next !== undefined) {
        node = next;
        continue;
      }
      if (to - from > MAX_SHAPE_KEYS || this.recordNodes >= MAX_RECORD_NODES) return null;
      this.recordNodes++;
      node = node.childOrNew(keys[i]);
    }
    return node;
  }

  /** The keys and values staged from `base` on, as a `Map`. */
  private stagedMap(base: number): Map<unknown, unknown> {
    const m = new Map<unknown, unknown>();
    for (let i = base; i < this.keyTop; i++) m.set(this.keyStack[i], this.valueStack[i]);
    return m;
  }

  /**
   * Reads a map key; `stringTag` tells whether it starts with a string tag
   * (fixstr, str or string reference), what makes a key a string key for
   * shapes. A short fixstr goes through the key cache.
   */
  private mapKey(depth: number): unknown {
    const k = this.pos;
    if (k >= this.end) throw unexpectedEof(k);
    const t = this.src[k];
    if (t >= tag.FIXSTR && t < tag.FIXARRAY) {
      this.stringTag = true;
      this.pos = k + 1;
      return this.key(t & 0x1f, k);
    }
    this.stringTag = (t >= tag.STR8 && t < tag.BIN8) || (t >= tag.STR_REF && t < tag.SHAPE_REF);
    return this.read(depth + 1);
  }

  /**
   * Whether the next map key is the fixstr `key`, compared four bytes at a
   * time; if so it is read.
   */
  private isNextKey(key: KeyBytes): boolean {
    const p = this.pos;
    const len = key.len;
    const src = this.src;
    if (p + len >= this.end || src[p] !== tag.FIXSTR + len) return false;
    const q = p + 1;
    if (len < 4) {
      let x = 0;
      for (let j = len - 1; j >= 0; j--) x = (x << 8) | src[q + j];
      if (x !== key.small) return false;
    } else {
      const view = this.view;
      const words = key.words;
      const last = words.length - 1;
      for (let j = 0; j < last; j++) if (view.getInt32(q + 4 * j, true) !== words[j]) return false;
      if (view.getInt32(q + len - 4, true) !== words[last]) return false;
    }
    this.pos = q + len;
    this.strLen = len;
    this.stringTag = true;
    return true;
  }

  /**
   * A fixstr map key, whose tag was read: through the key cache when
   * short, so that repeated keys are one string.
   */
  private key(len: number, start: number): string {
    if (len > CACHED_KEY_MAX || this.dedup || len > this.lenBound) return this.string(len, start);
    const p = this.pos;
    const end = p + len;
    if (end > this.end) throw lengthExceedsInput("string", len, start);
    const src = this.src;
    let h = len;
    for (let i = p; i < end; i++) h = (Math.imul(h, 31) + src[i]) | 0;
    const slot = (h ^ (h >>> 12)) & (KEY_CACHE_SIZE - 1);
    const cached = this.keyCache[slot];
    this.pos = end;
    this.strLen = len;
    if (cached !== undefined && this.keyCacheLens[slot] === len) {
      const at = slot * CACHED_KEY_MAX;
      let i = 0;
      while (i < len && this.keyCacheBytes[at + i] === src[p + i]) i++;
      if (i === len) return cached;
    }
    const s = readUtf8(src, p, end);
    this.keyCache[slot] = s;
    this.keyCacheLens[slot] = len;
    const bytes = this.keyCacheBytes;
    const at = slot * CACHED_KEY_MAX;
    for (let i = 0; i < len; i++) bytes[at + i] = src[p + i];
    return s;
  }

  /** A shape reference: a map whose keys are shape `index`'s (section 7.2). */
  private shapeRef(index: number, start: number, depth: number): unknown {
    if (!this.dedup) throw refWithoutMarker(start);
    if (index >= this.shapeKeys.length || index >= this.maxDedupShapes) {
      throw unknownRef("shape", index, this.shapeKeys.length, this.maxDedupShapes, start);
    }
    const keys = this.shapeKeys[index];
    const n = keys.length;
    if (n > this.maxLen) throw lengthLimitExceeded("map", n, this.maxLen, start);
    this.charge(this.shapeCharges[index], start);
    this.enter(depth, start);
    if (this.mapsAs === 1) {
      const m = new Map<unknown, unknown>();
      for (let i = 0; i < n; i++) m.set(keys[i], this.read(depth + 1));
      return m;
    }
    if (this.mapsAs === 2) {
      const e: [unknown, unknown][] = new Array(n);
      for (let i = 0; i < n; i++) e[i] = [keys[i], this.read(depth + 1)];
      return new Entries(e);
    }
    // The shape's record node, found once per document.
    let node = this.shapeNodes[index];
    if (node === undefined) node = this.shapeNodes[index] = this.recordNode(keys, 0, n);
    if (node !== null) {
      let fn = node.shapeFn;
      if (fn === undefined) fn = node.shapeFn = shapeFn(keys);
      // `read` is private to TypeScript only; the made function calls it.
      if (fn !== null) return fn(this as unknown as ValueReader, depth + 1);
    }
    const o: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) setProperty(o, keys[i], this.read(depth + 1));
    return o;
  }

  /** An unsigned integer of `w` bytes: a number when safe, else a bigint. */
  private uint(w: number): number | bigint {
    if (w <= 6) return this.le(w);
    const p = this.pos;
    if (p + w > this.end) throw unexpectedEof(this.end);
    const view = this.view;
    const lo = view.getUint32(p, true);
    const hi = w === 8 ? view.getUint32(p + 4, true) : view.getUint16(p + 4, true) + this.src[p + 6] * 0x10000;
    this.pos = p + w;
    if (hi < 0x200000) return hi * TWO_32 + lo;
    // One BigInt made by the engine rather than three by shifts and ors.
    return w === 8 ? view.getBigUint64(p, true) : (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** A negative integer `-1 - n`, `n` in `w` bytes. */
  private nint(w: number): number | bigint {
    const n = this.uint(w);
    if (typeof n === "number") {
      // -1 - n is safe up to n = 2^53 - 2.
      return n < Number.MAX_SAFE_INTEGER ? -1 - n : -1n - BigInt(n);
    }
    return -1n - n;
  }

  /** A wide integer (section 3.1): always beyond 64 bits unless written non-minimally. */
  private wide(t: number, start: number): number | bigint {
    const w = this.le(1);
    if (w < tag.WIDE_MIN || w > tag.WIDE_MAX) {
      throw new SurpError(
        "InvalidWideInteger",
        `wide integer with invalid length ${w} (expected 9 to 16 bytes)`,
        start,
      );
    }
    const p = this.pos;
    if (p + w > this.end) throw unexpectedEof(this.end);
    let n = 0n;
    for (let i = w - 1; i >= 0; i--) n = (n << 8n) | BigInt(this.src[p + i]);
    this.pos = p + w;
    let v: bigint;
    if (t === tag.WIDE_UINT) {
      v = n;
    } else {
      // The reference decoder stops at i128::MIN; so does this one.
      if (n >= 1n << 127n) {
        throw new SurpError("IntegerOutOfRange", "negative integer below the 128-bit range", start);
      }
      v = -1n - n;
    }
    const small = Number(v);
    return Number.isSafeInteger(small) ? small : v;
  }

  private f16(): number | Float {
    const p = this.pos;
    if (p + 2 > this.end) throw unexpectedEof(this.end);
    const h = this.src[p] | (this.src[p + 1] << 8);
    this.pos = p + 2;
    const x = f16ToNumber(h);
    if (!this.wrapFloats) return x;
    return x === x ? new Float(x) : Float.fromBits(f16NaNBits(h));
  }

  private f32(): number | Float {
    const p = this.pos;
    if (p + 4 > this.end) throw unexpectedEof(this.end);
    const x = this.view.getFloat32(p, true);
    this.pos = p + 4;
    if (!this.wrapFloats) return x;
    return x === x ? new Float(x) : Float.fromBits(f32NaNBits(this.view.getUint32(p, true)));
  }

  private f64(): number | Float {
    const p = this.pos;
    if (p + 8 > this.end) throw unexpectedEof(this.end);
    const x = this.view.getFloat64(p, true);
    this.pos = p + 8;
    if (!this.wrapFloats) return x;
    return x === x ? new Float(x) : Float.fromBits(this.view.getBigUint64(p, true));
  }
}

function refWithoutMarker(offset: number): SurpError {
  return new SurpError(
    "RefWithoutMarker",
    "deduplication reference in a document without the deduplication marker",
    offset,
  );
}
