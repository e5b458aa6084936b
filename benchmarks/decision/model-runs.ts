/** Model runs read from the inference service's metrics, and their share per decided applicant. */
import type { DecisionStack } from './decision-stack';
import type { ModelRuns } from './decision-summary';

type ModelCounters = Record<string, { seconds: number; cpu: number; runs: number; rows: number; cached: number }>;

/** Per model: inference_run_seconds sum and count, rows run (inference_batch_size sum) and rows the row cache answered. */
export async function modelRuns(stack: DecisionStack): Promise<ModelCounters> {
  const text = await (await fetch(stack.inference.metricsUrl)).text();
  const runs: ModelCounters = {};
  const of = (model: string) => (runs[model] ??= { seconds: 0, cpu: 0, runs: 0, rows: 0, cached: 0 });
  for (const m of text.matchAll(/^inference_run_seconds_(sum|count)\{model="([^"]+)"\} (\S+)/gm)) {
    if (m[1] === 'sum') of(m[2]).seconds = Number(m[3]);
    else of(m[2]).runs = Number(m[3]);
  }
  for (const m of text.matchAll(/^inference_run_cpu_seconds_total\{model="([^"]+)"\} (\S+)/gm))
    of(m[1]).cpu = Number(m[2]);
  for (const m of text.matchAll(/^inference_batch_size_sum\{model="([^"]+)"\} (\S+)/gm)) of(m[1]).rows = Number(m[2]);
  for (const m of text.matchAll(/^inference_row_cache_rows_total\{model="([^"]+)",outcome="(hit|shared)"\} (\S+)/gm))
    of(m[1]).cached += Number(m[3]);
  return runs;
}

/**
 * Seconds the inference front (not its executors) has spent in garbage collection, all kinds:
 * prom-client's default `inference_nodejs_gc_duration_seconds` of the front's own process.
 */
export async function frontGcSeconds(stack: DecisionStack): Promise<number> {
  const text = await (await fetch(stack.inference.metricsUrl)).text();
  let seconds = 0;
  for (const m of text.matchAll(/^inference_nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)/gm)) seconds += Number(m[1]);
  return seconds;
}

/** Per model: session.run calls, executor milliseconds, rows run and rows from the cache per decided applicant over a pass. */
export function modelRunsPerVerification(
  before: ModelCounters,
  after: ModelCounters,
  decided: number,
): Record<string, ModelRuns> {
  const per = (v: number) => Math.round((v / Math.max(1, decided)) * 10) / 10;
  return Object.fromEntries(
    Object.entries(after).map(([model, a]) => {
      const b = before[model] ?? { seconds: 0, cpu: 0, runs: 0, rows: 0, cached: 0 };
      return [
        model,
        {
          runs: per(a.runs - b.runs),
          run_ms: Math.round(((a.seconds - b.seconds) * 1000) / Math.max(1, decided)),
          cpu_ms: Math.round(((a.cpu - b.cpu) * 1000) / Math.max(1, decided)),
          rows: per(a.rows - b.rows),
          cached_rows: per(a.cached - b.cached),
        },
      ];
    }),
  );
}
