/**
 * A trie of key sequences: the encoder's shape table and the decoder's
 * record functions are both found by walking a map's keys in order, one
 * node per key, without building a string of the keys.
 *
 * @module
 */

export abstract class KeyTrie {
  /**
   * The first key that continued these keys, and its node: most sequences
   * go on one way (a record type's next field), which a comparison finds
   * without hashing.
   */
  private firstKey: string | undefined = undefined;
  private first: this | undefined = undefined;
  /** The nodes of the other sequences one key longer. */
  private next: Map<string, this> | undefined = undefined;

  /** A new node of the same kind, for these keys followed by `key`. */
  protected abstract make(key: string): this;

  /** The node of the key that most likely comes next: the first one seen after these keys. */
  get likelyNode(): this | undefined {
    return this.first;
  }

  /** The node for these keys followed by `key`, if any. */
  child(key: string): this | undefined {
    if (key === this.firstKey) return this.first;
    return this.next?.get(key);
  }

  /** The node for these keys followed by `key`, made if missing. */
  childOrNew(key: string): this {
    let node = this.child(key);
    if (node !== undefined) return node;
    node = this.make(key);
    if (this.first === undefined) {
      this.firstKey = key;
      this.first = node;
    } else {
      if (this.next === undefined) this.next = new Map();
      this.next.set(key, node);
    }
    return node;
  }

  /** The node of `keys[from..to)` below this one, if any. */
  find(keys: readonly string[], from: number, to: number): this | undefined {
    let node: this | undefined = this;
    for (let i = from; i < to && node !== undefined; i++) node = node.child(keys[i]);
    return node;
  }
}
