// Checks the built docs site (docs/book/) in headless Chromium, the way a
// reader's browser sees it:
//
// - on the newest benchmark page, every chart image loads (naturalWidth > 0)
//   and is one of the run's committed charts, and the "Every cell" table has
//   one row per line of the run's summary.csv;
// - for every run with a python/ folder (the Python benchmark) or a js/
//   folder (the JavaScript benchmark), that benchmark's page shows its
//   committed chart (python_chart.svg, chart.svg), loaded (naturalWidth >
//   0), and its "Every cell" table has one row per line of its summary
//   (python_summary.csv, summary.csv), naming the same format, dataset and
//   operation in the same order; the run's own page links to it;
// - on every page, no link or embedded resource on the site is broken (each
//   same-origin URL answers 200, each #fragment names an element of its
//   page), and no script throws;
// - the newest run's typed-suite page (typed/), when it has one, passes the
//   same checks (its borrowed-decode row is missing where a format cannot
//   borrow) and is linked from the run's page;
// - at 1280 px wide, every table on every page fits its column, or scrolls
//   sideways inside it with a scrollbar that stays drawn where the
//   platform's own are overlays; on a benchmark page every table fits.
//   Screenshots at that width of the newest run's pages go to
//   target/docs-screenshot-<page>-1280.png, and of each scrolling table to
//   target/docs-screenshot-<page>-table<n>-1280.png;
// - a screenshot of the benchmark page goes to target/docs-screenshot.png,
//   and one of each chart as the page shows it beside it; the newest run's
//   Python page, if it has one, goes to target/docs-screenshot-python.png
//   (its chart to target/docs-screenshot-python_chart.png), and its
//   JavaScript page to target/docs-screenshot-js.png (its chart to
//   target/docs-screenshot-chart.png).
//
// The site is served by `python3 -m http.server` on a free port, and
// Chromium is started here with the flags this machine needs and a fresh
// profile, then driven over the DevTools protocol by playwright-core (which
// never downloads a browser of its own).
//
// Usage: node docs/check/check.mjs   (after `mdbook build docs`)
// Environment: CHROMIUM overrides the browser (default /usr/bin/chromium).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.dirname(DOCS);
const BOOK = path.join(DOCS, 'book');
const BENCH_ROOT = path.join(DOCS, 'assets', 'bench');
const SCREENSHOT = path.join(ROOT, 'target', 'docs-screenshot.png');
// The benchmarks in other languages that a run folder may hold, each in a
// folder of its own with its summary and its one chart (docs-gen's Lang of
// PythonMeta and JsMeta); the page of one is bench/<run>-<dir>.html.
const LANGS = [
  { name: 'Python', dir: 'python', summary: 'python_summary.csv', chart: 'python_chart.svg' },
  { name: 'JavaScript', dir: 'js', summary: 'summary.csv', chart: 'chart.svg' },
];
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
// The id mdBook gives the heading "## Every cell" that docs-gen writes above
// the table of every format x dataset x operation.
const EVERY_CELL_ID = 'every-cell';
// print.html repeats every chapter with rewritten anchors; the chapters
// themselves are checked.
const SKIPPED_PAGES = new Set(['print.html']);
// 404.html is served at any missing URL, so mdBook gives it <base href="/">,
// which points its heading anchors at the index page; its other links are
// checked.
const NO_FRAGMENT_CHECK = new Set(['404.html']);
// A table's scrollbar at least this thick is drawn, not an overlay.
const MIN_SCROLLBAR_PX = 6;
const STARTUP_TIMEOUT_MS = 30_000;
const OVERALL_TIMEOUT_MS = 180_000;

const failures = [];
const fail = (message) => failures.push(message);
const log = (message) => console.log(`docs check: ${message}`);

// --- the committed runs -----------------------------------------------------

