/**
 * Dictionaries (spec section 9.2): strings and shapes agreed out of band
 * that fill the deduplication tables before a document starts, and the
 * dictionary documents (kind `03`) written with them. The session
 * documents' prefixes and the tables with an initial state, which sessions
 * share, are here too.
 *
 * @module
 */

import { type DecoderTables, Decoder, type Input, bytesOf } from "./decode.js";
import { MAX_SHAPE_KEYS, strRefSize } from "./dedup.js";
import { Encoder } from "./encode.js";
import { SurpError, sessionError, unexpectedEof } from "./errors.js";
import type { DecodeOptions, EncodeOptions } from "./options.js";
import * as tag from "./tag.js";
import { utf8Length, wellFormed } from "./utf8.js";
import { Entries } from "./value.js";

/** The kind bytes of session documents (section 9). */
export const KIND_HEADER = 0x00;
export const KIND_MESSAGE = 0x01;
export const KIND_RESET = 0x02;
export const KIND_DICTIONARY = 0x03;

/** The most strings and shapes a dictionary has (section 9.2). */
const MAX_DICTIONARY_STRINGS = 2 ** 20;
const MAX_DICTIONARY_SHAPES = 2 ** 16;

/** The 64-bit FNV-1a hash of `bytes`. */
export function fnv1a64(bytes: Uint8Array): bigint {
  // In two 32-bit halves: the prime is 2^40 + 0x1b3, so the product is
  // h * 0x1b3 plus the low half shifted up by 40 bits.
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    const x = lo * 0x1b3;
    hi = (Math.imul(hi, 0x1b3) + Math.floor(x / 0x100000000) + (lo << 8)) >>> 0;
    lo = x >>> 0;
  }
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** The bytes of `id`, little-endian, as a document carries it. */
export function idBytes(id: bigint): number[] {
  const out: number[] = [];
  for (let i = 0n; i < 64n; i += 8n) out.push(Number((id >> i) & 0xffn));
  return out;
}

/** Reads the 8-byte little-endian id at `at`. */
export function readId(src: Uint8Array, at: number): bigint {
  let id = 0n;
  for (let i = 7; i >= 0; i--) id = (id << 8n) | BigInt(src[at + i]);
  return id;
}

/** The id as 16 lowercase hex digits, most significant first. */
export function idHex(id: bigint): string {
  return id.toString(16).padStart(16, "0");
}

function invalid(why: string): SurpError {
  return sessionError("InvalidDictionary", `invalid dictionary: ${why}`);
}

/**
 * The kind byte of the session document `src`: an error at byte 0 if it
 * is not one, at byte 1 if its kind is unknown.
 *
 * @internal
 */
export function kindOf(src: Uint8Array): number {
  if (src.length === 0) throw unexpectedEof(0);
  if (src[0] !== tag.RESERVED) {
    throw sessionError("NotASessionDocument", "not a session document (a session document starts with 0xf1)", 0);
  }
  if (src.length < 2) throw unexpectedEof(1);
  const kind = src[1];
  if (kind > KIND_DICTIONARY) {
    throw sessionError("UnknownKind", `unknown session document kind 0x${kind.toString(16).padStart(2, "0")}`, 1);
  }
  return kind;
}

/**
 * Decoder tables whose initial state is a dictionary's (or empty), able
 * to return to it.
 *
 * @internal
 */
export class SessionTables implements DecoderTables {
  slots: string[];
  slotLens: number[];
  shapeKeys: string[][];
  shapeCharges: number[];
  readonly initialStrings: number;
  readonly initialShapes: number;

  constructor(dictionary: Dictionary | undefined) {
    const strings = dictionary?.strings ?? [];
    const shapes = dictionary?.shapes ?? [];
    this.slots = strings.slice();
    this.slotLens = strings.map(utf8Length);
    this.shapeKeys = shapes.map((keys) => keys.slice());
    this.shapeCharges = shapes.map((keys) => keys.reduce((sum, k) => sum + utf8Length(k) + 2, 0));
    this.initialStrings = strings.length;
    this.initialShapes = shapes.length;
  }

  /** Returns the tables to their initial state. */
  reset(): void {
    this.slots.length = this.initialStrings;
    this.slotLens.length = this.initialStrings;
    this.shapeKeys.length = this.initialShapes;
    this.shapeCharges.length = this.initialShapes;
  }
}

