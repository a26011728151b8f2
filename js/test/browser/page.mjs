// The conformance checks of vectors.test.mjs, in a browser: this module
// reads the vectors from the page, runs, and writes its verdict into the
// page, where browser.test.mjs reads it.

import { SurpError, decode, encode } from "../../dist/index.js";
import { bytesOfHex, hexOf, normalize, toJs, toNotation } from "../notation.mjs";

const vectors = JSON.parse(document.getElementById("vectors").textContent);
const EXACT = { mapsAs: "entries", wrapFloats: true };
const failures = [];
let checked = 0;

function check(ok, what) {
  checked++;
  if (!ok) failures.push(what);
}

for (const list of ["vectors", "dedup", "deep", "decode_only"]) {
  const options = list === "dedup" ? { dedup: true } : undefined;
  for (const v of vectors[list]) {
    const bytes = bytesOfHex(v.hex);
    if (list !== "decode_only") {
      check(hexOf(encode(toJs(normalize(v.value, false)), options)) === hexOf(bytes), `${list}: encode ${v.name}`);
    }
    const got = JSON.stringify(toNotation(decode(bytes, EXACT)));
    check(got === JSON.stringify(normalize(v.decodes_as ?? v.value, true)), `${list}: decode ${v.name}`);
  }
}
for (const v of [...vectors.invalid, ...vectors.limits.filter((l) => "error" in l)]) {
  try {
    decode(bytesOfHex(v.hex));
    check(false, `invalid: ${v.name} decoded`);
  } catch (e) {
    check(e instanceof SurpError && e.kind === v.error && e.offset === v.offset, `invalid: ${v.name}: ${e}`);
  }
}

const out = document.getElementById("result");
out.textContent = failures.length === 0 ? `PASS ${checked} ${navigator.userAgent}` : `FAIL ${failures.join("; ")}`;
