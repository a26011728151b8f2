// A naive encoder of normalized vector notation, deduplicating or not,
// written as the rules of docs/spec.md read (the same reading as
// docs/vectors/generate.py): tables as a Map and arrays, each map decided
// up front, nothing predicted or rewritten. The property tests compare the
// package's encoder with it on random values.

const utf8 = new TextEncoder();

function width(n) {
  let w = 1;
  while (n >= 1n << BigInt(8 * w)) w++;
  return w;
}

function le(n, w) {
  const out = [];
  for (let i = 0; i < w; i++) out.push(Number((n >> BigInt(8 * i)) & 0xffn));
  return out;
}

function lengthHeader(inline, inlineMax, prefixed, n) {
  if (n <= inlineMax) return [inline + n];
  const c = [1, 2, 4, 8].findIndex((w) => BigInt(n) < 1n << BigInt(8 * w));
  return [prefixed + c, ...le(BigInt(n), 1 << c)];
}

function encInt(v) {
  if (v >= 0n && v <= 127n) return [Number(v)];
  if (v >= -8n && v < 0n) return [Number(v) + 256];
  const [n, small, wide] = v >= 0n ? [v, 0xd8, 0xef] : [-1n - v, 0xe0, 0xf0];
  const w = width(n);
  return w <= 8 ? [small + w - 1, ...le(n, w)] : [wide, w, ...le(n, w)];
}

function f16OfF32(b) {
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const man = b & 0x7fffff;
  if (exp === 0xff) return (man & 0x1fff) === 0 ? sign | 0x7c00 | (man >>> 13) : null;
  if (exp === 0) return man === 0 ? sign : null;
  const e = exp - 127;
  if (e >= -14 && e <= 15) return (man & 0x1fff) === 0 ? sign | ((e + 15) << 10) | (man >>> 13) : null;
  if (e >= -24 && e < -14) {
    const sig = (1 << 23) | man;
    const shift = -e - 1;
    return (sig & ((1 << shift) - 1)) === 0 ? sign | (sig >>> shift) : null;
  }
  return null;
}

function encFloat(bits) {
  const dv = new DataView(new ArrayBuffer(8));
  const exp = Number((bits >> 52n) & 0x7ffn);
  const man = bits & ((1n << 52n) - 1n);
  let b32 = null;
  if (exp === 0x7ff) {
    if ((man & ((1n << 29n) - 1n)) === 0n) b32 = (Number(bits >> 63n) << 31) | (0xff << 23) | Number(man >> 29n);
  } else {
    dv.setBigUint64(0, bits, true);
    const x = dv.getFloat64(0, true);
    if (Math.fround(x) === x) {
      dv.setFloat32(0, x, true);
      b32 = dv.getUint32(0, true);
    }
  }
  if (b32 === null) {
    dv.setBigUint64(0, bits, true);
    return [0xee, ...new Uint8Array(dv.buffer)];
  }
  b32 >>>= 0;
  const h = f16OfF32(b32);
  if (h !== null) return [0xec, h & 0xff, h >> 8];
  dv.setUint32(0, b32, true);
  return [0xed, ...new Uint8Array(dv.buffer, 0, 4)];
}

function strBytes(s) {
  const data = [...utf8.encode(s)];
  return [...lengthHeader(0x80, 31, 0xc8, data.length), ...data];
}

/** The plain encoding of a normalized notation value, as an array of bytes. */
export function plain(v) {
  const [[kind, x]] = Object.entries(v);
  switch (kind) {
    case "null":
      return [0xe8];
    case "bool":
      return [x ? 0xea : 0xe9];
    case "int":
      return encInt(BigInt(x));
    case "float":
      return encFloat(BigInt(x));
    case "str":
      return strBytes(x);
    case "bytes": {
      const data = [...Buffer.from(x, "hex")];
      return [...lengthHeader(0xcc, -1, 0xcc, data.length), ...data];
    }
    case "array":
      return [...lengthHeader(0xa0, 15, 0xd0, x.length), ...x.flatMap(plain)];
    case "map":
      return [...lengthHeader(0xb0, 15, 0xd4, x.length), ...x.flatMap(([k, val]) => [...plain(k), ...plain(val)])];
    case "some": {
      const inner = plain(x);
      return inner[0] === 0xe8 || inner[0] === 0xeb ? [0xeb, ...inner] : inner;
    }
  }
  throw new Error(kind);
}

/** What `Some` chains are written as: their content unless it is written as null. */
function written(v) {
  while ("some" in v && ![0xe8, 0xeb].includes(plain(v)[0])) v = v.some;
  return v;
}

const strRefSize = (slot) => (slot < 1 << 8 ? 2 : slot < 1 << 16 ? 3 : 4);
const shapeRefSize = (t) => (t < 8 ? 1 : t < 1 << 8 ? 2 : 3);

/** The deduplicated encoding of a normalized notation value. */
export function dedup(value, maxStrings = 1 << 20, maxShapes = 1 << 16) {
  const out = [0xf2];
  const slots = new Map();
  const shapes = [];
  const firstShape = new Map();
  let references = false;

  function string(text) {
    const slot = slots.get(text);
    if (slot !== undefined) {
      references = true;
      const w = strRefSize(slot) - 1;
      out.push(0xf3 + w - 1, ...le(BigInt(slot), w));
      return;
    }
    const len = utf8.encode(text).length;
    if (len >= strRefSize(slots.size) && slots.size < maxStrings) slots.set(text, slots.size);
    out.push(...strBytes(text));
  }

  function sizeNow(key) {
    const slot = slots.get(key);
    return slot === undefined ? strBytes(key).length : strRefSize(slot);
  }

  function val(v) {
    v = written(v);
    const [[kind, x]] = Object.entries(v);
    if (kind === "str") string(x);
    else if (kind === "array") {
      out.push(...lengthHeader(0xa0, 15, 0xd0, x.length));
      x.forEach(val);
    } else if (kind === "map") map(x);
    else out.push(...plain(v));
  }

  function map(pairs) {
    const keys = pairs.map(([k]) => written(k)).filter((k) => "str" in k).map((k) => k.str);
    const eligible = keys.length === pairs.length && pairs.length >= 1 && pairs.length <= 64;
    const id = JSON.stringify(keys);
    const shape = eligible ? firstShape.get(id) : undefined;
    const header = lengthHeader(0xb0, 15, 0xd4, pairs.length);
    if (shape !== undefined) {
      const explicit = header.length + keys.reduce((sum, k) => sum + sizeNow(k), 0);
      if (shapeRefSize(shape) < explicit) {
        references = true;
        if (shape < 8) out.push(0xc0 + shape);
        else if (shape < 256) out.push(0xf6, shape);
        else out.push(0xf7, shape & 0xff, shape >> 8);
        for (const [, v] of pairs) val(v);
        return;
      }
    }
    out.push(...header);
    let size = header.length;
    for (const [k, v] of pairs) {
      const before = out.length;
      val(k);
      size += out.length - before;
      val(v);
    }
    if (eligible && size > shapeRefSize(shapes.length) && shapes.length < maxShapes) {
      if (!firstShape.has(id)) firstShape.set(id, shapes.length);
      shapes.push(keys);
    }
  }

  val(value);
  return Uint8Array.from(references ? out : out.slice(1));
}
