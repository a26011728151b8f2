/**
 * Sessions (spec section 9.1): deduplication tables that last from one
 * message to the next, within a budget both sides agree on, starting from
 * an initial state that a dictionary may give.
 *
 * @module
 */

import { Decoder, type Input, bytesOf } from "./decode.js";
import { type EncoderTables, shapeWeight, slotWeight } from "./dedup.js";
import {
  type Dictionary,
  type DictionaryEncodeOptions,
  KIND_DICTIONARY,
  KIND_HEADER,
  KIND_MESSAGE,
  KIND_RESET,
  SessionTables,
  idBytes,
  idHex,
  initialEncoder,
  kindOf,
  readId,
} from "./dictionary.js";
import type { Encoder } from "./encode.js";
import { SurpError, sessionError, unexpectedEof } from "./errors.js";
import type { DecodeOptions } from "./options.js";
import * as tag from "./tag.js";

/** What a session's tables may hold beyond their initial state before they tumble back to it. */
export interface Budget {
  /** String slots: a header states at most 2^24, and more is taken as 2^24. */
  strings: number;
  /** Shapes: a header states at most 2^16, and more is taken as 2^16. */
  shapes: number;
  /**
   * Bytes, taken as at most 2^32 − 1: a slot of `len` bytes counts
   * `len + 32`, a shape `32 + Σ (len(k) + 8)`.
   */
  bytes: number;
}

/**
 * The default budget, Rust's `surp_dedup::DEFAULT_BUDGET`: 16,384 string
 * slots, 2,048 shapes, 1 MiB.
 */
export const DEFAULT_BUDGET: Readonly<Budget> = Object.freeze({ strings: 16 * 1024, shapes: 2 * 1024, bytes: 1024 * 1024 });

/** The largest budget a header can ask for: the table limits of section 7, and 4 bytes. */
const MAX_BUDGET: Readonly<Budget> = Object.freeze({ strings: 2 ** 24, shapes: 2 ** 16, bytes: 2 ** 32 - 1 });

/** What both ends of a session share: the budget and the dictionary, as Rust's `SessionOptions`. */
export interface SessionOptions {
  /**
   * The tables' budget (default {@link DEFAULT_BUDGET}). For a decoder,
   * the most a header may ask for, in each of the three.
   */
  budget?: Budget;
  /** The dictionary the tables start from and return to (default: none, empty tables). */
  dictionary?: Dictionary;
}

/** Options of a {@link SessionEncoder}. */
export type SessionEncoderOptions = SessionOptions & DictionaryEncodeOptions;
/** Options of a {@link SessionDecoder}: the session's and the decoder's. */
export type SessionDecoderOptions = SessionOptions & DecodeOptions;

/** The string slots, shapes and bytes (as the budget counts them) the tables hold beyond their initial state. */
export interface TableUsage {
  strings: number;
  shapes: number;
  bytes: number;
}

/**
 * The budget of `options`: each part a whole number of at least 0, capped
 * at what a header can state ({@link MAX_BUDGET}), as Rust's
 * `SessionOptions::budget` caps it. A larger number would behave the same
 * (the tables never hold more), but its header would be refused by every
 * decoder.
 */
function budgetOf(options: SessionOptions): Budget {
  const budget = options.budget ?? DEFAULT_BUDGET;
  const part = (name: keyof Budget): number => {
    const n = budget[name];
    if (typeof n !== "number" || !(Number.isInteger(n) || n === Infinity) || n < 0) {
      throw new RangeError(`the budget's ${name} must be a whole number of at least 0 (or Infinity), not ${String(n)}`);
    }
    return Math.min(n, MAX_BUDGET[name]);
  };
  return { strings: part("strings"), shapes: part("shapes"), bytes: part("bytes") };
}

function exceeds(budget: Budget, strings: number, shapes: number, bytes: number): boolean {
  return strings > budget.strings || shapes > budget.shapes || bytes > budget.bytes;
}

/** The most messages an encoder numbers: sequence numbers stay below 2^64. */
const LAST_SEQUENCE = (1n << 64n) - 1n;

/**
 * Writes the messages of one session: first its {@link header}, then each
 * message, which refers to the strings and shapes of the messages before
 * it, so that the decoder must read every message, in order.
 *
 * ```ts
 * const encoder = new SessionEncoder();
 * const decoder = new SessionDecoder();
 * decoder.readHeader(encoder.header());
 * for (const line of lines) decoder.decode(encoder.encode(line));
 * ```
 */
export class SessionEncoder {
  private readonly encoder: Encoder;
  private readonly tables: EncoderTables;
  private readonly budget: Budget;
  private readonly headerBytes: Uint8Array;
  /** The number of the next message. */
  private next = 0n;
  /** The tables returned to their initial state other than by tumbling: the next message says so. */
  private resetNext = false;
  /** Whether a message is being encoded. */
  private busy = false;

