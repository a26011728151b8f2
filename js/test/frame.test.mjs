// Frames as Rust's surp::frame writes them: a 4-byte little-endian
// length, then the document.

import assert from "node:assert/strict";
import { test } from "node:test";

import { DEFAULT_MAX_FRAME_LEN, FrameReader, SurpError, decode, encode, encodeFrame, frame, readFrames } from "../dist/index.js";

function throwsSurp(fn, kind, offset) {
  assert.throws(fn, (e) => e instanceof SurpError && e.kind === kind && e.offset === offset);
}

test("a frame is the document's length, then the document", () => {
  // What Rust's frame::write_frame writes for ("ping", 1u8).
  const f = encodeFrame(["ping", 1]);
  assert.deepEqual([...f], [7, 0, 0, 0, 0xa2, 0x84, 0x70, 0x69, 0x6e, 0x67, 0x01]);
  assert.deepEqual(frame(encode(["ping", 1])), f);
  assert.equal(DEFAULT_MAX_FRAME_LEN, 16 * 1024 * 1024);
});

test("frames read back one after another, deduplicated ones too", () => {
  const wire = new Uint8Array([...encodeFrame(["ping", 1]), ...encodeFrame(["pong", "pong"], { dedup: true }), ...encodeFrame(null)]);
  const docs = [...readFrames(wire)].map((d) => decode(d));
  assert.deepEqual(docs, [["ping", 1], ["pong", "pong"], null]);
});

test("a frame over the limit is refused before it is read, a cut one is an end of input", () => {
  const wire = encodeFrame(["ping", 1]);
  throwsSurp(() => [...readFrames(wire, 5)], "FrameTooLong", 0);
  throwsSurp(() => [...readFrames(wire.subarray(0, 3))], "UnexpectedEof", 3);
  throwsSurp(() => [...readFrames(wire.subarray(0, 8))], "LengthExceedsInput", 0);
  assert.deepEqual([...readFrames(new Uint8Array(0))], []);
});

test("FrameReader: frames from chunks of any size", () => {
  const values = [["ping", 1], { big: "x".repeat(300) }, [], ["pong", "pong"]];
  const wire = new Uint8Array(values.flatMap((v) => [...encodeFrame(v, { dedup: true })]));
  for (const size of [1, 2, 3, 5, 64, wire.length]) {
    const reader = new FrameReader();
    const got = [];
    for (let p = 0; p < wire.length; p += size) {
      for (const doc of reader.push(wire.subarray(p, p + size))) got.push(decode(doc));
    }
    reader.end();
    assert.deepEqual(got, values, `chunks of ${size}`);
  }
});

test("FrameReader: a stream that ends inside a frame, or announces too long a one", () => {
  const wire = encodeFrame(["ping", 1]);
  const cutPrefix = new FrameReader();
  cutPrefix.push(wire.subarray(0, 2));
  throwsSurp(() => cutPrefix.end(), "UnexpectedEof", 2);
  // After the stream has failed, the reader stays failed.
  throwsSurp(() => cutPrefix.push(wire.subarray(2)), "UnexpectedEof", 2);
  const cutDoc = new FrameReader();
  cutDoc.push(wire.subarray(0, 6));
  throwsSurp(() => cutDoc.end(), "LengthExceedsInput", 0);
  const strict = new FrameReader(5);
  throwsSurp(() => strict.push(wire.subarray(0, 4)), "FrameTooLong", 0);
  throwsSurp(() => strict.push(wire.subarray(4)), "FrameTooLong", 0);
});

test("FrameReader: the documents before a refused frame are returned, the next call throws", () => {
  const ping = encodeFrame(["ping", 1]);
  const reader = new FrameReader(7);
  const tooLong = new Uint8Array([8, 0, 0, 0]);
  const docs = reader.push(new Uint8Array([...ping, ...tooLong]));
  assert.deepEqual(docs.map((d) => decode(d)), [["ping", 1]]);
  throwsSurp(() => reader.push(new Uint8Array(0)), "FrameTooLong", 0);
  throwsSurp(() => reader.end(), "FrameTooLong", 0);
});
