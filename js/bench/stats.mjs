// Statistics and summary.csv rows, as the Rust harness computes and writes
// them (surp-bench's stats.rs and summary.rs).

/** The header of summary.csv: the Rust harness's columns, in its order. */
export const CSV_HEADER = "format,dataset,op,iterations,median_ns,p95_ns,min_ns,cv_pct,mb_per_s,size_bytes,zstd_bytes";

/** Below this many samples the nearest-rank p95 is the maximum. */
export const P95_MIN_SAMPLES = 20;

/** Median, p95 (nearest rank), minimum and coefficient of variation of nanosecond samples. */
export function statistics(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : Math.floor((sorted[n / 2 - 1] + sorted[n / 2]) / 2);
  const p95 = n < P95_MIN_SAMPLES ? sorted[n - 1] : sorted[Math.ceil(0.95 * n) - 1];
  const mean = sorted.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  return { samples: n, median, p95, min: sorted[0], cv: mean > 0 ? (100 * Math.sqrt(variance)) / mean : 0 };
}

/** One summary.csv line (no newline). */
export function csvRow({ format, dataset, op, stats, size }) {
  const mbPerS = stats.median > 0 ? size / 1e6 / (stats.median / 1e9) : 0;
  return [format, dataset, op, stats.samples, stats.median, stats.p95, stats.min, stats.cv.toFixed(2), mbPerS.toFixed(2), size, ""].join(",");
}
