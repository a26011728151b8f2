// The benchmark's check that a format gave back the value it was given.

/**
 * Why `got` is not `want`, as a path and a reason, or `null` when they are
 * the same value: the same types (an integer may be a number or a BigInt of
 * the same value, since codecs differ in which they return), the same float
 * bits (NaN equal to NaN, 0 and -0 told apart), the same bytes, the same
 * keys with the same values (their order not compared).
 */
export function equivalent(got, want, path = "$") {
  const integral = (x) => typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x));
  if (integral(got) && integral(want)) {
    return BigInt(got) === BigInt(want) && Object.is(got, -0) === Object.is(want, -0) ? null : `${path}: ${got} is not ${want}`;
  }
  if (typeof got === "number" && typeof want === "number") {
    return Object.is(got, want) ? null : `${path}: ${got} is not ${want}`;
  }
  if (want instanceof Uint8Array) {
    if (!(got instanceof Uint8Array) || Buffer.compare(Buffer.from(got), Buffer.from(want)) !== 0) return `${path}: not the same bytes`;
    return null;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return `${path}: not an array of ${want.length} items`;
    for (let i = 0; i < want.length; i++) {
      const problem = equivalent(got[i], want[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (want !== null && typeof want === "object") {
    if (got === null || typeof got !== "object" || Array.isArray(got) || got instanceof Uint8Array) return `${path}: not an object`;
    const keys = Object.keys(want);
    if (Object.keys(got).length !== keys.length) return `${path}: not ${keys.length} keys`;
    for (const key of keys) {
      if (!Object.hasOwn(got, key)) return `${path}: no key ${JSON.stringify(key)}`;
      const problem = equivalent(got[key], want[key], `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  return Object.is(got, want) ? null : `${path}: ${String(got)} is not ${String(want)}`;
}
