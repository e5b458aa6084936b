/**
 * Nearest-rank percentile of a sample (no interpolation), so a reported p99 is a time that really
 * occurred; an empty sample gives null rather than a made-up 0.
 */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export interface LatencySummary {
  n: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  mean_ms: number | null;
}

export function summarise(samples: number[]): LatencySummary {
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  const mean = samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : null;
  return {
    n: samples.length,
    p50_ms: round(percentile(samples, 50)),
    p95_ms: round(percentile(samples, 95)),
    p99_ms: round(percentile(samples, 99)),
    mean_ms: round(mean),
  };
}

export function median(values: number[]): number | null {
  return percentile(values, 50);
}
