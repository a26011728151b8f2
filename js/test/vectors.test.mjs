// Conformance: every list of docs/vectors/surp-v2.json, both ways where
// the list means both ways.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  DEFAULT_MAX_FRAME_LEN,
  Dictionary,
  DictionaryDecoder,
  DictionaryEncoder,
  FrameReader,
  SessionDecoder,
  SessionEncoder,
  SurpError,
  decode,
  encode,
  frame,
  readFrames,
} from "../dist/index.js";
import { bytesOfHex, fnv1a64, hexOf, normalize, toJs, toNotation } from "./notation.mjs";

const vectors = JSON.parse(readFileSync(new URL("../../docs/vectors/surp-v2.json", import.meta.url), "utf8"));

/** Decoding options that keep everything a vector can say: floats apart from integers, every map entry. */
const EXACT = { mapsAs: "entries", wrapFloats: true };
const DEDUP = { dedup: true };

function decodesTo(bytes, expected, name) {
  const got = toNotation(decode(bytes, EXACT));
  assert.deepStrictEqual(got, normalize(expected, true), name);
}

function rejects(bytes, kind, offset, name) {
  assert.throws(
    () => decode(bytes),
    (e) => {
      assert.ok(e instanceof SurpError, `${name}: ${e}`);
      assert.equal(e.kind, kind, `${name}: ${e.message}`);
      assert.equal(e.offset, offset, `${name}: ${e.message}`);
      return true;
    },
  );
}

for (const list of ["vectors", "dedup", "deep"]) {
  const options = list === "dedup" ? DEDUP : undefined;
  test(`${list}: the encoder writes each vector's bytes`, () => {
    for (const v of vectors[list]) {
      const got = hexOf(encode(toJs(normalize(v.value, false)), options));
      assert.equal(got, hexOf(bytesOfHex(v.hex)), v.name);
    }
  });
  test(`${list}: the decoder reads each vector's value`, () => {
    for (const v of vectors[list]) decodesTo(bytesOfHex(v.hex), v.decodes_as ?? v.value, v.name);
  });
}

test("decode_only: the decoder reads the non-canonical forms", () => {
  for (const v of vectors.decode_only) decodesTo(bytesOfHex(v.hex), v.value, v.name);
});

test("dedup_large: length, hash and tail of the deduplicated document", () => {
  for (const v of vectors.dedup_large) {
    const value = normalize(v.value, false);
    const doc = encode(toJs(value), DEDUP);
    assert.equal(doc.length, v.len, v.name);
    assert.equal(fnv1a64(doc), v.fnv1a64, v.name);
    assert.equal(hexOf(doc.subarray(doc.length - v.tail.length / 2)), v.tail, v.name);
    decodesTo(doc, v.value, v.name);
  }
});

test("dedup_limited: an encoder with smaller tables", () => {
  for (const v of vectors.dedup_limited) {
    const options = { dedup: true, maxStrings: v.limits.strings, maxShapes: v.limits.shapes };
    const got = hexOf(encode(toJs(normalize(v.value, false)), options));
    assert.equal(got, hexOf(bytesOfHex(v.hex)), v.name);
    decodesTo(bytesOfHex(v.hex), v.value, v.name);
  }
});

test("limits: the document at the baseline limits decodes, the one past them fails there", () => {
  for (const v of vectors.limits) {
    const bytes = bytesOfHex(v.hex);
    if ("value" in v) decodesTo(bytes, v.value, v.name);
    else rejects(bytes, v.error, v.offset, v.name);
  }
});

test("invalid: each is rejected with the reference's kind and offset", () => {
  for (const v of vectors.invalid) rejects(bytesOfHex(v.hex), v.error, v.offset, v.name);
});

/**
 * What a frame reader does with `bytes` (limit `maxLen`): the documents it
 * delivers, as hex, and the error it ends with, if any. `read` gives it
 * the bytes and returns the documents, throwing at the error.
 */
function framesRead(read) {
  const docs = [];
  try {
    read(docs);
    return { docs, error: null };
  } catch (e) {
    assert.ok(e instanceof SurpError, String(e));
    return { docs, error: e };
  }
}

