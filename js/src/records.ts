/**
 * Records: plain objects built by a function made for their keys, a
 * constructor that assigns them in order and whose prototype is
 * `Object.prototype`, or one object literal (see `make`). The engine
 * allocates the object with room for all its properties and gives every
 * such object one hidden class, instead of adding properties one by one
 * through a store that sees every key of the document.
 *
 * The decoder reads a map's keys and values onto its stacks, then looks
 * its key sequence up in a `RecordNode` trie; from the second map with
 * those keys (in a document or across documents) the node has a function.
 * Shape references of deduplicated documents take the same path.
 *
 * The functions are made with `new Function`; where that is forbidden (a
 * Content Security Policy without `unsafe-eval`), or for `__proto__`,
 * which neither a literal nor an assignment makes an own property, there is
 * none and the decoder defines the properties itself.
 *
 * @module
 */

import { KeyTrie } from "./trie.js";
import { writeUtf8 } from "./utf8.js";

/** Builds a record from values read: `values[base + i]` is the value of key `i`. */
export type RecordFn = (values: unknown[], base: number) => Record<string, unknown>;

/** What a shape's function reads its values with: the decoder's `read`. */
export interface ValueReader {
  read(depth: number): unknown;
}

/**
 * Reads a shape reference's values and builds the record, with no staging:
 * the values of a shape reference follow one another, and nothing can turn
 * its object into a `Map`.
 */
export type ShapeFn = (reader: ValueReader, depth: number) => Record<string, unknown>;

/** The most trie nodes a decoder keeps: past it, new key sequences get no function. */
export const MAX_RECORD_NODES = 4096;

/**
 * A key as a map holds it, a fixstr, to compare with the input four bytes
 * at a time rather than character by character: the decoder checks its
 * predicted keys this way (section "Records" of decode.ts).
 */
export class KeyBytes {
  /**
   * `len` is the UTF-8 length (at most 31). With four bytes or more,
   * `words` holds the bytes as little-endian 32-bit words, the last word
   * being the last four bytes (overlapping the one before when the length
   * is not a multiple of four); with fewer, `small` holds them.
   */
  private constructor(
    readonly len: number,
    readonly words: Int32Array,
    readonly small: number,
  ) {}

  /** The key's bytes, or null when it is too long for a fixstr. */
  static of(key: string): KeyBytes | null {
    // A key has at most 31 bytes, 3 per UTF-16 unit: 93 is room enough.
    if (key.length > FIXSTR_MAX) return null;
    const buf = new Uint8Array(3 * FIXSTR_MAX);
    const len = writeUtf8(key, buf, 0);
    if (len > FIXSTR_MAX) return null;
    const view = new DataView(buf.buffer);
    if (len < 4) return new KeyBytes(len, EMPTY_WORDS, buf[0] | (buf[1] << 8) | (buf[2] << 16));
    const words = new Int32Array((len + 3) >> 2);
    const last = words.length - 1;
    for (let j = 0; j < last; j++) words[j] = view.getInt32(4 * j, true);
    words[last] = view.getInt32(len - 4, true);
    return new KeyBytes(len, words, 0);
  }
}

const FIXSTR_MAX = 31;
const EMPTY_WORDS = new Int32Array(0);

/** A key sequence of the objects a decoder has read: how often, and its function once it has one. */
export class RecordNode extends KeyTrie {
  /** The bytes of `key`, made when first predicted; null when it cannot be predicted. */
  private bytes: KeyBytes | null | undefined = undefined;
  uses = 0;
  fn: RecordFn | null = null;
  /**
   * The function for shape references to these keys: made at the first
   * (the keys have repeated by then), null if none can be made.
   */
  shapeFn: ShapeFn | null | undefined = undefined;

  /** `key` is the last key of the sequence ("" at the root). */
  constructor(readonly key: string = "") {
    super();
  }

  /** The bytes of this node's key, to predict it; null for a key too long for a fixstr. */
  keyBytes(): KeyBytes | null {
    let bytes = this.bytes;
    if (bytes === undefined) bytes = this.bytes = KeyBytes.of(this.key);
    return bytes;
  }

  protected make(key: string): this {
    return new RecordNode(key) as this;
  }
}

/** Functions by key sequence, shared by all decoders; bounded. */
const made = new Map<string, RecordFn | null>();
const madeShape = new Map<string, ShapeFn | null>();
const MADE_MAX = 4096;
let unsupported = false;

/** The function that builds a record of `keys` from staged values, or null. */
export function recordFn(keys: readonly string[]): RecordFn | null {
  return cached(made, keys, (i) => `v[b + ${i}]`, ["v", "b"], false) as RecordFn | null;
}

/** The function that reads a shape reference's values and builds its record, or null. */
export function shapeFn(keys: readonly string[]): ShapeFn | null {
  return cached(madeShape, keys, () => "r.read(d)", ["r", "d"], true) as ShapeFn | null;
}

function cached<F>(
  cache: Map<string, F | null>,
  keys: readonly string[],
  value: (i: number) => string,
  params: string[],
  literal: boolean,
): F | null {
  if (unsupported) return null;
  const id = JSON.stringify(keys);
  let fn = cache.get(id);
  if (fn !== undefined) return fn;
  fn = make(keys, value, params, literal) as F | null;
  if (cache.size >= MADE_MAX) cache.clear();
  cache.set(id, fn);
  return fn;
}

function make(keys: readonly string[], value: (i: number) => string, params: string[], literal: boolean): unknown {
  // Assigning `__proto__`, or writing it in a literal, would set the prototype.
  if (keys.includes("__proto__")) return null;
  // An assignment to a key that `Object.prototype` holds (`toString`) meets
  // the inherited property: once the prototype is frozen it does nothing.
  // A literal defines its keys, so such a sequence gets the literal.
  if (keys.some((k) => k in Object.prototype)) literal = true;
  // A staged record (`literal` false) is made by a constructor whose
  // prototype is `Object.prototype`, so it is a plain object like `{}`'s,
  // but made without an allocation site: V8 decides per literal whether its
  // objects are made in old space (pretenuring), and when a large document
  // was decoded it often decided so for a record literal, after which every
  // record kept its young values alive through scavenges: numeric_heavy
  // decoded in 15-23 ms instead of 9-10 (5 of 8 processes). A shape
  // reference's record (`literal` true) stays a literal: made by the
  // constructor, mixed_api_events' deduplicated documents decoded in 15-18
  // ms instead of 9 in the harness.
  //
  // JSON.stringify gives a JavaScript string literal for any key; a
  // repeated key keeps its first place and its last value; the values are
  // evaluated in key order.
  let body: string;
  if (literal) {
    body = `return function (${params.join(", ")}) { return {${keys.map((k, i) => `${JSON.stringify(k)}: ${value(i)}`).join(", ")}}; };`;
  } else {
    const fields = keys.map((k, i) => `this[${JSON.stringify(k)}] = ${value(i)};`).join(" ");
    body =
      `function R(${params.join(", ")}) { ${fields} }\n` +
      `R.prototype = Object.prototype;\n` +
      `return function (${params.join(", ")}) { return new R(${params.join(", ")}); };`;
  }
  try {
    return new Function(body)();
  } catch {
    unsupported = true;
    return null;
  }
}
