// Latency summaries: nearest-rank percentiles over the samples, in milliseconds, rounded to 0.01.

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const r = (x) => (x === null || x === undefined ? null : Math.round(x * 100) / 100);
  const mean = sorted.length ? sorted.reduce((s, x) => s + x, 0) / sorted.length : null;
  return {
    n: sorted.length,
    min: r(sorted[0] ?? null),
    p50: r(percentile(sorted, 50)),
    p90: r(percentile(sorted, 90)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted[sorted.length - 1] ?? null),
    mean: r(mean),
  };
}
