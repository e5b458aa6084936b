/**
 * The benchmark's measurements. Every comparison the targets rest on is interleaved: bare vs
 * service, batching on vs off, process vs inline executors alternate in short slices, so a burst
 * of other work on the shared machine lands on both sides instead of deciding the ratio.
 */
import type { InferenceClient } from '../../inference/src/client/inference-client';
import type { ModelEntry } from '../../inference/src/repository/load-model-repository';
import { openModel } from '../../inference/src/runtime/open-model';
import { bareCell, bareSlice, emptySamples, type BareCell } from './bare-ort';
import { benchInputs } from './bench-inputs';
import type { BenchOptions } from './bench-options';
import type { Progress } from './progress';
import type { InferenceProcess } from '../../scripts/test-support/inference-process';
import { emptyLoad, encodedInputs, loadResult, loadSlice, type LoadResult } from './service-load';

export interface Target {
  service: InferenceProcess;
  client: InferenceClient;
}

/** Bare rows/s and service rows/s (2 requests in flight, batching off) at each batch size. */
export async function sameBatchPhase(
  entry: ModelEntry,
  batches: number[],
  off: Target,
  options: BenchOptions,
  progress: Progress,
) {
  const bare = await openModel(entry);
  const cells: Array<{ bare: BareCell; service: LoadResult }> = [];
  try {
    for (const batch of batches) {
      const inputs = benchInputs(entry.config, batch);
      const encoded = encodedInputs(entry.config, batch);
      await bare.run(inputs);
      await off.client.modelInfer({ modelName: entry.name, inputs: encoded }, 120_000);
      const bareSamples = emptySamples();
      const serviceSamples = emptyLoad();
      const slice = options.cellMs / options.rounds;
      const minPerSlice = Math.ceil(options.minIterations / options.rounds);
      for (let round = 0; round < options.rounds; round++) {
        await bareSlice(bare, inputs, batch, slice, minPerSlice, bareSamples);
        await loadSlice(off.client, entry.name, encoded, batch, 2, slice, serviceSamples, minPerSlice);
      }
      const cell = { bare: bareCell(batch, bareSamples), service: loadResult(2, batch, serviceSamples) };
      cells.push(cell);
      progress.step(
        `${entry.name} batch ${batch}: bare ${cell.bare.rows_per_s} vs service ${cell.service.rows_per_s} rows/s`,
      );
    }
  } finally {
    await bare.close();
  }
  return cells;
}

/** One caller, back-to-back requests of each batch size, batching on as configured. */
export async function latencyPhase(
  entry: ModelEntry,
  batches: number[],
  on: Target,
  options: BenchOptions,
  progress: Progress,
): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  for (const batch of batches) {
    const samples = emptyLoad();
    const encoded = encodedInputs(entry.config, batch);
    await on.client.modelInfer({ modelName: entry.name, inputs: encoded }, 120_000);
    await loadSlice(on.client, entry.name, encoded, batch, 1, options.cellMs, samples, options.minIterations);
    results.push(loadResult(1, batch, samples));
    progress.step(`${entry.name} batch ${batch}: service p50 ${results.at(-1)!.latency.p50_ms} ms`);
  }
  return results;
}

export interface LoadComparison {
  a: LoadResult;
  b: LoadResult;
  lagP99Ms: { median: number; max: number };
}

/** `clients` batch-1 callers against A then B, alternating; event-loop lag read from A per slice. */
export async function compareLoad(
  entry: ModelEntry,
  clients: number,
  a: Target,
  b: Target,
  options: BenchOptions,
): Promise<LoadComparison> {
  const encoded = encodedInputs(entry.config, 1);
  const sa = emptyLoad();
  const sb = emptyLoad();
  const lags: number[] = [];
  const slice = options.loadMs / options.rounds;
  for (let round = 0; round < options.rounds; round++) {
    await a.service.resetLag();
    await loadSlice(a.client, entry.name, encoded, 1, clients, slice, sa);
    lags.push(await a.service.lagP99Ms());
    await loadSlice(b.client, entry.name, encoded, 1, clients, slice, sb);
  }
  const sorted = [...lags].sort((x, y) => x - y);
  const r = (v: number) => Math.round(v * 100) / 100;
  return {
    a: loadResult(clients, 1, sa),
    b: loadResult(clients, 1, sb),
    lagP99Ms: { median: r(sorted[Math.floor(sorted.length / 2)]), max: r(sorted.at(-1)!) },
  };
}