test("frames: each stream is written and read as listed, whole and a byte at a time", () => {
  for (const v of vectors.frames) {
    const bytes = bytesOfHex(v.hex);
    const maxLen = v.max_len ?? DEFAULT_MAX_FRAME_LEN;
    if (!("error" in v)) {
      const written = v.documents.map((d) => [...frame(bytesOfHex(d))]).flat();
      assert.equal(hexOf(new Uint8Array(written)), hexOf(bytes), v.name);
    }
    const whole = framesRead((docs) => {
      for (const d of readFrames(bytes, maxLen)) docs.push(hexOf(d));
    });
    const chunked = framesRead((docs) => {
      const reader = new FrameReader(maxLen);
      for (let i = 0; i < bytes.length; i++) for (const d of reader.push(bytes.subarray(i, i + 1))) docs.push(hexOf(d));
      reader.end();
    });
    for (const [how, got] of [["whole", whole], ["byte by byte", chunked]]) {
      assert.deepStrictEqual(got.docs, v.documents.map((d) => hexOf(bytesOfHex(d))), `${v.name} (${how})`);
      if ("error" in v) {
        assert.ok(got.error !== null, `${v.name} (${how}): no error`);
        assert.equal(got.error.kind, v.error, `${v.name} (${how}): ${got.error.message}`);
        assert.equal(got.error.offset, v.offset, `${v.name} (${how}): ${got.error.message}`);
      } else {
        assert.equal(got.error, null, `${v.name} (${how})`);
      }
    }
  }
});

/** Every proper prefix of short documents; of long ones, the first and last 256 and some between. */
function prefixLengths(n) {
  if (n <= 2048) return Array.from({ length: n }, (_, i) => i);
  const lens = new Set();
  for (let i = 0; i < 256; i++) {
    lens.add(i);
    lens.add(n - 1 - i);
  }
  for (let i = 1; i < 256; i++) lens.add(Math.floor((n * i) / 256));
  lens.delete(n);
  return [...lens];
}

test("a proper prefix of any valid document is an end-of-input error", () => {
  let checked = 0;
  for (const list of ["vectors", "decode_only", "dedup", "deep", "dedup_limited", "limits"]) {
    for (const v of vectors[list]) {
      if (!("value" in v)) continue;
      const bytes = bytesOfHex(v.hex);
      for (const len of prefixLengths(bytes.length)) {
        assert.throws(
          () => decode(bytes.subarray(0, len)),
          (e) => e instanceof SurpError && e.category === "Eof",
          `${v.name}, cut at ${len}`,
        );
        checked++;
      }
    }
  }
  assert.ok(checked > 1000);
});

// Sessions and dictionaries (spec section 9). A vector's error `Session(X)`
// is a SurpError of kind "Session" whose `session` is "X" (the Rust
// `ErrorKind::Session(SessionError::X)`); any other is the kind itself.

/** An error as the vectors name it. */
function vectorError(e) {
  return e.kind === "Session" ? `Session(${e.session})` : e.kind;
}

/** Asserts that `f` throws the SurpError `error` at `offset` (null: no offset). */
function throwsAt(f, error, offset, name) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof SurpError, `${name}: ${e}`);
    assert.equal(vectorError(e), error, `${name}: ${e.message}`);
    assert.equal(e.offset, offset ?? undefined, `${name}: ${e.message}`);
    return true;
  });
}

const dictionaries = vectors.dictionaries.map((d) => new Dictionary(d.strings, d.shapes));

