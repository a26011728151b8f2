/**
 * Wrappers for the parts of serde's data model that JavaScript values
 * cannot say on their own: `Option::Some` around a null (spec section 5.3),
 * and a map as its list of entries, which keeps duplicate keys (section 4).
 * (The third, a float that is integral, is {@link Float}.)
 *
 * @module
 */

/**
 * serde's `Option::Some`. `new Some(x)` is written as `x` itself, unless
 * the innermost content of a chain of `Some`s is null (or `undefined`);
 * then every `Some` of the chain is written as a `some` tag (`0xeb`), so
 * that `Some(None)` stays apart from `None`. The decoder never returns a
 * `Some`: it has no `Option`, and reads the content after the tag.
 */
export class Some<T = unknown> {
  constructor(readonly value: T) {}
}

/**
 * A map as its entries, in order, duplicate keys included. It encodes as a
 * map of exactly these pairs; the decoder returns maps this way with
 * `mapsAs: "entries"`.
 */
export class Entries {
  constructor(readonly entries: [unknown, unknown][]) {}
}

/**
 * What a value is written as: a chain of `Some`s around anything but null
 * is its content; around null it stays, to be written as `some` tags.
 */
export function unwrapSome(v: unknown): unknown {
  let inner = v;
  while (inner instanceof Some) inner = inner.value;
  return inner === null || inner === undefined ? v : inner;
}