const SEMVER = /^v(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function parseVersion(name) {
  const m = SEMVER.exec(name);
  if (!m) return null;
  return { name, core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

// Semver precedence: major, minor, patch, then a pre-release sorts before
// the release, and pre-release identifiers compare numerically or lexically.
function compareVersions(a, b) {
  for (let i = 0; i < 3; i++) {
    if (a.core[i] !== b.core[i]) return a.core[i] - b.core[i];
  }
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const [x, y] = [a.pre[i], b.pre[i]];
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.pre.length - b.pre.length;
}

function committedRuns() {
  if (!fs.existsSync(BENCH_ROOT)) return [];
  return fs
    .readdirSync(BENCH_ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => parseVersion(e.name))
    .filter(Boolean)
    .sort((a, b) => compareVersions(b, a));
}

// The data rows of a CSV file written by a harness, as arrays of fields.
function csvRows(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  return lines.slice(1).map((l) => l.split(','));
}

// The rows of the run's benchmark in `lang` (format, dataset, op first), or
// null when the run has none.
function langRows(run, lang) {
  const dir = path.join(BENCH_ROOT, run.name, lang.dir);
  if (!fs.existsSync(dir)) return null;
  return csvRows(path.join(dir, lang.summary));
}

// The run's typed suite (written by surp-bench into typed/), if it has one.
const TYPED_DIR = 'typed';
function hasTyped(run) {
  return fs.existsSync(path.join(BENCH_ROOT, run.name, TYPED_DIR, 'summary.csv'));
}

// What the page of `run` (or of its typed suite, `sub` = 'typed') must
// show, read from the run's own files.
function expectations(run, sub = '') {
  const dir = path.join(BENCH_ROOT, run.name, sub);
  const rows = csvRows(path.join(dir, 'summary.csv'));
  const distinct = (i) => new Set(rows.map((r) => r[i])).size;
  const charts = fs
    .readdirSync(path.join(dir, 'charts'))
    .filter((f) => f.endsWith('.svg'))
    .sort();
  return {
    rows: rows.length,
    formats: distinct(0),
    datasets: distinct(1),
    operations: distinct(2),
    charts,
  };
}

// --- the server and the browser ---------------------------------------------

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// python3 -m http.server on port 0 picks a free port and prints it.
//
// It logs every request to stderr, which is read here (its last lines kept
// for an error message): a pipe nobody reads fills up, and the server then
// blocks on its next log line and answers nothing more. That happened after
// a few hundred requests, in the first check after each `mdbook build`,
// when Chromium revalidates every file because it is seconds old.
function startServer() {
  const server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', BOOK], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logged = '';
  server.stderr.on('data', (chunk) => {
    logged = (logged + chunk).slice(-2000);
  });
  const port = new Promise((resolve, reject) => {
    let seen = '';
    server.stdout.on('data', (chunk) => {
      seen += chunk;
      const m = /port (\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    server.on('exit', (code) => reject(new Error(`the static server exited with status ${code}: ${seen}${logged}`)));
    server.on('error', reject);
  });
  return { server, port: withTimeout(port, STARTUP_TIMEOUT_MS, 'the static server starting') };
}

// Chromium writes the port it chose to DevToolsActivePort in its profile.
async function startChromium() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'surp-docs-chromium-'));
  const args = [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'];
  // Its own process group, so that stopping it stops its helpers too.
  const proc = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  proc.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((_, reject) => {
    proc.on('exit', (code) => reject(new Error(`${CHROMIUM} exited with status ${code}:\n${stderr.slice(-2000)}`)));
    proc.on('error', (err) => reject(new Error(`cannot start ${CHROMIUM}: ${err.message}`)));
  });
  const portFile = path.join(profile, 'DevToolsActivePort');
  const ready = (async () => {
    for (;;) {
      if (fs.existsSync(portFile)) {
        const port = fs.readFileSync(portFile, 'utf8').split('\n')[0];
        if (/^\d+$/.test(port)) return Number(port);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const port = await withTimeout(Promise.race([ready, exited]), STARTUP_TIMEOUT_MS, 'Chromium starting');
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  return { proc, profile, browser };
}

// Over CDP, close() only disconnects: the process group is ours to stop.
async function stopChromium({ proc, profile, browser }) {
  await browser.close().catch(() => {});
  const signal = (name) => {
    try {
      process.kill(-proc.pid, name);
    } catch {
      // Already gone.
    }
  };
  if (proc.exitCode === null && proc.signalCode === null) {
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    signal('SIGTERM');
    await withTimeout(exited, STARTUP_TIMEOUT_MS, 'Chromium exiting').catch(() => signal('SIGKILL'));
  }
  try {
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (err) {
    log(`warning: could not remove the temporary profile ${profile}: ${err.message}`);
  }
}

// --- the checks ---------------------------------------------------------------

function htmlPages() {
  const pages = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.html')) pages.push(path.relative(BOOK, full).split(path.sep).join('/'));
    }
  };
  walk(BOOK);
  return pages.filter((p) => !SKIPPED_PAGES.has(p)).sort();
}

// Loads `url` and records what a reader would notice: resources of the site
// that failed, and uncaught script errors.
//
// The previous page is left for about:blank first, with no listener attached:
// a request it still had in flight (a font its text asked for after the load
// event) is aborted by that navigation, and net::ERR_ABORTED was otherwise
// blamed on the page loaded next (seen once in CI, on a loaded machine). For
// the same reason each visit waits for the page's fonts, so that a font that
// fails is reported for the page that uses it.
async function visit(page, url) {
  await page.goto('about:blank');
  const problems = [];
  const onResponse = (response) => {
    if (response.url().startsWith(page.__origin) && response.status() >= 400) {
      problems.push(`${response.url()} answered ${response.status()}`);
    }
  };
  const onFailed = (request) => {
    if (request.url().startsWith(page.__origin)) problems.push(`${request.url()} failed: ${request.failure()?.errorText}`);
  };
  const onError = (error) => problems.push(`script error: ${error.message}`);
  page.on('response', onResponse);
  page.on('requestfailed', onFailed);
  page.on('pageerror', onError);
  try {
    const response = await page.goto(url, { waitUntil: 'load' });
    if (!response || response.status() !== 200) problems.push(`${url} answered ${response?.status()}`);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
  } finally {
    page.off('response', onResponse);
    page.off('requestfailed', onFailed);
    page.off('pageerror', onError);
  }
  return problems;
}

// Every same-origin link and resource on the loaded page must answer 200,
// and every fragment must name an element of its target page. Returns the
// counts of links checked and of external links left alone.
async function checkLinks(page, pageName, cache) {
  const urls = await page.evaluate(() => {
    const found = [];
    for (const el of document.querySelectorAll('a[href], link[href]')) found.push(el.href);
    for (const el of document.querySelectorAll('img[src], script[src], iframe[src]')) found.push(el.src);
    return found;
  });
  let checked = 0;
  let external = 0;
  for (const raw of new Set(urls)) {
    const url = new URL(raw);
    if (url.origin !== page.__origin) {
      if (url.protocol === 'http:' || url.protocol === 'https:') external += 1;
      continue;
    }
    checked += 1;
    const target = url.origin + url.pathname;
    if (!cache.has(target)) {
      cache.set(
        target,
        page.evaluate(async (u) => {
          const r = await fetch(u);
          return { status: r.status, type: r.headers.get('content-type') || '', text: await r.text() };
        }, target),
      );
    }
    const { status, type, text } = await cache.get(target);
    if (status !== 200) {
      fail(`${pageName}: link to ${url.pathname} answered ${status}`);
      continue;
    }
    if (url.hash.length > 1 && type.startsWith('text/html') && !NO_FRAGMENT_CHECK.has(pageName)) {
      const id = decodeURIComponent(url.hash.slice(1));
      const exists = await page.evaluate(
        ([html, id]) => new DOMParser().parseFromString(html, 'text/html').getElementById(id) !== null,
        [text, id],
      );
      if (!exists) fail(`${pageName}: link to ${url.pathname}${url.hash} names no element of that page`);
    }
  }
  return { checked, external };
}

// The first benchmark page listed in the index must be the newest run's.
async function checkIndex(page, base, newest) {
  for (const problem of await visit(page, `${base}/bench/index.html`)) fail(`bench/index.html: ${problem}`);
  const text = await page.locator('main').innerText();
  if (!newest) {
    if (!text.includes('No benchmark run is committed yet')) {
      fail('bench/index.html does not say that no run is committed, but docs/assets/bench/ has none');
    }
    return;
  }
  const first = await page.locator('main table a').first().getAttribute('href');
  if (first !== `${newest.name}.html`) {
    fail(`bench/index.html lists ${first} first, but the newest committed run is ${newest.name}`);
  }
}

// The images of the loaded page's main part, as the browser decoded them.
function mainImages(page) {
  return page.locator('main img').evaluateAll((imgs) =>
    imgs.map((img) => ({
      src: new URL(img.src).pathname,
      complete: img.complete,
      width: img.naturalWidth,
      height: img.naturalHeight,
    })),
  );
}

// The cell texts of the first table after the heading with id `id` (before
// the next heading): null without that heading.
function tableUnder(page, id) {
  return page.evaluate((id) => {
    const heading = document.getElementById(id);
    if (!heading) return null;
    for (let el = heading.nextElementSibling; el; el = el.nextElementSibling) {
      if (/^H[1-6]$/.test(el.tagName)) break;
      const t = el.tagName === 'TABLE' ? el : el.querySelector('table');
      if (t) {
        const rows = [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((c) => c.innerText.trim()));
        return { columns: t.querySelectorAll('thead th').length, rows };
      }
    }
    return { columns: 0, rows: [] };
  }, id);
}

// A full-page screenshot to `file`, then one of each image of `images` (as
// mainImages found them) beside SCREENSHOT, named after the image's file.
async function screenshots(page, file, images) {
  await page.screenshot({ path: file, fullPage: true });
  // The sticky menu bar and the side arrows would cover the charts' edges.
  await page.addStyleTag({ content: '#mdbook-menu-bar, .nav-wide-wrapper { visibility: hidden !important; }' });
  const charts = page.locator('main img');
  for (let i = 0; i < (await charts.count()); i++) {
    const name = path.basename(images[i].src, '.svg');
    await charts.nth(i).screenshot({ path: SCREENSHOT.replace(/\.png$/, `-${name}.png`) });
  }
}

async function checkBenchPage(page, base, run, sub = '') {
  const expected = expectations(run, sub);
  const pageName = sub ? `bench/${run.name}-${sub}.html` : `bench/${run.name}.html`;
  for (const problem of await visit(page, `${base}/${pageName}`)) fail(`${pageName}: ${problem}`);

  // Charts: each committed SVG once, each decoded with a real size.
  const images = await mainImages(page);
  const prefix = sub ? `/assets/bench/${run.name}/${sub}/charts/` : `/assets/bench/${run.name}/charts/`;
  const shown = images.filter((i) => i.src.startsWith(prefix)).map((i) => i.src.slice(prefix.length)).sort();
  if (JSON.stringify(shown) !== JSON.stringify(expected.charts)) {
    fail(`${pageName} shows charts [${shown}], but the run has [${expected.charts}]`);
  }
  for (const img of images) {
    if (!img.complete || img.width <= 0) fail(`${pageName}: image ${img.src} did not load (naturalWidth ${img.width})`);
  }

  // The full table, found under its heading.
  const table = await tableUnder(page, EVERY_CELL_ID);
  if (!table) {
    fail(`${pageName} has no heading with id "${EVERY_CELL_ID}"`);
  } else {
    const cells = new Set(table.rows.map((r) => r.slice(0, 3).join(' / ')));
    // The typed suite has no borrowed-decode cell where a format cannot
    // borrow, so only the value suite fills the whole grid.
    const grid = sub ? expected.rows : expected.formats * expected.datasets * expected.operations;
    if (table.rows.length !== expected.rows || cells.size !== expected.rows || grid !== expected.rows) {
      fail(
        `${pageName}: the "Every cell" table has ${table.rows.length} rows (${cells.size} distinct cells); ` +
          `summary.csv has ${expected.rows} rows for ${expected.formats} formats x ${expected.datasets} datasets ` +
          `x ${expected.operations} operations`,
      );
    }
    log(
      `${pageName}: chart images ${images.map((i) => `${path.basename(i.src)} ${i.width}x${i.height}`).join(', ')}; ` +
        `"Every cell" table ${table.rows.length} rows; summary.csv ${expected.rows} rows ` +
        `(${expected.formats} formats x ${expected.datasets} datasets x ${expected.operations} operations)`,
    );
  }

  // The typed suite, when there is one, has its own page, linked from here.
  if (!sub && hasTyped(run)) {
    const link = `${run.name}-${TYPED_DIR}.html`;
    const links = await page.locator(`main a[href="${link}"]`).count();
    if (links === 0) fail(`${pageName} has no link to the run's typed-suite page ${link}`);
  }

  // The runs in other languages, where there are some, have their own
  // pages, linked from here.
  for (const lang of sub ? [] : LANGS.filter((l) => langRows(run, l))) {
    const link = `${run.name}-${lang.dir}.html`;
    const links = await page.locator(`main a[href="${link}"]`).count();
    if (links === 0) fail(`${pageName} has no link to the run's ${lang.name} page ${link}`);
  }

  const file = sub ? SCREENSHOT.replace(/\.png$/, `-${sub}.png`) : SCREENSHOT;
  await screenshots(page, file, images);
  log(`screenshots written to ${path.relative(ROOT, file)} (and one per chart beside it)`);
}

// At 1280 pixels wide, every table of every page either fits its column or
// scrolls sideways in a box of its own (mdBook's div.table-wrapper) whose
// scrollbar is drawn. The context emulates a phone, which gives Chromium
// overlay scrollbars, as macOS and phones have: there a platform scrollbar
// takes no room and shows only while scrolling, so a scrollbar that takes
// room is one the site draws itself, always. On a benchmark page (one with
// an "Every cell" table, which benchmarks.css gives the wide layout) every
// table must fit outright: a scrolled table there hides the last columns.
// Screenshots: each benchmark page of `screenshotPages`, whole, and each
// scrolling table, beside SCREENSHOT.
async function checkTablesAt1280(browser, base, pageNames, screenshotPages) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, isMobile: true });
  const page = await context.newPage();
  page.__origin = base;
  let tablesSeen = 0;
  const scrolling = [];
  try {
    for (const pageName of pageNames) {
      for (const problem of await visit(page, `${base}/${pageName}`)) fail(`${pageName} at 1280 px: ${problem}`);
      const tables = await page.evaluate(measureTables);
      tablesSeen += tables.length;
      const shotName = path.basename(pageName, '.html');
      for (const [i, t] of tables.entries()) {
        const what = `${pageName} at 1280 px: the table ${t.label} is ${t.width} px wide in ${t.room} px`;
        if (t.fits) continue;
        if (t.mustFit) {
          fail(`${what}; on a benchmark page every table must fit`);
        } else if (!t.scrolls) {
          fail(`${what}, and no box around it inside the column scrolls sideways: it is cut off`);
        } else if (!t.scrollerInColumn) {
          fail(`${what}; the box that scrolls it is itself wider than the column`);
        } else if (t.scrollbar < MIN_SCROLLBAR_PX) {
          fail(
            `${what}; it scrolls, but its scrollbar takes ${t.scrollbar} px with overlay scrollbars ` +
              `(at least ${MIN_SCROLLBAR_PX} px means the site draws one that stays visible)`,
          );
        } else {
          const shot = SCREENSHOT.replace(/\.png$/, `-${shotName}-table${i + 1}-1280.png`);
          const scroller = page.locator('main table').nth(i).locator(`xpath=ancestor::*[${t.scrollerDepth}]`);
          await scroller.screenshot({ path: shot });
          scrolling.push(`${what}, scrolls with a ${t.scrollbar}-px scrollbar (${path.relative(ROOT, shot)})`);
        }
      }
      if (screenshotPages.includes(pageName)) {
        const shot = SCREENSHOT.replace(/\.png$/, `-${shotName}-1280.png`);
        await page.screenshot({ path: shot, fullPage: true });
        const widest = Math.max(0, ...tables.map((t) => t.width));
        log(`${pageName} at 1280 px: ${tables.length} tables, the widest ${widest} px; ${path.relative(ROOT, shot)}`);
      }
    }
  } finally {
    await context.close();
  }
  for (const line of scrolling) log(line);
  log(`${pageNames.length} pages at 1280 px: ${tablesSeen} tables, ${scrolling.length} of them scroll in their column`);
}

// Runs in the page: each table of main, measured against the room it has.
function measureTables() {
  const main = document.querySelector('main');
  if (!main) return [];
  const column = main.getBoundingClientRect();
  const mustFit = document.getElementById('every-cell') !== null;
  return [...main.querySelectorAll('table')].map((t) => {
    // The nearest box between the table and the column that scrolls
    // sideways, and how many levels up it is.
    let scroller = null;
    let scrollerDepth = 0;
    for (let el = t.parentElement, depth = 1; el && el !== main; el = el.parentElement, depth++) {
      if (['auto', 'scroll'].includes(getComputedStyle(el).overflowX)) {
        scroller = el;
        scrollerDepth = depth;
        break;
      }
    }
    const box = scroller ?? t.parentElement;
    const boxRect = box.getBoundingClientRect();
    const inColumn = boxRect.left >= column.left - 1 && boxRect.right <= column.right + 1;
    const width = Math.ceil(t.getBoundingClientRect().width);

    // Named by its caption, or by the heading above it and its first row.
    let heading = '';
    for (let el = t; el && el !== main && !heading; el = el.parentElement) {
      for (let prev = el.previousElementSibling; prev; prev = prev.previousElementSibling) {
        if (/^H[1-6]$/.test(prev.tagName)) {
          heading = prev.innerText.trim();
          break;
        }
      }
    }
    const firstRow = [...(t.rows[0]?.cells ?? [])].map((c) => c.innerText.trim()).join(' | ');
    const caption = t.caption?.innerText.trim();
    const label = caption ? `"${caption}"` : `under "${heading}" (${firstRow.slice(0, 60)})`;

    let scrollbar = 0;
    if (scroller) {
      const style = getComputedStyle(scroller);
      const borders = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
      scrollbar = scroller.offsetHeight - scroller.clientHeight - borders;
    }
    return {
      label,
      width,
      room: box.clientWidth,
      mustFit,
      fits: width <= box.clientWidth + 1 && inColumn,
      scrolls: scroller !== null && scroller.scrollWidth > scroller.clientWidth,
      scrollerDepth,
      scrollerInColumn: inColumn,
      scrollbar,
    };
  });
}

// The page of a run's benchmark in another language: its one chart loads,
// and its "Every cell" table is the language's summary, row for row.
async function checkLangPage(page, base, run, lang, screenshot) {
  const rows = langRows(run, lang);
  const summary = `${lang.dir}/${lang.summary}`;
  const pageName = `bench/${run.name}-${lang.dir}.html`;
  for (const problem of await visit(page, `${base}/${pageName}`)) fail(`${pageName}: ${problem}`);

  const images = await mainImages(page);
  const chart = `/assets/bench/${run.name}/${lang.dir}/${lang.chart}`;
  const shown = images.map((i) => i.src);
  if (JSON.stringify(shown) !== JSON.stringify([chart])) {
    fail(`${pageName} shows the images [${shown}], but should show only ${chart}`);
  }
  for (const img of images) {
    if (!img.complete || img.width <= 0) fail(`${pageName}: image ${img.src} did not load (naturalWidth ${img.width})`);
  }

  const table = await tableUnder(page, EVERY_CELL_ID);
  if (!table) {
    fail(`${pageName} has no heading with id "${EVERY_CELL_ID}"`);
    return;
  }
  if (table.rows.length !== rows.length) {
    fail(`${pageName}: the "Every cell" table has ${table.rows.length} rows, but ${summary} has ${rows.length}`);
  }
  const mismatch = rows.findIndex((r, i) => table.rows[i]?.slice(0, 3).join(',') !== r.slice(0, 3).join(','));
  if (mismatch >= 0) {
    fail(
      `${pageName}: row ${mismatch + 1} of the "Every cell" table is [${table.rows[mismatch]?.slice(0, 3)}], ` +
        `but ${summary} has [${rows[mismatch].slice(0, 3)}]`,
    );
  }
  log(
    `${pageName}: chart images ${images.map((i) => `${path.basename(i.src)} ${i.width}x${i.height}`).join(', ')}; ` +
      `"Every cell" table ${table.rows.length} rows; ${summary} ${rows.length} rows`,
  );

  if (screenshot) {
    const file = SCREENSHOT.replace(/\.png$/, `-${lang.dir}.png`);
    await screenshots(page, file, images);
    log(`screenshots written to ${path.relative(ROOT, file)} (and its chart beside it)`);
  }
}

async function main() {
  if (!fs.existsSync(path.join(BOOK, 'index.html'))) {
    throw new Error(`${BOOK} has no index.html: run \`mdbook build docs\` first`);
  }
  fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  const runs = committedRuns();
  const newest = runs[0];

  const { server, port: serverPort } = startServer();
  let chrome;
  try {
    const base = `http://127.0.0.1:${await serverPort}`;
    chrome = await startChromium();
    const context = chrome.browser.contexts()[0];
    const page = await context.newPage();
    page.__origin = base;
    await page.setViewportSize({ width: 1440, height: 900 });

    const cache = new Map();
    let checked = 0;
    let external = 0;
    const pages = htmlPages();
    for (const name of pages) {
      for (const problem of await visit(page, `${base}/${name}`)) fail(`${name}: ${problem}`);
      const counts = await checkLinks(page, name, cache);
      checked += counts.checked;
      external += counts.external;
    }
    log(`${pages.length} pages: ${checked} links to the site checked, ${external} external links not fetched`);

    await checkIndex(page, base, newest);
    const newestPages = [];
    if (newest) {
      await checkBenchPage(page, base, newest);
      newestPages.push(`bench/${newest.name}.html`);
      if (hasTyped(newest)) {
        await checkBenchPage(page, base, newest, TYPED_DIR);
        newestPages.push(`bench/${newest.name}-${TYPED_DIR}.html`);
      }
      for (const run of runs) {
        for (const lang of LANGS.filter((l) => langRows(run, l))) {
          await checkLangPage(page, base, run, lang, run === newest);
        }
      }
    } else {
      log(
        'no benchmark run is committed under docs/assets/bench/: skipping the benchmark page checks ' +
          '(charts, table rows); the screenshot shows the Benchmarks index instead',
      );
      await page.goto(`${base}/bench/index.html`, { waitUntil: 'load' });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    }
    await checkTablesAt1280(chrome.browser, base, pages, newestPages);
  } finally {
    if (chrome) await stopChromium(chrome);
    server.kill();
  }
}

const overall = setTimeout(() => {
  console.error(`docs check: FAILED: still running after ${OVERALL_TIMEOUT_MS / 1000} s`);
  process.exit(1);
}, OVERALL_TIMEOUT_MS);

try {
  await main();
} catch (err) {
  fail(err.stack || String(err));
}
clearTimeout(overall);
if (failures.length > 0) {
  for (const f of failures) console.error(`docs check: FAILED: ${f}`);
  process.exit(1);
}
log('passed');
