/**
 * Objects for shape references: a function per key sequence that reads the
 * values and builds the object as one object literal, which the engine
 * allocates with all its properties at once and gives one hidden class,
 * instead of adding the properties one by one.
 *
 * The functions are made with `new Function`; where that is forbidden (a
 * Content Security Policy without `unsafe-eval`), or for keys an object
 * literal cannot hold (`__proto__`), there is none and the decoder sets the
 * properties itself.
 *
 * @module
 */

/** What a record function reads its values with: the decoder's `read`. */
export interface ValueReader {
  read(depth: number): unknown;
}

export type RecordFn = (reader: ValueReader, depth: number) => Record<string, unknown>;

/** Made functions by key sequence, shared by all decoders; bounded. */
const made = new Map<string, RecordFn | null>();
const MADE_MAX = 4096;
let unsupported = false;

/** The function that reads a record of `keys`, or null. */
export function recordFn(keys: readonly string[]): RecordFn | null {
  if (unsupported) return null;
  const id = JSON.stringify(keys);
  let fn = made.get(id);
  if (fn !== undefined) return fn;
  fn = make(keys);
  if (made.size >= MADE_MAX) made.clear();
  made.set(id, fn);
  return fn;
}

function make(keys: readonly string[]): RecordFn | null {
  // In a literal, `__proto__: v` would set the prototype.
  if (keys.includes("__proto__")) return null;
  // Values are read in key order: a literal evaluates its properties in
  // order. JSON.stringify gives a JavaScript string literal for any key.
  const body = `return {${keys.map((k) => `${JSON.stringify(k)}: r.read(d)`).join(", ")}};`;
  try {
    return new Function("r", "d", body) as RecordFn;
  } catch {
    unsupported = true;
    return null;
  }
}
