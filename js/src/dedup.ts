/**
 * The rules of deduplication (spec section 7) that the encoder and the
 * decoder share, and the encoder's tables. The decoder keeps its own
 * tables, which only append and index (see `decode.ts`).
 *
 * @module
 */

import { strSize } from "./tag.js";
import { KeyTrie } from "./trie.js";
import { utf8Length } from "./utf8.js";

/** The most keys a shape has. */
export const MAX_SHAPE_KEYS = 64;

/** `refsize(i)`: the bytes of a reference to string slot `i` (`f3`, `f4` or `f5` and the index). */
export function strRefSize(slot: number): number {
  return slot < 0x100 ? 2 : slot < 0x10000 ? 3 : 4;
}

/** `shapesize(t)`: the bytes of a reference to shape `t` (`c0 + t`, `f6 tt` or `f7 tt tt`). */
export function shapeRefSize(shape: number): number {
  return shape < 8 ? 1 : shape < 0x100 ? 2 : 3;
}

/** A node of the encoder's shape table: the shape of the key sequence that leads to it. */
export class ShapeNode extends KeyTrie {
  /** The lowest-numbered shape with exactly these keys, or -1. */
  shape = -1;
  /**
   * Whether a map with these keys is written as a reference to `shape`.
   * Fixed when the shape registers: each of its keys then either holds a
   * slot for good or never gets one (section 7.2), so the explicit form's
   * size never changes afterwards.
   */
  reference = false;

  protected make(): this {
    return new ShapeNode() as this;
  }
}

/**
 * The deduplicating encoder's tables for one document: strings by value
 * (a `Map` to the slot), shapes as a trie of keys. For a session or a
 * dictionary document (spec section 9) they may have an initial state, a
 * dictionary's entries, kept apart so that returning to it costs nothing.
 */
export class EncoderTables {
  /** Each string that holds a slot, keyed as written (well-formed UTF-16), beyond the initial state. */
  slots = new Map<string, number>();
  /** Slots given so far, initial state included. */
  strings = 0;
  /** Shapes registered so far, initial state included. */
  shapes = 0;
  /** The shape table beyond the initial state: the empty key sequence. */
  root = new ShapeNode();
  /** The initial state's strings and shapes, if it has any. */
  initialSlots: Map<string, number> | null = null;
  initialRoot: ShapeNode | null = null;
  initialStrings = 0;
  initialShapes = 0;
  /** Whether to count what the entries beyond the initial state weigh against a session's budget. */
  charging = false;
  /** That weight: {@link slotWeight} and {@link shapeWeight}. */
  bytes = 0;

  constructor(
    /** The most slots to give; 0 in the shapes-only mode. */
    readonly maxStrings: number,
    /** The most shapes to register. */
    readonly maxShapes: number,
  ) {}

  /** Returns the tables to their initial state (empty, for a document of its own). */
  reset(): void {
    if (this.strings > this.initialStrings) this.slots.clear();
    this.strings = this.initialStrings;
    if (this.shapes > this.initialShapes) this.root = new ShapeNode();
    this.shapes = this.initialShapes;
    this.bytes = 0;
  }

  /** The slot of the string `s` (as written), if it has one. */
  slot(s: string): number | undefined {
    const slot = this.slots.get(s);
    if (slot !== undefined || this.initialSlots === null) return slot;
    return this.initialSlots.get(s);
  }

  /**
   * The node of the shape with the keys `keys`, the lowest-numbered one
   * (the initial state's first), or a node without a shape, or undefined.
   */
  findShape(keys: readonly string[], n: number): ShapeNode | undefined {
    if (this.initialRoot !== null) {
      const node = this.initialRoot.find(keys, 0, n);
      if (node !== undefined && node.shape >= 0) return node;
    }
    return this.root.find(keys, 0, n);
  }

  /**
   * Makes a dictionary's strings and shapes (already checked by the rules
   * of section 9.2, keys well-formed) the initial state of empty tables:
   * slots 0 to `k - 1`, shapes 0 to `m - 1`. Each shape is written as a
   * reference when that is shorter than its explicit form, which the rules
   * keep from changing (its keys hold slots now or never will).
   */
  setInitial(strings: readonly string[], shapes: readonly (readonly string[])[]): void {
    const slots = new Map<string, number>();
    for (let i = 0; i < strings.length; i++) slots.set(strings[i], i);
    const root = new ShapeNode();
    for (let t = 0; t < shapes.length; t++) {
      const keys = shapes[t];
      let explicit = keys.length <= 15 ? 1 : 2;
      let node = root;
      for (const k of keys) {
        const slot = slots.get(k);
        if (slot !== undefined) {
          explicit += strRefSize(slot);
        } else {
          explicit += strSize(utf8Length(k));
        }
        node = node.childOrNew(k);
      }
      if (node.shape < 0) {
        node.shape = t;
        node.reference = shapeRefSize(t) < explicit;
      }
    }
    this.initialSlots = strings.length > 0 ? slots : null;
    this.initialRoot = shapes.length > 0 ? root : null;
    this.initialStrings = strings.length;
    this.initialShapes = shapes.length;
    this.slots = new Map();
    this.root = new ShapeNode();
    this.strings = strings.length;
    this.shapes = shapes.length;
    this.bytes = 0;
  }
}

/** What a string slot of `len` bytes weighs against a session's budget (spec section 9.1). */
export function slotWeight(len: number): number {
  return len + 32;
}

/**
 * What a shape weighs against a session's budget (spec section 9.1): 32,
 * and 8 a key beyond the keys' `keyBytes` bytes of UTF-8.
 */
export function shapeWeight(keyBytes: number, keys: number): number {
  return 32 + keyBytes + 8 * keys;
}
