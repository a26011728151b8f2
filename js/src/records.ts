/**
 * Records: plain objects built by a function made for their keys, which
 * creates the object as one object literal. The engine allocates it with
 * all its properties at once and gives every such object one hidden class,
 * instead of adding properties one by one through a store that sees every
 * key of the document.
 *
 * The decoder reads a map's keys and values onto its stacks, then looks
 * its key sequence up in a `RecordNode` trie; from the second map with
 * those keys (in a document or across documents) the node has a function.
 * Shape references of deduplicated documents take the same path.
 *
 * The functions are made with `new Function`; where that is forbidden (a
 * Content Security Policy without `unsafe-eval`), or for keys an object
 * literal cannot hold (`__proto__`), there is none and the decoder sets the
 * properties itself.
 *
 * @module
 */

import { KeyTrie } from "./trie.js";

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

/** A key sequence of the objects a decoder has read: how often, and its function once it has one. */
export class RecordNode extends KeyTrie {
  uses = 0;
  fn: RecordFn | null = null;
  /**
   * The function for shape references to these keys: made at the first
   * (the keys have repeated by then), null if none can be made.
   */
  shapeFn: ShapeFn | null | undefined = undefined;

  protected make(): this {
    return new RecordNode() as this;
  }
}

/** Functions by key sequence, shared by all decoders; bounded. */
const made = new Map<string, RecordFn | null>();
const madeShape = new Map<string, ShapeFn | null>();
const MADE_MAX = 4096;
let unsupported = false;

/** The function that builds a record of `keys` from staged values, or null. */
export function recordFn(keys: readonly string[]): RecordFn | null {
  return cached(made, keys, (i) => `v[b + ${i}]`, ["v", "b"]) as RecordFn | null;
}

/** The function that reads a shape reference's values and builds its record, or null. */
export function shapeFn(keys: readonly string[]): ShapeFn | null {
  return cached(madeShape, keys, () => "r.read(d)", ["r", "d"]) as ShapeFn | null;
}

function cached<F>(
  cache: Map<string, F | null>,
  keys: readonly string[],
  value: (i: number) => string,
  params: string[],
): F | null {
  if (unsupported) return null;
  const id = JSON.stringify(keys);
  let fn = cache.get(id);
  if (fn !== undefined) return fn;
  fn = make(keys, value, params) as F | null;
  if (cache.size >= MADE_MAX) cache.clear();
  cache.set(id, fn);
  return fn;
}

function make(keys: readonly string[], value: (i: number) => string, params: string[]): unknown {
  // In a literal, `__proto__: v` would set the prototype.
  if (keys.includes("__proto__")) return null;
  // JSON.stringify gives a JavaScript string literal for any key; a
  // repeated key keeps its first place and its last value, as assignments
  // do; the values are evaluated in key order.
  const body = `return {${keys.map((k, i) => `${JSON.stringify(k)}: ${value(i)}`).join(", ")}};`;
  try {
    return new Function(...params, body);
  } catch {
    unsupported = true;
    return null;
  }
}
