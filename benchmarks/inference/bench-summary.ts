/**
 * The headline figures the issue asks for, each computed from the measured cells so the JSON can
 * be audited: service/bare throughput at equal batch sizes, dynamic-batching gain at 32 clients,
 * the service's event-loop lag p99 under that load, and memory with every model loaded.
 */
import type { BareCell } from './bare-ort';
import { median } from '../../scripts/test-support/percentiles';
import type { LoadResult } from './service-load';

export interface ModelResult {
  model: string;
  max_batch_size_declared: number;
  bare: BareCell[];
  /** One caller, back-to-back requests of each batch size (dynamic batching on, as configured). */
  service_latency: LoadResult[];
  /** Two requests in flight of each batch size, dynamic batching off: every run has exactly that batch size. */
  service_same_batch: LoadResult[];
  skipped_batch_sizes: Array<{ batch_size: number; reason: string }>;
  /** Batch-1 callers; on and off alternate in slices. lag: the service's event-loop p99 per slice (median, worst). */
  load?: {
    batching_on: LoadResult[];
    batching_off: LoadResult[];
    lag_p99_ms: Record<string, { median: number; max: number }>;
  };
}

export const TARGETS = {
  service_vs_bare_ratio: 0.85,
  batching_gain: 1.5,
  event_loop_lag_p99_ms: 20,
  rss_mb: 1536,
};

const round2 = (v: number | null) => (v === null || !Number.isFinite(v) ? null : Math.round(v * 100) / 100);

export function ratios(result: ModelResult): Array<{ batch_size: number; ratio: number }> {
  return result.service_same_batch.flatMap((s) => {
    const bare = result.bare.find((b) => b.batch_size === s.batch_size);
    return bare ? [{ batch_size: s.batch_size, ratio: s.rows_per_s / bare.rows_per_s }] : [];
  });
}

export function summarise(results: ModelResult[], rssMb: number) {
  const cells = results.flatMap((r) => ratios(r).map((c) => ({ model: r.model, ...c })));
  const gains = results
    .filter((r) => r.load)
    .map((r) => {
      const on = r.load!.batching_on.find((l) => l.clients === 32);
      const off = r.load!.batching_off.find((l) => l.clients === 32);
      return { model: r.model, gain: on && off ? on.rows_per_s / off.rows_per_s : NaN };
    });
  const lags = results
    .filter((r) => r.load)
    .map((r) => ({
      model: r.model,
      lag: r.load!.lag_p99_ms['32']?.median ?? NaN,
      worst: r.load!.lag_p99_ms['32']?.max ?? NaN,
    }));
  const worstLag = Math.max(...lags.map((l) => l.lag));
  return {
    service_vs_bare_ratio: round2(median(cells.map((c) => c.ratio))),
    service_vs_bare_ratio_min: round2(Math.min(...cells.map((c) => c.ratio))),
    service_vs_bare_ratio_by_model: Object.fromEntries(
      results.map((r) => [r.model, Object.fromEntries(ratios(r).map((c) => [c.batch_size, round2(c.ratio)]))]),
    ),
    batching_gain: round2(median(gains.map((g) => g.gain))),
    batching_gain_by_model: Object.fromEntries(gains.map((g) => [g.model, round2(g.gain)])),
    event_loop_lag_p99_ms: round2(worstLag),
    event_loop_lag_p99_ms_by_model: Object.fromEntries(lags.map((l) => [l.model, round2(l.lag)])),
    event_loop_lag_p99_ms_worst_slice: round2(Math.max(...lags.map((l) => l.worst))),
    rss_mb: rssMb,
  };
}

export function verdicts(summary: ReturnType<typeof summarise>) {
  return {
    service_vs_bare_ratio: (summary.service_vs_bare_ratio ?? 0) >= TARGETS.service_vs_bare_ratio,
    batching_gain: (summary.batching_gain ?? 0) >= TARGETS.batching_gain,
    event_loop_lag_p99_ms: (summary.event_loop_lag_p99_ms ?? Infinity) < TARGETS.event_loop_lag_p99_ms,
    rss_mb: summary.rss_mb < TARGETS.rss_mb,
  };
}