  constructor(options: SessionEncoderOptions = {}) {
    this.budget = budgetOf(options);
    this.encoder = initialEncoder(options.dictionary, options);
    this.tables = this.encoder.dedupTables!;
    this.tables.charging = true;
    this.headerBytes = header(this.budget, options.dictionary);
  }

  /** The session's header document, which the decoder reads first. */
  header(): Uint8Array {
    return this.headerBytes.slice();
  }

  /**
   * Encodes the next message. On an error nothing is sent and no number
   * used; the next message starts from the initial state, and says so.
   */
  encode(value: unknown): Uint8Array {
    if (this.next === LAST_SEQUENCE) {
      throw sessionError("SequenceExhausted", "the session's message numbers are exhausted");
    }
    // A `toJSON` or a getter that calls this encoder while it encodes
    // would write against tables in the middle of a message: refused
    // before anything is touched, so the message under way is unharmed.
    if (this.busy) throw new SurpError("Message", "a session encoder cannot encode while it encodes");
    const prefix = [tag.RESERVED, this.resetNext ? KIND_RESET : KIND_MESSAGE, ...uintBytes(this.next)];
    let out: Uint8Array;
    this.busy = true;
    try {
      out = this.encoder.encodePrefixed(prefix, value);
    } catch (e) {
      // The decoder never sees this message: start again from the initial state.
      this.reset();
      throw e;
    } finally {
      this.busy = false;
    }
    const t = this.tables;
    if (exceeds(this.budget, t.strings - t.initialStrings, t.shapes - t.initialShapes, t.bytes)) {
      // Both sides tumble here: the next message needs no flag.
      t.reset();
    }
    this.next++;
    this.resetNext = false;
    return out;
  }

  /** Returns the tables to their initial state; the next message tells the decoder to do the same. */
  reset(): void {
    this.tables.reset();
    this.resetNext = true;
  }

  /** How many messages have been encoded (the number of the next). */
  get messages(): bigint {
    return this.next;
  }

  /** What the tables hold beyond their initial state. */
  get usage(): TableUsage {
    const t = this.tables;
    return { strings: t.strings - t.initialStrings, shapes: t.shapes - t.initialShapes, bytes: t.bytes };
  }
}

/** A sequence number as a fixuint or the smallest `uint`. */
function uintBytes(n: bigint): number[] {
  if (n <= BigInt(tag.FIXUINT_MAX)) return [Number(n)];
  const bytes: number[] = [];
  for (let m = n; m > 0n; m >>= 8n) bytes.push(Number(m & 0xffn));
  return [tag.UINT + bytes.length - 1, ...bytes];
}

