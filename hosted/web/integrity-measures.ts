/** The arithmetic behind the capture-integrity signals, apart from the DOM so it can be tested. */

const round2 = (value: number) => Math.round(value * 100) / 100;

export interface TimingSummary {
  frames: number;
  median_interval_ms: number | null;
  jitter_ms: number | null;
}

/** Frames seen, and the median and standard deviation of the intervals between them. */
export function summarizeTiming(times: number[]): TimingSummary {
  const intervals = times.slice(1).map((t, i) => t - times[i]);
  if (intervals.length === 0) return { frames: times.length, median_interval_ms: null, jitter_ms: null };
  const sorted = [...intervals].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const mean = intervals.reduce((a, b) => a + b, 0) / intervals.length;
  const variance = intervals.reduce((a, b) => a + (b - mean) ** 2, 0) / intervals.length;
  return {
    frames: times.length,
    median_interval_ms: round2(Math.max(0, median)),
    jitter_ms: round2(Math.sqrt(variance)),
  };
}

/** Grey levels (0–255) of RGBA pixels. */
export function greyOf(rgba: ArrayLike<number>): number[] {
  const grey: number[] = [];
  for (let i = 0; i + 3 < rgba.length; i += 4) grey.push(0.299 * rgba[i] + 0.587 * rgba[i + 1] + 0.114 * rgba[i + 2]);
  return grey;
}

export function meanAbsDifference(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  if (n === 0) return 0;
  let total = 0;
  for (let i = 0; i < n; i++) total += Math.abs(a[i] - b[i]);
  return round2(total / n);
}

/** The pixel-wise mean of several thumbnails of the same size. */
export function meanThumbnail(thumbnails: number[][]): number[] {
  if (thumbnails.length === 0) return [];
  return thumbnails[0].map((_, i) => thumbnails.reduce((sum, t) => sum + t[i], 0) / thumbnails.length);
}

/**
 * Frames "respond" to a changed setting when the picture moved clearly more than it does on its
 * own: at least 3 grey levels, and three times the frame-to-frame noise measured before.
 */
export const MIN_RESPONSE = 3;
export function responded(change: number, baseline: number): boolean {
  return change >= Math.max(MIN_RESPONSE, 3 * baseline);
}
