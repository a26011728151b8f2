/**
 * The rules of deduplication (spec section 7) that the encoder and the
 * decoder share, and the encoder's tables. The decoder keeps its own
 * tables, which only append and index (see `decode.ts`).
 *
 * @module
 */

import { KeyTrie } from "./trie.js";

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
 * (a `Map` to the slot), shapes as a trie of keys.
 */
export class EncoderTables {
  /** Each string that holds a slot, keyed as written (well-formed UTF-16). */
  readonly slots = new Map<string, number>();
  /** Slots given so far. */
  strings = 0;
  /** Shapes registered so far. */
  shapes = 0;
  /** The shape table: the empty key sequence. */
  root = new ShapeNode();

  constructor(
    /** The most slots to give; 0 in the shapes-only mode. */
    readonly maxStrings: number,
    /** The most shapes to register. */
    readonly maxShapes: number,
  ) {}

  /** Empties the tables for the next document. */
  reset(): void {
    if (this.strings > 0) this.slots.clear();
    this.strings = 0;
    if (this.shapes > 0) this.root = new ShapeNode();
    this.shapes = 0;
  }
}
