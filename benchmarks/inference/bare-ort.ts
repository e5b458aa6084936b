/**
 * Bare onnxruntime-node: the same model files and session options as the service, session.run()
 * called back to back in this process. The yardstick for the service's overhead.
 */
import type { ModelEntry } from '../../inference/src/repository/load-model-repository';
import { openModel } from '../../inference/src/runtime/open-model';
import { benchInputs } from './bench-inputs';
import type { BenchOptions } from './bench-options';
import { summarise, type LatencySummary } from './percentiles';
import type { Progress } from './progress';

export interface BareCell { batch_size: number; latency: LatencySummary; rows_per_s: number }

export async function measureBare(entry: ModelEntry, options: BenchOptions, progress: Progress): Promise<BareCell[]> {
  const model = await openModel(entry);
  const cells: BareCell[] = [];
  try {
    for (const batch of options.batchSizes) {
      const inputs = benchInputs(entry.config, batch);
      await model.run(inputs);
      const samples: number[] = [];
      const started = performance.now();
      while (samples.length < options.maxIterations && (samples.length < options.minIterations || performance.now() - started < options.cellMs)) {
        const t = performance.now();
        await model.run(inputs);
        samples.push(performance.now() - t);
      }
      const latency = summarise(samples);
      cells.push({ batch_size: batch, latency, rows_per_s: round((batch * 1000) / latency.mean_ms!) });
      progress.step(`bare ${entry.name} batch ${batch}: p50 ${latency.p50_ms} ms`);
    }
  } finally {
    await model.close();
  }
  return cells;
}

export const round = (v: number, digits = 1): number => Math.round(v * 10 ** digits) / 10 ** digits;
