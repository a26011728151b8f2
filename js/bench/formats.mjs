// The formats the JavaScript benchmark measures: for each, the package, how
// it is called, and the value it is given. Every codec object is made once
// per format and reused, as a program that encodes many messages would.

import { readFileSync } from "node:fs";

import { Decoder as MsgpackDecoder, Encoder as MsgpackEncoder } from "@msgpack/msgpack";
import { CborDecoder, CborEncoder } from "@jsonjoy.com/json-pack/lib/cbor/index.js";
import { MsgPackDecoderFast, MsgPackEncoder } from "@jsonjoy.com/json-pack/lib/msgpack/index.js";
import { Decoder as CborXDecoder, Encoder as CborXEncoder, isNativeAccelerationEnabled as cborXNative } from "cbor-x";
import { Packr, isNativeAccelerationEnabled as msgpackrNative } from "msgpackr";

import { Decoder, Encoder } from "../dist/index.js";

/** A package's installed version, from its package.json (not every package exports that file). */
const version = (pkg) => JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), "utf8")).version;

/**
 * `value` with integers beyond 2^53 as the nearest number, which is what
 * `JSON.parse` gives for them, and, with `base64Bytes`, bytes as base64
 * text (JSON has no bytes type; the Rust harness writes them the same way).
 * Maps with other than string keys do not occur in the value suite; they
 * would be an error here.
 */
function rewrite(value, base64Bytes) {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Uint8Array) {
    return base64Bytes ? Buffer.from(value.buffer, value.byteOffset, value.length).toString("base64") : value;
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => rewrite(item, base64Bytes));
  if (value instanceof Map) throw new Error("no maps with non-string keys here");
  const out = {};
  for (const key of Object.keys(value)) out[key] = rewrite(value[key], base64Bytes);
  return out;
}

/** The value a JSON program would hold for `value`. */
export const jsonView = (value) => rewrite(value, true);

function containsBigInt(value) {
  if (typeof value === "bigint") return true;
  if (value instanceof Uint8Array || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(containsBigInt);
  return Object.keys(value).some((key) => containsBigInt(value[key]));
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** A codec of an encoder and a decoder object with `encode` and `decode` methods. */
const codec = (encoder, decoder) => ({ encode: (v) => encoder.encode(v), decode: (b) => decoder.decode(b) });

/** How a package that may decode strings in a native addon ran. */
const native = (on, addon) =>
  on ? `; strings decoded by its native addon ${addon}, as it installs by default` : `; in JavaScript only (its native addon ${addon} is not installed)`;

/**
 * Every format, in the order of the tables. `make()` builds the codec
 * objects and returns `{ encode(v) -> Uint8Array | string, decode(b) }`;
 * `prepare(value)` gives the value the format is handed, when it is not the
 * dataset value itself (the format cannot carry that value).
 */
export const FORMATS = [
  {
    name: "surp",
    package: "surp",
    call: "new Encoder().encode(v) / new Decoder().decode(b)",
    bytes: "native",
    make: () => codec(new Encoder(), new Decoder()),
  },
  {
    name: "surp_dedup",
    package: "surp",
    call: "new Encoder({ dedup: true }).encode(v) / new Decoder().decode(b)",
    bytes: "native",
    make: () => codec(new Encoder({ dedup: true }), new Decoder()),
  },
  {
    name: "msgpackr",
    package: "msgpackr",
    call: `new Packr({ useRecords: false, int64AsType: "bigint" }): pack(v) / unpack(b)${native(msgpackrNative, "msgpackr-extract")}`,
    bytes: "native",
    make() {
      const packr = new Packr({ useRecords: false, int64AsType: "bigint" });
      return { encode: (v) => packr.pack(v), decode: (b) => packr.unpack(b) };
    },
  },
  {
    name: "msgpackr_records",
    package: "msgpackr",
    call: `new Packr({ useRecords: true, int64AsType: "bigint" }): pack(v) / unpack(b); record definitions travel inside each document${native(msgpackrNative, "msgpackr-extract")}`,
    bytes: "native",
    make() {
      const packr = new Packr({ useRecords: true, int64AsType: "bigint" });
      return { encode: (v) => packr.pack(v), decode: (b) => packr.unpack(b) };
    },
  },
  {
    name: "cbor_x",
    package: "cbor-x",
    call: `new Encoder({ useRecords: false }).encode(v) / new Decoder({ useRecords: false }).decode(b)${native(cborXNative, "cbor-extract")}`,
    bytes: "native",
    make: () => codec(new CborXEncoder({ useRecords: false }), new CborXDecoder({ useRecords: false })),
  },
  {
    name: "msgpack_js",
    package: "@msgpack/msgpack",
    call: "new Encoder({ useBigInt64: true }).encode(v) / new Decoder({ useBigInt64: true }).decode(b)",
    bytes: "native",
    make: () => codec(new MsgpackEncoder({ useBigInt64: true }), new MsgpackDecoder({ useBigInt64: true })),
  },
  {
    name: "jsonpack_msgpack",
    package: "@jsonjoy.com/json-pack",
    call: "new MsgPackEncoder().encode(v) / new MsgPackDecoderFast().decode(b); it does not write BigInts, so integers beyond 2^53 are given as the nearest number",
    bytes: "native",
    prepare: (value) => (containsBigInt(value) ? rewrite(value, false) : value),
    make: () => codec(new MsgPackEncoder(), new MsgPackDecoderFast()),
  },
  {
    name: "jsonpack_cbor",
    package: "@jsonjoy.com/json-pack",
    call: "new CborEncoder().encode(v) / new CborDecoder().decode(b)",
    bytes: "native",
    make: () => codec(new CborEncoder(), new CborDecoder()),
  },
  {
    name: "json",
    package: "JSON",
    call: "new TextEncoder().encode(JSON.stringify(v)) / JSON.parse(new TextDecoder().decode(b))",
    bytes: "base64 text; integers beyond 2^53 as the nearest number",
    prepare: jsonView,
    make() {
      return {
        encode: (v) => textEncoder.encode(JSON.stringify(v)),
        decode: (b) => JSON.parse(textDecoder.decode(b)),
      };
    },
  },
  {
    name: "json_string",
    package: "JSON",
    call: "JSON.stringify(v) / JSON.parse(s): strings only, no conversion to or from bytes; the size is the string's UTF-8 length",
    bytes: "base64 text; integers beyond 2^53 as the nearest number",
    prepare: jsonView,
    make() {
      return { encode: (v) => JSON.stringify(v), decode: (s) => JSON.parse(s) };
    },
  },
];

/** The installed version of a format's package ("Node <version>" for JSON). */
export function packageVersion(format) {
  if (format.package === "JSON") return `Node ${process.versions.node} (V8 ${process.versions.v8})`;
  if (format.package === "surp") return JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
  return version(format.package);
}

/** The size in bytes of an encoding (a string counts its UTF-8 bytes). */
export function sizeOf(encoded) {
  return typeof encoded === "string" ? Buffer.byteLength(encoded, "utf8") : encoded.length;
}
