#!/usr/bin/env bash
# Packs the package, installs the tarball into a new project in a temporary
# folder, and runs the example of README.md there, as a user would.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cd "$here"
tarball="$(npm pack --silent --pack-destination "$tmp" | tail -n 1)"
echo "packed $tarball: $(tar -tzf "$tmp/$tarball" | tr '\n' ' ')"

cd "$tmp"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --silent --no-audit --no-fund "./$tarball"
# The first ```js block of the README.
awk '/^```js$/{on=1; next} /^```$/{if (on) exit} on' "$here/README.md" > example.mjs
out="$(node example.mjs)"
test "$out" = "ok" || { echo "README example printed: $out"; exit 1; }
# The type declarations serve a TypeScript user.
cat > consumer.ts <<'TS'
import { decode, encode, Float, SurpError, type DecodeOptions } from "surp";
const options: DecodeOptions = { maxDepth: 16, mapsAs: "map" };
const bytes: Uint8Array = encode({ x: new Float(1) }, { dedup: true });
const value: unknown = decode(bytes, options);
try {
  decode(new Uint8Array([0xf1]));
} catch (e) {
  if (e instanceof SurpError) console.log(e.kind, e.category, e.offset, value instanceof Map);
}
TS
"$here/node_modules/.bin/tsc" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 consumer.ts
echo "the README example runs against the packed tarball"
