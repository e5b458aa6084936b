/**
 * Bare onnxruntime-node: the same model files and session options as the service, session.run()
 * called back to back in the benchmark process. The yardstick for the service's overhead.
 */
import type { OpenModel } from '../../inference/src/runtime/open-model';
import type { HostTensor } from '../../inference/src/runtime/model-runner';
import { summarise, type LatencySummary } from '../../scripts/test-support/percentiles';

export interface BareCell {
  batch_size: number;
  latency: LatencySummary;
  rows_per_s: number;
}

export interface Samples {
  latencies: number[];
  rows: number;
  elapsedMs: number;
}

export const emptySamples = (): Samples => ({ latencies: [], rows: 0, elapsedMs: 0 });

/** Runs back to back for `durationMs` (at least `minIterations`), adding to `into`. */
export async function bareSlice(
  model: OpenModel,
  inputs: Record<string, HostTensor>,
  rows: number,
  durationMs: number,
  minIterations: number,
  into: Samples,
): Promise<void> {
  const started = performance.now();
  let runs = 0;
  while (runs < minIterations || performance.now() - started < durationMs) {
    const t = performance.now();
    await model.run(inputs);
    into.latencies.push(performance.now() - t);
    into.rows += rows;
    runs += 1;
  }
  into.elapsedMs += performance.now() - started;
}

export function bareCell(batch: number, samples: Samples): BareCell {
  return {
    batch_size: batch,
    latency: summarise(samples.latencies),
    rows_per_s: round((samples.rows * 1000) / samples.elapsedMs),
  };
}

export const round = (v: number, digits = 1): number => Math.round(v * 10 ** digits) / 10 ** digits;
