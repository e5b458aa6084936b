/**
 * What the API's GET /metrics says about one step: the event-loop delay (prom-client's
 * monitorEventLoopDelay, reset at each scrape, so the scrape after a step holds that step alone),
 * the GC pauses, the busy-store retries, each stage of a keyed request and each store command
 * (count, mean, share over 50 ms), as differences between a scrape before and one after the step.
 */

type Samples = Map<string, number>;

export interface Timed {
  n: number;
  mean_ms: number | null;
  /** From the histogram's buckets: the upper bound of the bucket holding the 99th percentile. */
  p99_le_ms: number | null;
  /** Share of the observations above 50 ms. */
  over_50ms_pct: number | null;
}

export interface ApiTelemetry {
  event_loop_delay_ms: { mean: number; p99: number; max: number };
  gc: { pauses: number; total_ms: number; share_pct: number; by_kind: Record<string, { n: number; total_ms: number }> };
  store_busy_retries: { retried: number; exhausted: number };
  stages: Record<string, Timed>;
  store_commands: Record<string, Timed>;
}

const LINE = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/;

function parse(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m) samples.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return samples;
}

export async function scrapeApi(baseUrl: string): Promise<Samples> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  return parse(await response.text());
}

const label = (key: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(key)?.[1] ?? '';
const ms = (s: number) => Math.round(s * 1000 * 100) / 100;

/** Histograms named `metric`, grouped by `by` (other labels summed), after minus before. */
function histograms(before: Samples, after: Samples, metric: string, by: string): Record<string, Timed> {
  const groups = new Map<string, { count: number; sum: number; buckets: Map<number, number> }>();
  const group = (key: string) => {
    const name = label(key, by);
    if (!groups.has(name)) groups.set(name, { count: 0, sum: 0, buckets: new Map() });
    return groups.get(name)!;
  };
  for (const [key, value] of after) {
    const delta = value - (before.get(key) ?? 0);
    if (key.startsWith(`${metric}_count{`)) group(key).count += delta;
    else if (key.startsWith(`${metric}_sum{`)) group(key).sum += delta;
    else if (key.startsWith(`${metric}_bucket{`)) {
      const le = label(key, 'le');
      const bound = le === '+Inf' ? Infinity : Number(le);
      const buckets = group(key).buckets;
      buckets.set(bound, (buckets.get(bound) ?? 0) + delta);
    }
  }
  const out: Record<string, Timed> = {};
  for (const [name, g] of [...groups].sort()) {
    if (g.count <= 0) continue;
    const bounds = [...g.buckets].sort((a, b) => a[0] - b[0]);
    const p99 = bounds.find(([, cumulative]) => cumulative >= 0.99 * g.count)?.[0] ?? null;
    const upTo50 = bounds.find(([bound]) => bound >= 0.05)?.[1] ?? g.count;
    out[name] = {
      n: g.count,
      mean_ms: ms(g.sum / g.count),
      p99_le_ms: p99 === null || p99 === Infinity ? null : ms(p99),
      over_50ms_pct: Math.round(((g.count - upTo50) / g.count) * 1000) / 10,
    };
  }
  return out;
}

export function telemetryBetween(before: Samples, after: Samples, seconds: number): ApiTelemetry {
  const get = (key: string) => after.get(key) ?? 0;
  const delta = (key: string) => get(key) - (before.get(key) ?? 0);
  const gcKinds: Record<string, { n: number; total_ms: number }> = {};
  let pauses = 0,
    gcSeconds = 0;
  for (const key of after.keys()) {
    if (!key.startsWith('bioverify_api_nodejs_gc_duration_seconds_count{')) continue;
    const kind = label(key, 'kind');
    const n = delta(key);
    const total = delta(key.replace('_count{', '_sum{'));
    pauses += n;
    gcSeconds += total;
    gcKinds[kind] = { n, total_ms: ms(total) };
  }
  return {
    event_loop_delay_ms: {
      mean: ms(get('bioverify_api_nodejs_eventloop_lag_mean_seconds')),
      p99: ms(get('bioverify_api_nodejs_eventloop_lag_p99_seconds')),
      max: ms(get('bioverify_api_nodejs_eventloop_lag_max_seconds')),
    },
    gc: {
      pauses,
      total_ms: ms(gcSeconds),
      share_pct: Math.round((gcSeconds / seconds) * 1000) / 10,
      by_kind: gcKinds,
    },
    store_busy_retries: {
      retried: delta('bioverify_store_busy_retries_total{outcome="retried"}'),
      exhausted: delta('bioverify_store_busy_retries_total{outcome="exhausted"}'),
    },
    stages: histograms(before, after, 'bioverify_http_stage_duration_seconds', 'stage'),
    store_commands: histograms(before, after, 'bioverify_store_command_duration_seconds', 'command'),
  };
}
