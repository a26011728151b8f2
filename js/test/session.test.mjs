// Sessions and dictionaries (spec section 9): behaviour the vectors do not
// pin. The vectors themselves are checked in vectors.test.mjs.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  DEFAULT_BUDGET,
  Dictionary,
  DictionaryDecoder,
  DictionaryEncoder,
  SessionDecoder,
  SessionEncoder,
  SurpError,
  decode,
  encode,
} from "../dist/index.js";
import { fromHex, hexOf } from "./notation.mjs";

/** Asserts that `f` throws a SurpError of `kind` (and `session`, for "Session") at `offset`. */
function throwsAt(f, kind, session, offset) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof SurpError, String(e));
    assert.equal(e.kind, kind, e.message);
    assert.equal(e.session, session, e.message);
    assert.equal(e.offset, offset, e.message);
    return true;
  });
}

function logLine(i) {
  return {
    level: i % 7 === 0 ? "warning" : "info",
    service: ["checkout", "payments", "search"][i % 3],
    message: `order ${i % 50} paid`,
    user: { id: i, name: `user-${i % 40}` },
  };
}

test("a decoder reused across many messages, through many tumbles, agrees with the encoder at every step", () => {
  const budget = { strings: 40, shapes: 4, bytes: 3000 };
  const encoder = new SessionEncoder({ budget });
  const decoder = new SessionDecoder({ budget });
  decoder.readHeader(encoder.header());
  let tumbles = 0;
  let previous = 0;
  let referenced = 0;
  for (let i = 0; i < 600; i++) {
    const value = logLine(i);
    const message = encoder.encode(value);
    assert.deepStrictEqual(decoder.decode(message), value, `message ${i}`);
    // Both sides count the same entries and bytes, and so tumble together.
    assert.deepStrictEqual(decoder.usage, encoder.usage, `usage after message ${i}`);
    const used = encoder.usage.strings + encoder.usage.shapes;
    if (used < previous) tumbles++;
    previous = used;
    if (message.length < encode(value, { dedup: true }).length) referenced++;
  }
  assert.equal(encoder.messages, 600n);
  assert.ok(tumbles > 10, `${tumbles} tumbles`);
  assert.ok(referenced > 400, `${referenced} messages shorter than a deduplicated document`);
});

test("the default budget is Rust's DEFAULT_BUDGET, and the header states it", () => {
  assert.deepStrictEqual({ ...DEFAULT_BUDGET }, { strings: 16384, shapes: 2048, bytes: 1048576 });
  assert.equal(hexOf(new SessionEncoder().header()), "f10001" + "00400000" + "00080000" + "00001000" + "00");
  // A decoder with the default budget refuses a header that asks for more.
  const big = new SessionEncoder({ budget: { strings: 16385, shapes: 1, bytes: 1 } });
  throwsAt(() => new SessionDecoder().readHeader(big.header()), "Session", "BudgetTooLarge", 3);
  // Past what a header can state, a budget is capped, as Rust's
  // SessionOptions::budget caps it: the header stays readable.
  const most = { strings: 2 ** 24, shapes: 2 ** 16, bytes: 2 ** 32 - 1 };
  const capped = new SessionEncoder({ budget: { strings: 2 ** 30, shapes: Infinity, bytes: 2 ** 40 } });
  assert.deepStrictEqual(capped.header(), new SessionEncoder({ budget: most }).header());
  assert.equal(hexOf(capped.header()), "f10001" + "00000001" + "00000100" + "ffffffff" + "00");
  const decoder = new SessionDecoder({ budget: { strings: 2 ** 30, shapes: 2 ** 30, bytes: 2 ** 40 } });
  decoder.readHeader(capped.header());
  assert.deepStrictEqual(decoder.decode(capped.encode(["abcd", "abcd"])), ["abcd", "abcd"]);
  // What no budget can be is refused.
  for (const bad of [-1, 1.5, NaN, "10", undefined]) {
    assert.throws(() => new SessionEncoder({ budget: { strings: bad, shapes: 0, bytes: 0 } }), RangeError);
    assert.throws(() => new SessionDecoder({ budget: { strings: 0, shapes: bad, bytes: 0 } }), RangeError);
  }
});

