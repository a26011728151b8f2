/**
 * Surp for JavaScript: a self-describing binary serialization format with
 * deduplication of repeated strings and map shapes. See `README.md` for the
 * mapping between JavaScript values and Surp, and `docs/spec.md` in the
 * repository for the format.
 *
 * ```ts
 * import { encode, decode } from "surp";
 *
 * const bytes = encode({ name: "surp", tags: ["binary", "serde"] }, { dedup: true });
 * const value = decode(bytes);
 * ```
 *
 * @module
 */

import { type Input, Decoder } from "./decode.js";
import { Encoder } from "./encode.js";
import { frame } from "./frame.js";
import type { DecodeOptions, EncodeOptions } from "./options.js";

export { Decoder, type Input } from "./decode.js";
export { Encoder } from "./encode.js";
export { type Category, type ErrorKind, type SessionErrorKind, SurpError } from "./errors.js";
export {
  Dictionary,
  DictionaryDecoder,
  DictionaryEncoder,
  type DictionaryEncodeOptions,
} from "./dictionary.js";
export {
  type Budget,
  DEFAULT_BUDGET,
  SessionDecoder,
  type SessionDecoderOptions,
  SessionEncoder,
  type SessionEncoderOptions,
  type SessionOptions,
  type TableUsage,
} from "./session.js";
export { Float } from "./float.js";
export { Entries, Some } from "./value.js";
export { DEFAULT_MAX_FRAME_LEN, FrameReader, PREFIX_LEN, frame, readFrames } from "./frame.js";
export {
  DEFAULT_EXPANSION_BASE,
  DEFAULT_EXPANSION_RATIO,
  DEFAULT_MAX_ALLOC,
  DEFAULT_MAX_DEDUP_SHAPES,
  DEFAULT_MAX_DEDUP_STRINGS,
  DEFAULT_MAX_DEPTH,
  type DecodeOptions,
  type EncodeOptions,
} from "./options.js";

const defaultEncoder = new Encoder();
const defaultDecoder = new Decoder();
// One encoder or decoder per options object, so that a caller who passes
// the same options every time gets the buffers and caches kept.
const encoders = new WeakMap<EncodeOptions, Encoder>();
const decoders = new WeakMap<DecodeOptions, Decoder>();

function encoderFor(options: EncodeOptions | undefined): Encoder {
  if (options === undefined) return defaultEncoder;
  let e = encoders.get(options);
  if (e === undefined) {
    e = new Encoder(options);
    encoders.set(options, e);
  }
  return e;
}

function decoderFor(options: DecodeOptions | undefined): Decoder {
  if (options === undefined) return defaultDecoder;
  let d = decoders.get(options);
  if (d === undefined) {
    d = new Decoder(options);
    decoders.set(options, d);
  }
  return d;
}

/** Encodes `value` as a Surp document (deduplicated with `{ dedup: true }`). */
export function encode(value: unknown, options?: EncodeOptions): Uint8Array {
  return encoderFor(options).encode(value);
}

/** Decodes the one document that fills `input`. */
export function decode(input: Input, options?: DecodeOptions): unknown {
  return decoderFor(options).decode(input);
}

/** Decodes the documents of `input`, one after another. */
export function decodeMultiple(input: Input, options?: DecodeOptions): Generator<unknown, void, undefined> {
  return decoderFor(options).decodeMultiple(input);
}

/** Decodes every document of `input` into an array. */
export function decodeAll(input: Input, options?: DecodeOptions): unknown[] {
  return Array.from(decoderFor(options).decodeMultiple(input));
}

/** Encodes `value` as one frame: the document's length (4 bytes, little-endian), then the document. */
export function encodeFrame(value: unknown, options?: EncodeOptions): Uint8Array {
  return frame(encoderFor(options).encode(value));
}
