/** benchmarks/results/inference.md: the JSON's figures as tables a reviewer can read at a glance. */
import type { ModelResult } from './bench-summary';
import { ratios } from './bench-summary';

interface Output {
  generated_at: string;
  mode: string;
  machine: { cpus: number; cpu_model: string; load_average_start: number[]; load_average_end: number[] };
  service_vs_bare_ratio: number | null;
  service_vs_bare_ratio_min: number | null;
  batching_gain: number | null;
  event_loop_lag_p99_ms: number | null;
  rss_mb: number;
  targets: Record<string, number>;
  meets_targets: Record<string, boolean>;
  memory: {
    idle: { rss_mb: number; pss_mb: number; processes: number };
    peak: { rss_mb: number; pss_mb: number; processes: number };
  };
  event_loop_lag_p99_ms_worst_slice: number | null;
  layout_comparison: Record<string, unknown> | null;
  models: ModelResult[];
}

const cell = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));

export function renderTable(o: Output): string {
  const lines = [
    `# Inference benchmark (${o.mode} run, ${o.generated_at})`,
    '',
    `${o.machine.cpus} × ${o.machine.cpu_model}; load average ${o.machine.load_average_start.map((l) => l.toFixed(1)).join('/')} at start, ${o.machine.load_average_end.map((l) => l.toFixed(1)).join('/')} at end (other work on the machine shows up here).`,
    '',
    '| figure | measured | target | met |',
    '|---|---|---|---|',
    `| service_vs_bare_ratio (median; min ${cell(o.service_vs_bare_ratio_min)}) | ${cell(o.service_vs_bare_ratio)} | ≥ ${o.targets.service_vs_bare_ratio} | ${o.meets_targets.service_vs_bare_ratio ? 'yes' : 'no'} |`,
    `| batching_gain at 32 clients (median) | ${cell(o.batching_gain)} | ≥ ${o.targets.batching_gain} | ${o.meets_targets.batching_gain ? 'yes' : 'no'} |`,
    `| event_loop_lag_p99_ms at 32 clients (worst model, median of slices; worst slice ${cell(o.event_loop_lag_p99_ms_worst_slice)}) | ${cell(o.event_loop_lag_p99_ms)} | < ${o.targets.event_loop_lag_p99_ms} | ${o.meets_targets.event_loop_lag_p99_ms ? 'yes' : 'no'} |`,
    `| rss_mb, every model loaded, peak under load (idle ${o.memory.idle.rss_mb}; PSS ${o.memory.peak.pss_mb}; ${o.memory.peak.processes} processes) | ${o.rss_mb} | < ${o.targets.rss_mb} | ${o.meets_targets.rss_mb ? 'yes' : 'no'} |`,
    '',
    '## Per model and batch size',
    '',
    '| model | batch | service p50 / p95 / p99 ms | bare p50 ms | service rows/s | bare rows/s | ratio |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of o.models) {
    const byBatch = new Map(ratios(r).map((c) => [c.batch_size, c.ratio]));
    for (const bare of r.bare) {
      const lat = r.service_latency.find((c) => c.batch_size === bare.batch_size)?.latency;
      const same = r.service_same_batch.find((c) => c.batch_size === bare.batch_size);
      const skipped = r.skipped_batch_sizes.find((s) => s.batch_size === bare.batch_size);
      const service = lat
        ? `${cell(lat.p50_ms)} / ${cell(lat.p95_ms)} / ${cell(lat.p99_ms)}`
        : skipped
          ? `not sent: ${skipped.reason}`
          : '–';
      const ratio = byBatch.get(bare.batch_size);
      lines.push(
        `| ${r.model} | ${bare.batch_size} | ${service} | ${cell(bare.latency.p50_ms)} | ${cell(same?.rows_per_s)} | ${bare.rows_per_s} | ${ratio === undefined ? '–' : ratio.toFixed(2)} |`,
      );
    }
  }
  lines.push(
    '',
    '## Concurrent clients (batch-1 requests)',
    '',
    '| model | clients | batching on req/s | p50 / p99 ms | batching off req/s | p50 / p99 ms | lag p99 ms (on; median of slices) |',
    '|---|---|---|---|---|---|---|',
  );
  for (const r of o.models.filter((m) => m.load)) {
    for (const on of r.load!.batching_on) {
      const off = r.load!.batching_off.find((l) => l.clients === on.clients);
      const lag = r.load!.lag_p99_ms[String(on.clients)];
      lines.push(
        `| ${r.model} | ${on.clients} | ${on.rows_per_s} | ${cell(on.latency.p50_ms)} / ${cell(on.latency.p99_ms)} | ${cell(off?.rows_per_s)} | ${cell(off?.latency.p50_ms)} / ${cell(off?.latency.p99_ms)} | ${lag ? `${lag.median} (worst ${lag.max})` : '–'} |`,
      );
    }
  }
  if (o.layout_comparison)
    lines.push('', '## Executor layout', '', '```json', JSON.stringify(o.layout_comparison, null, 2), '```');
  return `${lines.join('\n')}\n`;
}