/** A header's bytes: `f1 00 01`, the three budgets, the flag and the dictionary's id. */
function header(budget: Budget, dictionary: Dictionary | undefined): Uint8Array {
  const out = [tag.RESERVED, KIND_HEADER, 1];
  for (const n of [budget.strings, budget.shapes, budget.bytes]) {
    out.push(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
  }
  if (dictionary === undefined) out.push(0);
  else out.push(1, ...idBytes(dictionary.id));
  return new Uint8Array(out);
}

/** The length of a header without a dictionary id; its flag is the last byte. */
const HEADER_LEN = 16;
const FLAG_AT = HEADER_LEN - 1;

/**
 * Reads the messages of one session: first its header
 * ({@link readHeader}), then every message in order. A message is never
 * read against tables in another state than the encoder's: a message
 * lost, reordered, replayed or from another session fails its number
 * check; a header naming another dictionary, or a budget above this
 * decoder's, is refused; and after a message fails to decode, every later
 * one fails until the encoder sends a reset.
 */
export class SessionDecoder {
  private readonly decoder: Decoder;
  private readonly maxBudget: Budget;
  private readonly dictionary: Dictionary | undefined;
  /** The tables, once a header has been read. */
  private tables: SessionTables | null = null;
  /** The header's budget. */
  private budget: Budget = { strings: 0, shapes: 0, bytes: 0 };
  /** What the entries beyond the initial state weigh against the budget's bytes. */
  private added = 0;
  private next = 0n;
  private broken = false;

  constructor(options: SessionDecoderOptions = {}) {
    this.maxBudget = budgetOf(options);
    this.dictionary = options.dictionary;
    this.decoder = new Decoder(options);
  }

  /**
   * Reads a session's header (which must fill `input`), and starts the
   * session afresh with its budget. Throws if it asks for more than this
   * decoder's budget or names another dictionary than this decoder's.
   */
  readHeader(input: Input): void {
    const src = bytesOf(input);
    if (kindOf(src) !== KIND_HEADER) throw sessionError("MissingHeader", "a session starts with its header", 1);
    if (src.length < HEADER_LEN) throw unexpectedEof(src.length);
    if (src[2] !== 1) throw sessionError("UnsupportedVersion", `session version ${src[2]} is not supported (only 1)`, 2);
    const word = (at: number) => (src[at] | (src[at + 1] << 8) | (src[at + 2] << 16) | (src[at + 3] << 24)) >>> 0;
    const budget = { strings: word(3), shapes: word(7), bytes: word(11) };
    let id: bigint | undefined;
    let end = HEADER_LEN;
    const flag = src[FLAG_AT];
    if (flag === 1) {
      end += 8;
      if (src.length < end) throw unexpectedEof(src.length);
      id = readId(src, HEADER_LEN);
    } else if (flag !== 0) {
      throw sessionError("InvalidFlag", `session header flag 0x${flag.toString(16).padStart(2, "0")} is neither 0 nor 1`, FLAG_AT);
    }
    checkBudget(budget, MAX_BUDGET);
    if (src.length > end) throw new SurpError("TrailingBytes", "trailing bytes after the header", end);
    checkBudget(budget, this.maxBudget);
    const ours = this.dictionary?.id;
    if (id !== ours) {
      const found = id === undefined ? "no dictionary" : `dictionary ${idHex(id)}`;
      const expected = ours === undefined ? "none" : idHex(ours);
      throw sessionError("WrongDictionary", `the header names ${found}, this decoder's is ${expected}`, FLAG_AT);
    }
    this.tables = new SessionTables(this.dictionary);
    this.budget = budget;
    this.added = 0;
    this.next = 0n;
    this.broken = false;
  }

  /** Decodes the next message, which must fill `input`. */
  decode(input: Input): unknown {
    const src = bytesOf(input);
    const tables = this.tables;
    if (tables === null) throw sessionError("MissingHeader", "a session starts with its header", 0);
    const kind = kindOf(src);
    if (kind === KIND_HEADER) throw sessionError("UnexpectedHeader", "a second session header in one session", 1);
    if (kind === KIND_DICTIONARY) {
      throw sessionError("UnknownKind", "a dictionary document has no place in a session", 1);
    }
    const reset = kind === KIND_RESET;
    const [seq, valueAt] = readSequence(src);
    // A reset may skip numbers (the messages it follows no longer matter)
    // but never goes back; any other message is the next.
    if (reset ? seq < this.next : seq !== this.next) {
      throw sessionError("Sequence", `message ${seq} out of order: expected ${reset ? "at least " : ""}${this.next}`, 2);
    }
    if (reset) {
      tables.reset();
      this.added = 0;
      this.broken = false;
    } else if (this.broken) {
      throw sessionError("Broken", "a message after one that failed, before a reset message", 0);
    }
    this.next = seq + 1n;
    const strings = tables.slots.length;
    const shapes = tables.shapeKeys.length;
    let value: unknown;
    try {
      value = this.decoder.decodeWith(src, valueAt, tables);
    } catch (e) {
      this.broken = true;
      throw e;
    }
    // What the message added, as the budget counts it.
    for (let i = strings; i < tables.slots.length; i++) this.added += slotWeight(tables.slotLens[i]);
    for (let t = shapes; t < tables.shapeKeys.length; t++) {
      // shapeCharges holds the expansion charge, len(k) + 2 a key.
      const n = tables.shapeKeys[t].length;
      this.added += shapeWeight(tables.shapeCharges[t] - 2 * n, n);
    }
    if (
      exceeds(
        this.budget,
        tables.slots.length - tables.initialStrings,
        tables.shapeKeys.length - tables.initialShapes,
        this.added,
      )
    ) {
      tables.reset();
      this.added = 0;
    }
    return value;
  }

  /** What the tables hold beyond their initial state. */
  get usage(): TableUsage {
    const t = this.tables;
    if (t === null) return { strings: 0, shapes: 0, bytes: 0 };
    return { strings: t.slots.length - t.initialStrings, shapes: t.shapeKeys.length - t.initialShapes, bytes: this.added };
  }
}

/** Refuses a budget that asks for more than `limit` in any part, at that part's first byte. */
function checkBudget(budget: Budget, limit: Readonly<Budget>): void {
  const parts = [
    ["strings", 3, "string slots"],
    ["shapes", 7, "shapes"],
    ["bytes", 11, "bytes"],
  ] as const;
  for (const [part, at, what] of parts) {
    if (budget[part] > limit[part]) {
      throw sessionError("BudgetTooLarge", `the header asks for ${budget[part]} ${what}, more than ${limit[part]}`, at);
    }
  }
}

/** A message's number at byte 2, an unsigned integer value of any width, and where its value starts. */
function readSequence(src: Uint8Array): [bigint, number] {
  if (src.length <= 2) throw unexpectedEof(src.length);
  const t = src[2];
  if (t <= tag.FIXUINT_MAX) return [BigInt(t), 3];
  if (t >= tag.UINT && t < tag.NINT) {
    const w = t - tag.UINT + 1;
    if (src.length < 3 + w) throw unexpectedEof(src.length);
    let n = 0n;
    for (let i = w - 1; i >= 0; i--) n = (n << 8n) | BigInt(src[3 + i]);
    return [n, 3 + w];
  }
  throw sessionError(
    "InvalidSequence",
    `a message number is an unsigned integer, not tag 0x${t.toString(16).padStart(2, "0")}`,
    2,
  );
}
