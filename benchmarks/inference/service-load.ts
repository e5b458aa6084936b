/**
 * Load sent to the service over gRPC: `clients` loops sending requests of `rows` rows back to
 * back. Slices of the same load accumulate into one result, so measurements can be interleaved
 * with their comparison (bare, or batching off) and share the machine's background noise.
 */
import type { InferenceClient } from '../../inference/src/client/inference-client';
import { encodeTensor } from '../../inference/src/client/tensor-codec';
import type { ModelConfig } from '../../inference/src/runtime/model-runner';
import type { InferTensor } from '../../proto/gen/bioverify/inference/v1/model_service';
import { emptySamples, round, type Samples } from './bare-ort';
import { benchInputs } from './bench-inputs';
import { summarise, type LatencySummary } from '../../scripts/test-support/percentiles';

export const encodedInputs = (config: ModelConfig, rows: number): InferTensor[] =>
  Object.entries(benchInputs(config, rows)).map(([name, t]) => encodeTensor(name, t));

export interface LoadResult {
  clients: number;
  batch_size: number;
  requests: number;
  rows_per_s: number;
  latency: LatencySummary;
  errors: Record<string, number>;
}

export interface LoadSamples extends Samples {
  errors: Record<string, number>;
}
export const emptyLoad = (): LoadSamples => ({ ...emptySamples(), errors: {} });

export async function loadSlice(
  client: InferenceClient,
  model: string,
  inputs: InferTensor[],
  rows: number,
  clients: number,
  durationMs: number,
  into: LoadSamples,
  minRequests = 0,
): Promise<void> {
  const started = performance.now();
  const stopAt = started + durationMs;
  let done = 0;
  const loop = async () => {
    while (performance.now() < stopAt || done < minRequests) {
      const t = performance.now();
      try {
        await client.modelInfer({ modelName: model, inputs }, 120_000);
        into.latencies.push(performance.now() - t);
        into.rows += rows;
      } catch (error) {
        const code = String((error as { code?: number }).code ?? 'unknown');
        into.errors[code] = (into.errors[code] ?? 0) + 1;
      }
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  into.elapsedMs += performance.now() - started;
}

export function loadResult(clients: number, rows: number, samples: LoadSamples): LoadResult {
  return {
    clients,
    batch_size: rows,
    requests: samples.latencies.length,
    rows_per_s: round((samples.rows * 1000) / samples.elapsedMs),
    latency: summarise(samples.latencies),
    errors: samples.errors,
  };
}
