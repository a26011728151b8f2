/**
 * Length-delimited frames, as Rust's `surp::frame` writes and reads them:
 * each document is preceded by its length, 4 bytes little-endian, so that
 * a receiver knows where it ends before decoding it, and refuses one that
 * is too long before buffering it.
 *
 * As in Rust, error offsets count from the start of the frame. The
 * framing is section 10 of the spec (`docs/spec.md`), whose `frames`
 * vectors the tests check.
 *
 * @module
 */

import { SurpError, frameTooLong, lengthExceedsInput, unexpectedEof } from "./errors.js";

/** The length of a frame's prefix. */
export const PREFIX_LEN = 4;

/** A default for the longest frame to accept: 16 MiB. */
export const DEFAULT_MAX_FRAME_LEN = 16 * 2 ** 20;

const MAX_U32 = 0xffffffff;

/** The frame of an encoded document (plain or deduplicated): its length, then the document. */
export function frame(doc: Uint8Array): Uint8Array {
  if (doc.length > MAX_U32) throw frameTooLong(doc.length, MAX_U32);
  const out = new Uint8Array(PREFIX_LEN + doc.length);
  new DataView(out.buffer).setUint32(0, doc.length, true);
  out.set(doc, PREFIX_LEN);
  return out;
}

/**
 * The documents of the frames in `input`, one after another, as views of
 * `input` (not copies). A frame longer than `maxLen` is an error, as is a
 * frame cut short.
 */
export function* readFrames(
  input: Uint8Array,
  maxLen: number = DEFAULT_MAX_FRAME_LEN,
): Generator<Uint8Array, void, undefined> {
  let pos = 0;
  while (pos < input.length) {
    const got = input.length - pos;
    if (got < PREFIX_LEN) throw unexpectedEof(got);
    const len = prefix(input, pos);
    if (len > maxLen) throw frameTooLong(len, maxLen, 0);
    if (got - PREFIX_LEN < len) throw lengthExceedsInput("byte string", len, 0);
    yield input.subarray(pos + PREFIX_LEN, pos + PREFIX_LEN + len);
    pos += PREFIX_LEN + len;
  }
}

function prefix(b: Uint8Array, p: number): number {
  return (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16)) + b[p + 3] * 0x1000000;
}

/**
 * Frames from a stream that arrives in chunks (a socket, a `ReadableStream`):
 * `push` each chunk and get the documents of the frames it completes. A
 * frame's buffer grows only as its bytes arrive, and a frame longer than
 * `maxLen` is refused as soon as its prefix is in: the `push` that meets it
 * throws, or, when it has completed documents before it, returns them and
 * the next call throws. Every call after that throws the same error.
 *
 * ```ts
 * const frames = new FrameReader();
 * socket.on("data", (chunk) => {
 *   for (const doc of frames.push(chunk)) handle(decode(doc));
 * });
 * socket.on("end", () => frames.end());
 * ```
 */
export class FrameReader {
  private buf = new Uint8Array(0);
  private len = 0;
  private failed: SurpError | null = null;

  constructor(private readonly maxLen: number = DEFAULT_MAX_FRAME_LEN) {}

  /** Adds `chunk`; returns the documents (copies) of the frames completed. */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.failed !== null) throw this.failed;
    const docs: Uint8Array[] = [];
    let p = 0;
    while (p < chunk.length) {
      if (this.len < PREFIX_LEN) {
        const n = Math.min(PREFIX_LEN - this.len, chunk.length - p);
        this.append(chunk, p, n);
        p += n;
        if (this.len < PREFIX_LEN) break;
        const len = prefix(this.buf, 0);
        if (len > this.maxLen) {
          // The documents completed before it are returned; the next call
          // throws.
          this.failed = frameTooLong(len, this.maxLen, 0);
          if (docs.length > 0) return docs;
          throw this.failed;
        }
      }
      const want = PREFIX_LEN + prefix(this.buf, 0) - this.len;
      const n = Math.min(want, chunk.length - p);
      this.append(chunk, p, n);
      p += n;
      if (n === want) {
        docs.push(this.buf.slice(PREFIX_LEN, this.len));
        this.len = 0;
      }
    }
    return docs;
  }

  /** Ends the stream: an error if it stopped inside a frame. */
  end(): void {
    if (this.failed !== null) throw this.failed;
    if (this.len === 0) return;
    this.failed = this.len < PREFIX_LEN ? unexpectedEof(this.len) : lengthExceedsInput("byte string", prefix(this.buf, 0), 0);
    throw this.failed;
  }

  private append(chunk: Uint8Array, p: number, n: number): void {
    if (this.len + n > this.buf.length) {
      const grown = new Uint8Array(Math.max(this.len + n, 2 * this.buf.length, 64));
      grown.set(this.buf.subarray(0, this.len));
      this.buf = grown;
    }
    this.buf.set(chunk.subarray(p, p + n), this.len);
    this.len += n;
  }
}
