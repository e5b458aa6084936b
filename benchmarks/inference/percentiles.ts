/** Nearest-rank percentiles of a sample (ms); empty samples give null rather than a made-up 0. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export interface LatencySummary { n: number; p50_ms: number | null; p95_ms: number | null; p99_ms: number | null; mean_ms: number | null }

export function summarise(samples: number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  const mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null;
  return { n: sorted.length, p50_ms: round(percentile(sorted, 50)), p95_ms: round(percentile(sorted, 95)), p99_ms: round(percentile(sorted, 99)), mean_ms: round(mean) };
}

export function median(values: number[]): number | null {
  return percentile([...values].sort((a, b) => a - b), 50);
}
