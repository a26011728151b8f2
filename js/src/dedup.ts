/**
 * The rules of deduplication (spec section 7) that the encoder and the
 * decoder share, and the encoder's tables. The decoder keeps its own
 * tables, which only append and index (see `decode.ts`).
 *
 * @module
 */

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

/**
 * A node of the encoder's shape table: a trie of key sequences, so that a
 * map finds its shape with one lookup per key, without building a string
 * of its keys.
 */
export class ShapeNode {
  /**
   * The first key that continued these keys, and its node: most sequences
   * go on one way (a record type's next field), which a comparison finds
   * without hashing.
   */
  firstKey: string | undefined = undefined;
  first: ShapeNode | undefined = undefined;
  /** The nodes of the other sequences one key longer. */
  next: Map<string, ShapeNode> | undefined = undefined;
  /** The lowest-numbered shape with exactly these keys, or -1. */
  shape = -1;
  /**
   * Whether a map with these keys is written as a reference to `shape`.
   * Fixed when the shape registers: each of its keys then either holds a
   * slot for good or never gets one (section 7.2), so the explicit form's
   * size never changes afterwards.
   */
  reference = false;

  /** The node for these keys followed by `key`, if any. */
  child(key: string): ShapeNode | undefined {
    if (key === this.firstKey) return this.first;
    return this.next?.get(key);
  }

  /** The node for these keys followed by `key`, made if missing. */
  childOrNew(key: string): ShapeNode {
    let node = this.child(key);
    if (node !== undefined) return node;
    node = new ShapeNode();
    if (this.first === undefined) {
      this.firstKey = key;
      this.first = node;
    } else {
      if (this.next === undefined) this.next = new Map();
      this.next.set(key, node);
    }
    return node;
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