test("dictionaries: stored form, id, and each document both ways", () => {
  let documents = 0;
  vectors.dictionaries.forEach((v, i) => {
    const dict = dictionaries[i];
    assert.equal(hexOf(dict.toBytes()), hexOf(bytesOfHex(v.hex)), v.name);
    assert.equal(dict.idHex, v.id, v.name);
    assert.equal(fnv1a64(dict.toBytes()), v.id, v.name);
    // Loading the stored form gives the same dictionary.
    const loaded = Dictionary.fromBytes(bytesOfHex(v.hex));
    assert.deepStrictEqual([loaded.strings, loaded.shapes, loaded.id], [dict.strings, dict.shapes, dict.id], v.name);
    const encoder = new DictionaryEncoder(dict);
    const decoder = new DictionaryDecoder(loaded, EXACT);
    for (const d of v.documents) {
      const value = toJs(normalize(d.value, false));
      const hex = hexOf(bytesOfHex(d.hex));
      assert.equal(hexOf(encoder.encode(value)), hex, `${v.name}: ${JSON.stringify(d.value)}`);
      assert.equal(hexOf(dict.encode(value)), hex, `${v.name}: ${JSON.stringify(d.value)}`);
      const got = toNotation(decoder.decode(bytesOfHex(d.hex)));
      assert.deepStrictEqual(got, normalize(d.value, true), `${v.name}: ${d.hex}`);
      documents++;
    }
  });
  assert.ok(vectors.dictionaries.length >= 6 && documents >= 12);
});

function sessionOptions(budget, dictionary) {
  return dictionary === null ? { budget } : { budget, dictionary: dictionaries[dictionary] };
}

test("sessions: the encoder writes the header and each message; the decoder reads them", () => {
  let messages = 0;
  for (const v of vectors.sessions) {
    const options = sessionOptions(v.budget, v.dictionary);
    const encoder = new SessionEncoder(options);
    const decoder = new SessionDecoder({ ...options, ...EXACT });
    assert.equal(hexOf(encoder.header()), v.header, v.name);
    decoder.readHeader(bytesOfHex(v.header));
    v.messages.forEach((m, i) => {
      if (m.reset) encoder.reset();
      const hex = hexOf(bytesOfHex(m.hex));
      assert.equal(hexOf(encoder.encode(toJs(normalize(m.value, false)))), hex, `${v.name}: message ${i}`);
      const got = toNotation(decoder.decode(bytesOfHex(m.hex)));
      assert.deepStrictEqual(got, normalize(m.value, true), `${v.name}: message ${i}`);
      messages++;
    });
    assert.equal(encoder.messages, BigInt(v.messages.length), v.name);
  }
  assert.ok(messages > 50);
});

test("session_invalid: each is rejected with the reference's error and offset", () => {
  const forms = { documents: 0, document: 0, stored: 0 };
  for (const v of vectors.session_invalid) {
    if ("documents" in v) {
      forms.documents++;
      const decoder = new SessionDecoder(sessionOptions(v.limit, v.dictionary));
      let header = false;
      const read = (bytes) => {
        if (header) return decoder.decode(bytes);
        decoder.readHeader(bytes);
        header = true;
      };
      const last = v.documents.length - 1;
      v.documents.forEach((d, i) => {
        const name = `${v.name}: document ${i}`;
        if (typeof d === "object") throwsAt(() => read(bytesOfHex(d.hex)), d.error, d.offset, name);
        else if (i < last) read(bytesOfHex(d));
        else throwsAt(() => read(bytesOfHex(d)), v.error, v.offset, name);
      });
    } else if ("document" in v) {
      forms.document++;
      const decoder = new DictionaryDecoder(dictionaries[v.dictionary]);
      throwsAt(() => decoder.decode(bytesOfHex(v.document)), v.error, v.offset, v.name);
      throwsAt(() => dictionaries[v.dictionary].decode(bytesOfHex(v.document)), v.error, v.offset, v.name);
    } else {
      forms.stored++;
      throwsAt(() => Dictionary.fromBytes(bytesOfHex(v.stored)), v.error, v.offset, v.name);
      if ("strings" in v) throwsAt(() => new Dictionary(v.strings, v.shapes), v.error, v.offset, v.name);
    }
  }
  assert.ok(forms.documents > 0 && forms.document > 0 && forms.stored > 0, JSON.stringify(forms));
});

const CHECKED = [
  "vectors",
  "decode_only",
  "dedup",
  "deep",
  "dedup_large",
  "dedup_limited",
  "limits",
  "frames",
  "invalid",
  "dictionaries",
  "sessions",
  "session_invalid",
];

test("every list of the vectors file is checked", () => {
  const lists = Object.keys(vectors).filter((key) => Array.isArray(vectors[key]));
  assert.deepStrictEqual(lists.sort(), [...CHECKED].sort());
});