test("after a tumble the next message writes its strings out again, and goes on from there", () => {
  const budget = { strings: 1, shapes: 0, bytes: 4096 };
  const encoder = new SessionEncoder({ budget });
  const decoder = new SessionDecoder({ budget });
  decoder.readHeader(encoder.header());
  const m0 = encoder.encode(["abc", "def", "abc"]); // two slots: past the budget, the tables tumble
  assert.equal(hexOf(m0), "f10100a38361626383646566f300");
  assert.deepStrictEqual(encoder.usage, { strings: 0, shapes: 0, bytes: 0 });
  const m1 = encoder.encode(["abc", "abc"]); // "abc" is a literal again, then a reference
  assert.equal(hexOf(m1), "f10101a283616263f300");
  const m2 = encoder.encode(["abc"]); // one slot is within the budget: still there
  assert.equal(hexOf(m2), "f10102a1f300");
  for (const [m, v] of [[m0, ["abc", "def", "abc"]], [m1, ["abc", "abc"]], [m2, ["abc"]]]) {
    assert.deepStrictEqual(decoder.decode(m), v);
  }
  assert.deepStrictEqual(decoder.usage, { strings: 1, shapes: 0, bytes: 35 });
});

test("a failed message poisons later kind 01 messages until a reset message, which recovers", () => {
  const encoder = new SessionEncoder();
  const decoder = new SessionDecoder();
  decoder.readHeader(encoder.header());
  assert.deepStrictEqual(decoder.decode(encoder.encode({ status: "active" })), { status: "active" });
  const m1 = encoder.encode({ status: "active", n: 1 });
  // The message arrives damaged: it fails, and uses its number.
  throwsAt(() => decoder.decode(m1.subarray(0, m1.length - 1)), "UnexpectedEof", undefined, m1.length - 1);
  const m2 = encoder.encode({ status: "active" });
  throwsAt(() => decoder.decode(m2), "Session", "Broken", 0);
  // Its number is still checked first: a replay of message 1 is out of order.
  throwsAt(() => decoder.decode(m1), "Session", "Sequence", 2);
  // The application learns of the failure and resets the encoder.
  encoder.reset();
  const m3 = encoder.encode({ status: "active", n: 3 });
  assert.equal(m3[1], 0x02, "a reset message");
  assert.equal(m3[2], 3, "numbers go on");
  assert.deepStrictEqual(decoder.decode(m3), { status: "active", n: 3 });
  // From then on the session works again, with references to message 3.
  const m4 = encoder.encode({ status: "active", n: 4 });
  assert.equal(m4[1], 0x01);
  assert.ok(m4.length < m3.length);
  assert.deepStrictEqual(decoder.decode(m4), { status: "active", n: 4 });
});

test("a message out of order is not a failed one: the tables stay and the next number is still expected", () => {
  const encoder = new SessionEncoder();
  const decoder = new SessionDecoder();
  decoder.readHeader(encoder.header());
  const m0 = encoder.encode(["hello", "world"]);
  const m1 = encoder.encode(["hello", "world"]);
  const m2 = encoder.encode(["hello", "again"]);
  decoder.decode(m0);
  throwsAt(() => decoder.decode(m2), "Session", "Sequence", 2); // m1 is late
  throwsAt(() => decoder.decode(m0), "Session", "Sequence", 2); // a replay
  assert.deepStrictEqual(decoder.decode(m1), ["hello", "world"]);
  assert.deepStrictEqual(decoder.decode(m2), ["hello", "again"]);
  // A second header is refused at byte 1 and changes nothing.
  throwsAt(() => decoder.decode(encoder.header()), "Session", "UnexpectedHeader", 1);
  assert.deepStrictEqual(decoder.decode(encoder.encode(["again"])), ["again"]);
});

