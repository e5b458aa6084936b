/**
 * Cumulative per-model counters in Triton's statistics vocabulary, kept beside the Prometheus
 * series so ModelStatistics can answer exact totals (Prometheus histograms only bucket them).
 */
export interface Duration {
  count: number;
  ns: number;
}

export interface ModelStatisticsRecord {
  inferenceCount: number;
  executionCount: number;
  success: Duration;
  fail: Duration;
  queue: Duration;
  computeInfer: Duration;
  byBatchSize: Map<number, Duration>;
}

export function emptyStatistics(): ModelStatisticsRecord {
  const zero = (): Duration => ({ count: 0, ns: 0 });
  return {
    inferenceCount: 0,
    executionCount: 0,
    success: zero(),
    fail: zero(),
    queue: zero(),
    computeInfer: zero(),
    byBatchSize: new Map(),
  };
}

export function addDuration(duration: Duration, ms: number): void {
  duration.count += 1;
  duration.ns += Math.round(ms * 1e6);
}
