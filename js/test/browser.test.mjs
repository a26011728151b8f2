// The vectors in a browser: headless Chromium loads test/browser/page.mjs
// from a local server and the test reads the verdict the page writes.
// Skipped when there is no Chromium (CHROMIUM, default /usr/bin/chromium).

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { test } from "node:test";

const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const root = new URL("..", import.meta.url).pathname; // js/
const vectors = new URL("../../docs/vectors/surp-v2.json", import.meta.url);
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".html": "text/html" };

function page() {
  // `<` escaped so that no string of the vectors can close the script.
  const json = readFileSync(vectors, "utf8").replace(/</g, "\\u003c");
  return `<!doctype html><meta charset="utf-8"><title>surp</title>
<script type="application/json" id="vectors">${json}</script>
<pre id="result">NOT RUN</pre>
<script type="module" src="/test/browser/page.mjs"></script>`;
}

function serve() {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html" }).end(page());
      return;
    }
    const file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("the vectors pass in headless Chromium", { skip: !existsSync(chromium) && `no ${chromium}`, timeout: 120_000 }, async (t) => {
  const server = await serve();
  const profile = mkdtempSync(join(tmpdir(), "surp-js-chromium-"));
  try {
    const url = `http://127.0.0.1:${server.address().port}/`;
    const args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", `--user-data-dir=${profile}`, "--virtual-time-budget=30000", "--dump-dom", url];
    const dom = await new Promise((resolve, reject) =>
      execFile(chromium, args, { maxBuffer: 1 << 28, timeout: 100_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    const verdict = /<pre id="result">([^<]*)<\/pre>/.exec(dom)?.[1] ?? "no verdict";
    assert.match(verdict, /^PASS \d+/, verdict);
    t.diagnostic(verdict);
  } finally {
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