test("a value the encoder cannot write takes no number, and the next message resets", () => {
  const encoder = new SessionEncoder();
  const decoder = new SessionDecoder();
  decoder.readHeader(encoder.header());
  decoder.decode(encoder.encode({ status: "active" }));
  // The failed value adds a string and a shape before it fails: the
  // decoder never sees them, so the next message must not refer to them.
  const unsent = "written only in the message that failed";
  assert.throws(() => encoder.encode({ note: unsent, other: unsent, f: () => 0 }), SurpError);
  assert.equal(encoder.messages, 1n);
  const next = encoder.encode({ note: unsent, other: unsent });
  assert.equal(hexOf(next.subarray(0, 3)), "f10201");
  assert.ok(hexOf(next).includes(hexOf(new TextEncoder().encode(unsent))), "the string is written out again");
  assert.deepStrictEqual(decoder.decode(next), { note: unsent, other: unsent });
  assert.equal(encoder.encode({ status: "active" })[1], 0x01);
});

test("an encode from inside an encode is refused and leaves the message under way intact", () => {
  const encoder = new SessionEncoder();
  const decoder = new SessionDecoder();
  decoder.readHeader(encoder.header());
  let inner = null;
  const sneaky = {
    toJSON() {
      try {
        encoder.encode(["inner"]);
      } catch (e) {
        inner = e;
      }
      return "x";
    },
  };
  // A getter that re-enters between the strings of the outer message.
  const value = ["aaaa", { get g() { return sneaky.toJSON(); } }, "bbbb", "bbbb"];
  const message = encoder.encode(value);
  assert.ok(inner instanceof SurpError && inner.kind === "Message", String(inner));
  assert.deepStrictEqual(decoder.decode(message), ["aaaa", { g: "x" }, "bbbb", "bbbb"]);
  assert.deepStrictEqual(decoder.decode(encoder.encode(["aaaa", "bbbb"])), ["aaaa", "bbbb"]);

  const dictionary = new Dictionary(["alpha"], []);
  const documents = new DictionaryEncoder(dictionary);
  let refused = null;
  const doc = documents.encode([
    "cccc",
    { get g() { try { documents.encode(["inner"]); } catch (e) { refused = e; } return "y"; } },
    "dddd",
    "dddd",
  ]);
  assert.ok(refused instanceof SurpError && refused.kind === "Message", String(refused));
  assert.deepStrictEqual(dictionary.decode(doc), ["cccc", { g: "y" }, "dddd", "dddd"]);
});

test("a dictionary of a sparse array is refused as invalid, not with a TypeError", () => {
  // eslint-disable-next-line no-sparse-arrays
  assert.throws(() => new Dictionary([, "abc"], []), (e) => e instanceof SurpError && e.session === "InvalidDictionary");
  // eslint-disable-next-line no-sparse-arrays
  assert.throws(() => new Dictionary([], [[, "abc"]]), (e) => e instanceof SurpError && e.session === "InvalidDictionary");
});

test("sequence numbers past 2^53 are exact", () => {
  const decoder = new SessionDecoder();
  decoder.readHeader(new SessionEncoder().header());
  const big = 2n ** 60n;
  const msg = (kind, n) => {
    const bytes = [0xf1, kind, 0xdf];
    for (let i = 0n; i < 64n; i += 8n) bytes.push(Number((n >> i) & 0xffn));
    bytes.push(0xe8);
    return new Uint8Array(bytes);
  };
  assert.equal(decoder.decode(msg(2, big)), null);
  throwsAt(() => decoder.decode(msg(1, big + 2n)), "Session", "Sequence", 2);
  assert.equal(decoder.decode(msg(1, big + 1n)), null);
  throwsAt(() => decoder.decode(msg(1, big + 1n)), "Session", "Sequence", 2);
});

test("the expansion limit applies to each message on its own, counted from its first byte", () => {
  const options = { maxExpansion: { ratio: 1, base: 50 } };
  const decoder = new SessionDecoder(options);
  decoder.readHeader(new SessionEncoder().header());
  decoder.decode(fromHex("f10100" + "94" + "61".repeat(20))); // a 20-byte string takes slot 0
  // Three references of 20 bytes: 60 <= 10 + 50 at the third; the same again in the next message.
  assert.deepStrictEqual(decoder.decode(fromHex("f10101a3f300f300f300")), ["a".repeat(20), "a".repeat(20), "a".repeat(20)]);
  assert.equal(decoder.decode(fromHex("f10102a3f300f300f300")).length, 3);
  // With a smaller base the second reference passes it, at its first byte.
  const strict = new SessionDecoder({ maxExpansion: { ratio: 1, base: 30 } });
  strict.readHeader(new SessionEncoder().header());
  strict.decode(fromHex("f10100" + "94" + "61".repeat(20)));
  throwsAt(() => strict.decode(fromHex("f10101a3f300f300f300")), "AllocationLimitExceeded", undefined, 6);
});