/**
 * A dictionary (spec section 9.2): strings that take string slots 0, 1, …
 * and shapes that are shapes 0, 1, … before a document's first byte. It is
 * checked by the rules of section 9.2 when made; its stored form
 * ({@link Dictionary.toBytes}) is a plain Surp document, and its id the
 * FNV-1a hash of that.
 *
 * ```ts
 * const dict = new Dictionary(["status", "active"], [["id", "status"]]);
 * const bytes = dict.encode({ id: 7, status: "active" }); // f1 03, the id, c0 07 f3 01
 * dict.decode(bytes); // { id: 7, status: "active" }
 * ```
 */
export class Dictionary {
  /** The strings, slots 0, 1, … in order. */
  readonly strings: readonly string[];
  /** The shapes' keys, shapes 0, 1, … in order. */
  readonly shapes: readonly (readonly string[])[];
  /** The id: the 64-bit FNV-1a hash of the stored form. */
  readonly id: bigint;
  private readonly stored: Uint8Array;
  private defaultEncoder: DictionaryEncoder | undefined;
  private defaultDecoder: DictionaryDecoder | undefined;

  /**
   * A dictionary of these strings and shapes; throws a `SurpError` of kind
   * `"Session"` (`InvalidDictionary`) if they break a rule of section 9.2.
   * A lone surrogate is kept as U+FFFD, as the encoder writes it.
   */
  constructor(strings: readonly string[], shapes: readonly (readonly string[])[] = []) {
    // Indexed loops, not `every`, which skips the holes of a sparse array.
    if (!Array.isArray(strings) || !allStrings(strings)) {
      throw invalid("the strings are not an array of strings");
    }
    if (!Array.isArray(shapes) || !allOf(shapes, (k) => Array.isArray(k) && allStrings(k))) {
      throw invalid("the shapes are not an array of arrays of strings");
    }
    const ss = strings.map(wellFormed);
    const ks = shapes.map((keys) => keys.map(wellFormed));
    check(ss, ks);
    this.strings = Object.freeze(ss);
    this.shapes = Object.freeze(ks.map((keys) => Object.freeze(keys)));
    this.stored = new Encoder().encode({ surp_dictionary: 1, strings: ss, shapes: ks });
    this.id = fnv1a64(this.stored);
  }

  /**
   * Reads a dictionary from its stored form, which must be exactly what
   * {@link Dictionary.toBytes} writes (the id is its hash), and checks it.
   */
  static fromBytes(input: Input): Dictionary {
    const bytes = bytesOf(input);
    let doc: unknown;
    try {
      doc = new Decoder({ mapsAs: "entries" }).decode(bytes);
    } catch (e) {
      throw invalid(`not a stored dictionary (${e instanceof Error ? e.message : String(e)})`);
    }
    const entries = doc instanceof Entries ? doc.entries : null;
    if (entries === null || entries.length !== 3) throw invalid("the stored form is not a map of three entries");
    const [[k0, version], [k1, strings], [k2, shapes]] = entries;
    if (k0 !== "surp_dictionary" || k1 !== "strings" || k2 !== "shapes") {
      throw invalid('the stored form\'s keys are not "surp_dictionary", "strings" and "shapes", in that order');
    }
    if (version !== 1) throw invalid(`dictionary format ${String(version)} is not supported (only 1)`);
    if (!Array.isArray(strings) || !Array.isArray(shapes)) throw invalid("the strings or the shapes are not arrays");
    const dict = new Dictionary(strings as string[], shapes as string[][]);
    const stored = dict.stored;
    if (stored.length !== bytes.length || stored.some((b, i) => b !== bytes[i])) {
      throw invalid("the document is not in the stored form, which its id depends on");
    }
    return dict;
  }

  /** The stored form: a plain Surp document (a copy). */
  toBytes(): Uint8Array {
    return this.stored.slice();
  }

  /** The id as 16 lowercase hex digits, most significant first. */
  get idHex(): string {
    return idHex(this.id);
  }

  /** Encodes `value` as a dictionary document (kind `03`). */
  encode(value: unknown): Uint8Array {
    this.defaultEncoder ??= new DictionaryEncoder(this);
    return this.defaultEncoder.encode(value);
  }

  /** Decodes a dictionary document written with this dictionary. */
  decode(input: Input): unknown {
    this.defaultDecoder ??= new DictionaryDecoder(this);
    return this.defaultDecoder.decode(input);
  }
}

