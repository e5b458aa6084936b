/**
 * Load shapes sent to the service over gRPC: back-to-back requests of one batch size (latency),
 * and N concurrent clients each sending batch-1 requests for a fixed time (throughput).
 */
import type { InferenceClient } from '../../inference/src/client/inference-client';
import type { InferTensor } from '../../proto/gen/bioverify/inference/v1/model_service';
import { encodeTensor } from '../../inference/src/grpc/tensor-codec';
import type { ModelConfig } from '../../inference/src/runtime/model-runner';
import { round } from './bare-ort';
import { benchInputs } from './bench-inputs';
import { summarise, type LatencySummary } from './percentiles';

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

/**
 * `clients` loops send requests back to back for `durationMs`; each request carries `rows` rows.
 * With clients = 1 this is the sequential latency of one caller.
 */
export async function runLoad(client: InferenceClient, model: string, config: ModelConfig, rows: number, clients: number, durationMs: number, minRequests = 0): Promise<LoadResult> {
  const inputs = encodedInputs(config, rows);
  await client.modelInfer({ modelName: model, inputs }, 120_000);
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const started = performance.now();
  const stopAt = started + durationMs;
  const loop = async () => {
    while (performance.now() < stopAt || latencies.length < minRequests) {
      const t = performance.now();
      try {
        await client.modelInfer({ modelName: model, inputs }, 120_000);
        latencies.push(performance.now() - t);
      } catch (error) {
        const code = String((error as { code?: number }).code ?? 'unknown');
        errors[code] = (errors[code] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  const elapsedS = (performance.now() - started) / 1000;
  return { clients, batch_size: rows, requests: latencies.length, rows_per_s: round((latencies.length * rows) / elapsedS), latency: summarise(latencies), errors };
}
