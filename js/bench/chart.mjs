// The JavaScript benchmark's chart: one SVG file with three panels (the
// serialized size, the median encode time, the median decode time), one
// group of bars per dataset and one colour per format. Drawn here, without
// a plotting package, so that the harness has no dependency beyond the
// codecs it measures.

/** A panel whose largest bar is more than this many times its smallest gets a log scale (as in the Rust charts). */
const LOG_SCALE_SPAN = 20;
const WIDTH = 1280;
const PANEL_HEIGHT = 300;
const LEFT = 90;
const RIGHT = 20;
const TOP = 70;
const PANEL_GAP = 80;
/** Colour-blind-safe palette (Okabe and Ito), then greys. */
const COLOURS = ["#0072B2", "#56B4E9", "#D55E00", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#000000", "#999999", "#666666", "#BBBBBB"];

const escape = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function bytesLabel(v) {
  if (v >= 1e6) return `${+(v / 1e6).toPrecision(3)} MB`;
  if (v >= 1e3) return `${+(v / 1e3).toPrecision(3)} kB`;
  return `${+v.toPrecision(3)} B`;
}

function timeLabel(ns) {
  if (ns >= 1e9) return `${+(ns / 1e9).toPrecision(3)} s`;
  if (ns >= 1e6) return `${+(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 1e3) return `${+(ns / 1e3).toPrecision(3)} µs`;
  return `${+ns.toPrecision(3)} ns`;
}

/** The scale of a panel: a function from value to 0..1 and the ticks to draw. */
function scale(values) {
  const positive = values.filter((v) => v > 0);
  const max = Math.max(...positive);
  const min = Math.min(...positive);
  if (max / min > LOG_SCALE_SPAN) {
    const lo = Math.floor(Math.log10(min));
    const hi = Math.ceil(Math.log10(max));
    const ticks = [];
    for (let e = lo; e <= hi; e++) ticks.push(10 ** e);
    return { log: true, at: (v) => (Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo || 1), ticks };
  }
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  const top = Math.ceil(max / step) * step;
  const ticks = [];
  for (let t = 0; t <= top + step / 2; t += step) ticks.push(t);
  return { log: false, at: (v) => v / top, ticks };
}

/**
 * The chart of `rows` (objects with format, dataset, op, stats.median and
 * size), formats and datasets in the given order.
 */
export function chart(rows, formats, datasets, iterations) {
  const panels = [
    { title: "Serialized size (smaller is better)", value: (r) => r.size, op: "encode", label: bytesLabel },
    { title: `Encode: median of ${iterations} runs (shorter is better)`, value: (r) => r.stats.median, op: "encode", label: timeLabel },
    { title: `Decode: median of ${iterations} runs (shorter is better)`, value: (r) => r.stats.median, op: "decode", label: timeLabel },
  ];
  const legendRows = Math.ceil(formats.length / 6);
  const height = TOP + legendRows * 22 + panels.length * (PANEL_HEIGHT + PANEL_GAP);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const group = plotWidth / datasets.length;
  const bar = (group * 0.84) / formats.length;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${WIDTH / 2}" y="28" text-anchor="middle" font-size="18">Surp for JavaScript against other codecs, per dataset</text>`);
  formats.forEach((f, i) => {
    const x = LEFT + (i % 6) * 190;
    const y = 50 + Math.floor(i / 6) * 22;
    out.push(`<rect x="${x}" y="${y - 10}" width="14" height="12" fill="${COLOURS[i % COLOURS.length]}"/><text x="${x + 20}" y="${y}">${escape(f)}</text>`);
  });
  panels.forEach((panel, p) => {
    const top = TOP + legendRows * 22 + p * (PANEL_HEIGHT + PANEL_GAP) + 30;
    const cells = new Map(rows.filter((r) => r.op === panel.op).map((r) => [`${r.format}\u0000${r.dataset}`, panel.value(r)]));
    const s = scale([...cells.values()]);
    out.push(`<text x="${LEFT}" y="${top - 12}" font-size="14" font-weight="bold">${escape(panel.title)}${s.log ? " (log scale)" : ""}</text>`);
    for (const t of s.ticks) {
      const y = top + PANEL_HEIGHT * (1 - s.at(t));
      out.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#dddddd"/>`);
      out.push(`<text x="${LEFT - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${escape(panel.label(t))}</text>`);
    }
    out.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${top + PANEL_HEIGHT}" y2="${top + PANEL_HEIGHT}" stroke="#333333"/>`);
    datasets.forEach((d, di) => {
      const x0 = LEFT + di * group + group * 0.08;
      formats.forEach((f, fi) => {
        const v = cells.get(`${f}\u0000${d}`);
        if (v === undefined) return;
        const h = Math.max(PANEL_HEIGHT * s.at(v), 1);
        const x = x0 + fi * bar;
        out.push(
          `<rect x="${x.toFixed(1)}" y="${(top + PANEL_HEIGHT - h).toFixed(1)}" width="${(bar * 0.9).toFixed(1)}" height="${h.toFixed(1)}" fill="${COLOURS[fi % COLOURS.length]}"><title>${escape(`${f} on ${d}: ${panel.label(v)}`)}</title></rect>`,
        );
      });
      out.push(`<text x="${(LEFT + (di + 0.5) * group).toFixed(1)}" y="${top + PANEL_HEIGHT + 18}" text-anchor="middle">${escape(d)}</text>`);
    });
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}
