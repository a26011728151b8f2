/**
 * Floats: the `Float` wrapper a caller uses to ask for a float where a
 * number would be written as an integer, and the bit-exact narrowing of
 * spec section 3.2 (binary64 to binary32 to binary16, NaN payloads moved
 * bit by bit, never through a platform conversion).
 *
 * @module
 */

/** The binary64 bits of the quiet NaN that `NaN` stands for. */
const CANONICAL_NAN = 0x7ff8000000000000n;

const scratch = new DataView(new ArrayBuffer(8));

/**
 * A number that is written as a float even when it is integral, and, when
 * it is a NaN, the exact bits of that NaN.
 *
 * JavaScript has one number type, so `encode(1)` writes the integer 1 and
 * `encode(new Float(1))` the float 1.0 (`ec 00 3c`). Decoding gives plain
 * numbers unless `wrapFloats` is set; then every float of the document is a
 * `Float`, so that integers and floats stay apart and a NaN keeps its
 * payload through a decode and encode.
 */
export class Float {
  /** The value as a number. */
  readonly value: number;
  /**
   * The binary64 bits of a NaN other than the default quiet NaN
   * (`0x7ff8000000000000`), which JavaScript numbers cannot be relied on to
   * carry; `undefined` for every other float.
   */
  readonly nanBits: bigint | undefined;

  constructor(value: number) {
    this.value = value;
    this.nanBits = undefined;
  }

  /** The float whose binary64 bits are `bits` (an unsigned 64-bit integer). */
  static fromBits(bits: bigint): Float {
    scratch.setBigUint64(0, BigInt.asUintN(64, bits), true);
    const f = new Float(scratch.getFloat64(0, true));
    if (f.value !== f.value && bits !== CANONICAL_NAN) {
      (f as { nanBits: bigint | undefined }).nanBits = BigInt.asUintN(64, bits);
    }
    return f;
  }

  /** The binary64 bits of this float, as an unsigned 64-bit integer. */
  get bits(): bigint {
    if (this.nanBits !== undefined) return this.nanBits;
    if (this.value !== this.value) return CANONICAL_NAN;
    scratch.setFloat64(0, this.value, true);
    return scratch.getBigUint64(0, true);
  }

  valueOf(): number {
    return this.value;
  }
}

/** The bits of the binary32 number `x`, which must be exactly representable. */
export function f32Bits(x: number): number {
  scratch.setFloat32(0, x, true);
  return scratch.getUint32(0, true);
}

/**
 * The binary16 bits of the binary32 number with bits `b`, or -1 when
 * binary16 cannot hold it exactly. A NaN keeps its sign and payload (its
 * significand moves 13 places), and narrows only when the dropped bits are
 * zero.
 */
export function f16BitsOfF32(b: number): number {
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const man = b & 0x7fffff;
  if (exp === 0xff) return (man & 0x1fff) === 0 ? sign | 0x7c00 | (man >>> 13) : -1;
  if (exp === 0) return man === 0 ? sign : -1;
  const e = exp - 127;
  if (e >= -14 && e <= 15) {
    return (man & 0x1fff) === 0 ? sign | ((e + 15) << 10) | (man >>> 13) : -1;
  }
  if (e >= -24 && e < -14) {
    // A binary16 subnormal: the whole significand, leading 1 included,
    // shifted to the exponent -24.
    const sig = 0x800000 | man;
    const shift = -e - 1;
    return (sig & ((1 << shift) - 1)) === 0 ? sign | (sig >>> shift) : -1;
  }
  return -1;
}

/** `2 ** (e - 25)` for each binary16 exponent field `e`; the subnormals' scale at 0. */
const HALF_SCALE = Array.from({ length: 32 }, (_, e) => 2 ** (e === 0 ? -24 : e - 25));

/** The number a binary16 value with bits `h` stands for (a NaN loses its payload). */
export function f16ToNumber(h: number): number {
  const exp = (h >>> 10) & 0x1f;
  const man = h & 0x3ff;
  let v: number;
  if (exp === 0) v = man * HALF_SCALE[0];
  else if (exp === 31) v = man === 0 ? Infinity : NaN;
  else v = (1024 + man) * HALF_SCALE[exp];
  return h & 0x8000 ? -v : v;
}

/** The binary64 bits of the binary16 NaN `h`, its significand moved 42 places. */
export function f16NaNBits(h: number): bigint {
  return (BigInt(h & 0x8000) << 48n) | (0x7ffn << 52n) | (BigInt(h & 0x3ff) << 42n);
}

/** The binary64 bits of the binary32 NaN `b`, its significand moved 29 places. */
export function f32NaNBits(b: number): bigint {
  return (BigInt(b >>> 31) << 63n) | (0x7ffn << 52n) | (BigInt(b & 0x7fffff) << 29n);
}

/**
 * The shortest exact form of the binary64 NaN `bits`: `[2, binary16 bits]`,
 * `[4, binary32 bits]`, or `[8, 0]` when only binary64 holds its payload.
 */
export function narrowNaN(bits: bigint): [2 | 4 | 8, number] {
  const man = bits & 0xfffffffffffffn;
  if ((man & 0x1fffffffn) !== 0n) return [8, 0];
  const b32 = (Number(bits >> 63n) << 31) | (0xff << 23) | Number(man >> 29n);
  const h = f16BitsOfF32(b32 >>> 0);
  return h >= 0 ? [2, h] : [4, b32 >>> 0];
}