/** The rules of section 9.2. */
function check(strings: string[], shapes: string[][]): void {
  if (strings.length > MAX_DICTIONARY_STRINGS) throw invalid(`${strings.length} strings, more than 2^20`);
  if (shapes.length > MAX_DICTIONARY_SHAPES) throw invalid(`${shapes.length} shapes, more than 2^16`);
  const seen = new Set<string>();
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i];
    if (utf8Length(s) < strRefSize(i)) {
      throw invalid(`string ${i} (${JSON.stringify(s)}) is shorter than a reference to its slot (${strRefSize(i)} bytes)`);
    }
    if (seen.has(s)) throw invalid(`string ${i} (${JSON.stringify(s)}) appears twice`);
    seen.add(s);
  }
  const neverSlotted = strRefSize(strings.length);
  const shapesSeen = new Set<string>();
  for (let t = 0; t < shapes.length; t++) {
    const keys = shapes[t];
    if (keys.length < 1 || keys.length > MAX_SHAPE_KEYS) {
      throw invalid(`shape ${t} has ${keys.length} keys (a shape has 1 to ${MAX_SHAPE_KEYS})`);
    }
    for (const k of keys) {
      if (!seen.has(k) && utf8Length(k) >= neverSlotted) {
        throw invalid(`key ${JSON.stringify(k)} of shape ${t} is not one of the strings, and is long enough to take a slot`);
      }
    }
    const id = JSON.stringify(keys);
    if (shapesSeen.has(id)) throw invalid(`shape ${t} appears twice`);
    shapesSeen.add(id);
  }
}

/** Options of a {@link DictionaryEncoder}: those of `Encoder` that apply. */
export type DictionaryEncodeOptions = Pick<EncodeOptions, "maxDepth" | "ignoreUndefined">;

/**
 * Writes dictionary documents with one dictionary, keeping its tables from
 * one document to the next.
 */
export class DictionaryEncoder {
  private readonly encoder: Encoder;
  private readonly prefix: number[];
  private busy = false;

  constructor(dictionary: Dictionary, options: DictionaryEncodeOptions = {}) {
    this.encoder = initialEncoder(dictionary, options);
    this.prefix = [tag.RESERVED, KIND_DICTIONARY, ...idBytes(dictionary.id)];
  }

  /** Encodes `value` as a dictionary document. */
  encode(value: unknown): Uint8Array {
    // As in a session: a call from inside this one (a `toJSON`, a getter)
    // is refused before it touches the tables of the document under way.
    if (this.busy) throw new SurpError("Message", "a dictionary encoder cannot encode while it encodes");
    const tables = this.encoder.dedupTables!;
    this.busy = true;
    try {
      return this.encoder.encodePrefixed(this.prefix, value);
    } finally {
      // A document's own entries end with it.
      tables.reset();
      this.busy = false;
    }
  }
}

/**
 * An encoder whose tables have the standard limits of section 7 and the
 * dictionary's entries as their initial state.
 *
 * @internal
 */
export function initialEncoder(dictionary: Dictionary | undefined, options: DictionaryEncodeOptions): Encoder {
  const encoder = new Encoder({ maxDepth: options.maxDepth, ignoreUndefined: options.ignoreUndefined, dedup: true });
  if (dictionary !== undefined) encoder.dedupTables!.setInitial(dictionary.strings, dictionary.shapes);
  return encoder;
}

/**
 * Reads dictionary documents written with one dictionary, with the
 * decoder's options (limits and what values decode to).
 */
export class DictionaryDecoder {
  private readonly decoder: Decoder;
  private readonly tables: SessionTables;
  private readonly id: bigint;

  constructor(dictionary: Dictionary, options: DecodeOptions = {}) {
    this.decoder = new Decoder(options);
    this.tables = new SessionTables(dictionary);
    this.id = dictionary.id;
  }

  /**
   * Decodes a dictionary document. Another document is rejected: at byte
   * 0 if it is no session document, at byte 1 if it is another kind, at
   * byte 2 if it carries another dictionary's id.
   */
  decode(input: Input): unknown {
    const src = bytesOf(input);
    const kind = kindOf(src);
    if (kind !== KIND_DICTIONARY) {
      throw sessionError("WrongDictionary", "not a dictionary document", 1);
    }
    if (src.length < 10) throw unexpectedEof(src.length);
    const id = readId(src, 2);
    if (id !== this.id) {
      throw sessionError(
        "WrongDictionary",
        `a document of dictionary ${idHex(id)}, not of this decoder's ${idHex(this.id)}`,
        2,
      );
    }
    try {
      return this.decoder.decodeWith(src, 10, this.tables);
    } finally {
      this.tables.reset();
    }
  }
}

/** Whether `test` holds for every index of `items`, holes included. */
function allOf<T>(items: readonly T[], test: (item: T) => boolean): boolean {
  for (let i = 0; i < items.length; i++) if (!test(items[i])) return false;
  return true;
}

function allStrings(items: readonly unknown[]): boolean {
  return allOf(items, (s) => typeof s === "string");
}