test("a session with a dictionary starts from it, and tumbles back to it", () => {
  const dictionary = new Dictionary(["checkout", "payments", "level", "service"], [["level", "service"]]);
  const budget = { strings: 2, shapes: 2, bytes: 4096 };
  const encoder = new SessionEncoder({ budget, dictionary });
  const decoder = new SessionDecoder({ budget, dictionary });
  decoder.readHeader(encoder.header());
  const first = encoder.encode({ level: "info", service: "checkout" });
  assert.equal(hexOf(first), "f10100c08469" + "6e666ff300");
  assert.deepStrictEqual(decoder.decode(first), { level: "info", service: "checkout" });
  for (let i = 0; i < 50; i++) {
    const value = { level: `level ${i % 5}`, service: i % 2 ? "payments" : `svc-${i}` };
    assert.deepStrictEqual(decoder.decode(encoder.encode(value)), value);
    assert.deepStrictEqual(decoder.usage, encoder.usage);
  }
  // A decoder without the dictionary, or with another one, refuses the header at the flag.
  throwsAt(() => new SessionDecoder().readHeader(encoder.header()), "Session", "WrongDictionary", 15);
  const other = new Dictionary(["checkout"]);
  throwsAt(() => new SessionDecoder({ dictionary: other }).readHeader(encoder.header()), "Session", "WrongDictionary", 15);
});

test("dictionaries: the stored form loads back, documents do not share their additions, and others are refused", () => {
  // "id" may be a key only as one of the strings: it is long enough to take slot 2.
  throwsAt(() => new Dictionary(["status", "active"], [["id", "status"]]), "Session", "InvalidDictionary", undefined);
  const dict = new Dictionary(["status", "active", "id"], [["id", "status"]]);
  const loaded = Dictionary.fromBytes(dict.toBytes());
  assert.equal(loaded.id, dict.id);
  assert.equal(loaded.idHex, dict.id.toString(16).padStart(16, "0"));
  const doc = dict.encode({ id: 7, status: "active" });
  assert.equal(hexOf(doc.subarray(10)), "c007f301");
  assert.deepStrictEqual(loaded.decode(doc), { id: 7, status: "active" });
  // A string added by one document is not in the next one's tables.
  const a = dict.encode(["hello world", "hello world"]);
  const b = dict.encode(["hello world"]);
  assert.equal(hexOf(b.subarray(10)), "a18b68656c6c6f20776f726c64");
  assert.deepStrictEqual(dict.decode(a), ["hello world", "hello world"]);
  assert.deepStrictEqual(dict.decode(b), ["hello world"]);
  // A plain decoder refuses the session prefix at byte 0.
  throwsAt(() => decode(doc), "ReservedTag", undefined, 0);
  // Another dictionary's decoder refuses it at the id; a plain document at byte 0.
  throwsAt(() => new DictionaryDecoder(new Dictionary(["status"])).decode(doc), "Session", "WrongDictionary", 2);
  throwsAt(() => dict.decode(encode([1])), "Session", "NotASessionDocument", 0);
  // A session decoder refuses a dictionary document at byte 1.
  const session = new SessionDecoder({ dictionary: dict });
  session.readHeader(new SessionEncoder({ dictionary: dict }).header());
  throwsAt(() => session.decode(doc), "Session", "UnknownKind", 1);
  // Things that are not a dictionary's strings and shapes.
  throwsAt(() => new Dictionary(["ok", 5]), "Session", "InvalidDictionary", undefined);
  throwsAt(() => new Dictionary([], ["id"]), "Session", "InvalidDictionary", undefined);
  throwsAt(() => Dictionary.fromBytes(encode({ surp_dictionary: 1, strings: [], shapes: [] }, { dedup: true }).slice(0, 5)), "Session", "InvalidDictionary", undefined);
});
