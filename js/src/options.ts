/**
 * Options of the encoder and the decoder, with the defaults of the Rust
 * crates: the decoder's limits are `surp::Options`' (the baseline limits of
 * spec section 7.4), the deduplicating encoder's table sizes
 * `surp_dedup::Options`' (the standard limits of section 7.1).
 *
 * @module
 */

/** Default `maxDepth`: the nesting every decoder reads (spec section 4). */
export const DEFAULT_MAX_DEPTH = 128;
/** Default `maxAlloc`: 1 GiB. */
export const DEFAULT_MAX_ALLOC = 2 ** 30;
/** Default ratio of `maxExpansion`. */
export const DEFAULT_EXPANSION_RATIO = 64;
/** Default base of `maxExpansion`: 1 MiB. */
export const DEFAULT_EXPANSION_BASE = 2 ** 20;
/** Default `maxDedupStrings` and `maxStrings`. */
export const DEFAULT_MAX_DEDUP_STRINGS = 2 ** 20;
/** Default `maxDedupShapes` and `maxShapes`. */
export const DEFAULT_MAX_DEDUP_SHAPES = 2 ** 16;

import type { Entries } from "./value.js";

/** Options of `decode`, `decodeMultiple` and `Decoder`. */
export interface DecodeOptions {
  /**
   * The deepest nesting of arrays, maps and `some` tags followed (default
   * 128): a nesting token enclosed by `maxDepth` others is an error.
   */
  maxDepth?: number;
  /** The longest string, byte string, array or map accepted (default: no limit but the input's). */
  maxLen?: number;
  /**
   * The most a document may hold (default 1 GiB): the ceiling on what its
   * references expand to, and the longest string or byte string accepted.
   */
  maxAlloc?: number;
  /**
   * The proportional limit on what references may expand a document to
   * (default `{ ratio: 64, base: 1 MiB }`): at any reference, the strings and
   * keys that the references so far stand for may add up to at most `ratio`
   * times the bytes of the document read so far plus `base`.
   */
  maxExpansion?: { ratio: number; base: number };
  /** The most string slots a deduplicated document may define (default 2^20). */
  maxDedupStrings?: number;
  /** The most shapes a deduplicated document may define (default 2^16). */
  maxDedupShapes?: number;
  /**
   * What maps decode to. `"auto"` (the default): a map whose keys are all
   * strings is a plain object, any other map a `Map`. `"map"`: always a
   * `Map`. `"entries"`: always an {@link Entries}, which keeps every pair
   * in order, duplicate keys included (objects and `Map`s keep the last
   * value of a repeated key).
   */
  mapsAs?: "auto" | "map" | "entries";
  /**
   * Decode every float as a {@link Float} (default `false`: floats are
   * numbers), so that an integral float is told from an integer and a NaN
   * keeps its payload.
   */
  wrapFloats?: boolean;
  /**
   * Copy every byte string out of the input (default `false`: a byte
   * string is a `Uint8Array` view of the input, as msgpackr and cbor-x
   * give, which costs nothing but shares the input's memory: a change to
   * the input shows in the value, and the value keeps the input alive).
   */
  copyBytes?: boolean;
}

/** Options of `encode` and `Encoder`. */
export interface EncodeOptions {
  /**
   * Write a deduplicated document (spec section 7): `true` for strings and
   * shapes, the bytes of Rust's `surp_dedup::to_vec`; `"shapes"` for
   * shapes only, every string written out (`dedup_strings(false)`); `false`
   * (the default) for a plain document.
   */
  dedup?: boolean | "shapes";
  /** The most string slots the deduplicating encoder adds (default 2^20). */
  maxStrings?: number;
  /** The most shapes the deduplicating encoder adds (default 2^16). */
  maxShapes?: number;
  /** The deepest nesting written (default 128); deeper values are an error. */
  maxDepth?: number;
  /**
   * Leave out the properties of objects whose value is `undefined`, as
   * `JSON.stringify` does (default `false`: they are written as null).
   */
  ignoreUndefined?: boolean;
}
