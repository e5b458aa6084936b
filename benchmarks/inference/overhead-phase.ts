/**
 * `npm run bench:inference -- --overhead`: what the service costs per request over bare
 * onnxruntime-node, the issue 14 figures. Per model and round, back to back on the same machine:
 * bare session.run of batch 1 (one caller), the service's ModelInfer from one client, and from 32
 * clients (dynamic batching on, as configured), with the service's event-loop lag p99 during the
 * 32-client slice. Ratios are per round (so each compares slices a few seconds apart) and the
 * reported figure is their median.
 */
import { loadavg } from 'node:os';
import type { ModelEntry } from '../../inference/src/repository/load-model-repository';
import { openModel } from '../../inference/src/runtime/open-model';
import { bareSlice, emptySamples, round } from './bare-ort';
import { benchInputs } from './bench-inputs';
import type { Target } from './bench-phases';
import { median } from './percentiles';
import type { Progress } from './progress';
import { emptyLoad, encodedInputs, loadSlice } from './service-load';

export interface OverheadRound {
  load_average_1m: number;
  bare_per_s: number;
  one_client_per_s: number;
  one_client_p50_ms: number;
  clients_32_per_s: number;
  lag_p99_ms: number;
}

export interface OverheadResult {
  model: string;
  rounds: OverheadRound[];
  /** Medians over rounds. */
  one_client_vs_bare: number;
  clients_32_vs_bare: number;
  lag_p99_ms: number;
}

const perSecond = (count: number, ms: number) => round((count * 1000) / ms);

export async function overheadPhase(entry: ModelEntry, on: Target, rounds: number, sliceMs: number, progress: Progress): Promise<OverheadResult> {
  const bare = await openModel(entry);
  const inputs = benchInputs(entry.config, 1);
  const encoded = encodedInputs(entry.config, 1);
  const measured: OverheadRound[] = [];
  try {
    await bare.run(inputs);
    await loadSlice(on.client, entry.name, encoded, 1, 32, 300, emptyLoad());
    for (let r = 0; r < rounds; r++) {
      const b = emptySamples();
      await bareSlice(bare, inputs, 1, sliceMs, 3, b);
      const one = emptyLoad();
      await loadSlice(on.client, entry.name, encoded, 1, 1, sliceMs, one, 3);
      const many = emptyLoad();
      await on.service.resetLag();
      await loadSlice(on.client, entry.name, encoded, 1, 32, sliceMs, many, 32);
      const lag = await on.service.lagP99Ms();
      const sorted = [...one.latencies].sort((x, y) => x - y);
      measured.push({
        load_average_1m: round(loadavg()[0]!, 2),
        bare_per_s: perSecond(b.rows, b.elapsedMs),
        one_client_per_s: perSecond(one.rows, one.elapsedMs),
        one_client_p50_ms: round(sorted[Math.floor(sorted.length / 2)] ?? NaN, 2),
        clients_32_per_s: perSecond(many.rows, many.elapsedMs),
        lag_p99_ms: round(lag, 2),
      });
      const m = measured.at(-1)!;
      progress.note(`${entry.name} round ${r + 1}: bare ${m.bare_per_s}/s, 1 client ${m.one_client_per_s}/s (p50 ${m.one_client_p50_ms} ms), 32 clients ${m.clients_32_per_s}/s, lag p99 ${m.lag_p99_ms} ms, load ${m.load_average_1m}`);
    }
  } finally {
    await bare.close();
  }
  const r2 = (v: number) => Math.round(v * 100) / 100;
  return {
    model: entry.name,
    rounds: measured,
    one_client_vs_bare: r2(median(measured.map((m) => m.one_client_per_s / m.bare_per_s)) ?? NaN),
    clients_32_vs_bare: r2(median(measured.map((m) => m.clients_32_per_s / m.bare_per_s)) ?? NaN),
    lag_p99_ms: r2(median(measured.map((m) => m.lag_p99_ms)) ?? NaN),
  };
}

export function renderOverhead(results: OverheadResult[], header: string): string {
  const rows = results.map((r) => {
    const med = (f: (m: OverheadRound) => number) => round(median(r.rounds.map(f)) ?? NaN);
    return `| ${r.model} | ${med((m) => m.bare_per_s)} | ${med((m) => m.one_client_per_s)} (p50 ${med((m) => m.one_client_p50_ms)} ms) | **${r.one_client_vs_bare}** | ${med((m) => m.clients_32_per_s)} | **${r.clients_32_vs_bare}** | ${r.lag_p99_ms} | ${r.rounds.map((m) => m.load_average_1m).join(' / ')} |`;
  });
  return [
    `# Service overhead per request (\`npm run bench:inference -- --overhead\`)`,
    '',
    header,
    '',
    '| model | bare batch-1 runs/s | ModelInfer 1 client req/s | 1 client / bare | 32 clients req/s | 32 clients / bare | lag p99 ms (32 clients) | load average per round |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'Medians over rounds; each round runs bare, one client and 32 clients back to back. Targets (issue 14): 1 client ≥ 0.8, 32 clients ≥ 0.85, lag p99 < 20 ms.',
    '',
  ].join('\n');
}
