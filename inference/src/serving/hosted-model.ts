/**
 * One served model inside the service: its executor, its dynamic batcher and its statistics.
 * Each batch is stacked, run on the executor and split back per request; every outcome is
 * counted in both the Prometheus series and the Triton-style statistics.
 */
import { rowsOf, splitBatch, type TensorMap } from '../batching/batch-tensors';
import {
  DynamicBatcher,
  type BatchingPolicy,
  type QueuedRequest,
  type SubmitOptions,
} from '../batching/dynamic-batcher';
import type { ModelExecutor } from '../executor/executor-protocol';
import type { InferenceMetrics } from '../metrics/inference-metrics';
import { addDuration, emptyStatistics, type ModelStatisticsRecord } from '../metrics/model-statistics';
import type { ModelEntry } from '../repository/load-model-repository';
import { InferenceError, isInferenceError } from '../runtime/inference-error';
import { servedConfig } from '../repository/served-config';
import type { ProviderName } from '../runtime/execution-providers';
import type { ModelConfig } from '../runtime/model-runner';

/** The served device's profile; with dynamic batching off (the benchmark's baseline) each request runs alone. */
export function batchingPolicy(config: ModelConfig, dynamicBatching: boolean): BatchingPolicy {
  const declared = config.dynamic_batching;
  return {
    maxBatchSize: dynamicBatching ? config.max_batch_size : 1,
    preferredBatchSizes: dynamicBatching ? (declared.preferred_batch_size ?? []) : [],
    maxQueueDelayMs: dynamicBatching ? declared.max_queue_delay_microseconds / 1000 : 0,
    maxQueueSize: declared.max_queue_size ?? 1024,
  };
}

/** Where the session runs, as the metrics and ModelMetadata name it. */
export const deviceName = (provider: ProviderName): string => (provider === 'cuda' ? 'cuda:0' : 'cpu');

export class HostedModel {
  readonly stats: ModelStatisticsRecord = emptyStatistics();
  readonly batcher: DynamicBatcher<TensorMap, TensorMap>;
  /** As served on the device its session opened on (that device's batch profile). */
  readonly config: ModelConfig;
  ready = false;

  constructor(
    readonly entry: ModelEntry,
    public executor: ModelExecutor,
    private readonly metrics: InferenceMetrics,
    dynamicBatching: boolean,
  ) {
    const labels = { model: entry.name };
    this.config = servedConfig(entry.declared, executor.provider);
    this.batcher = new DynamicBatcher(
      batchingPolicy(this.config, dynamicBatching),
      (batch, rank) => this.runBatch(batch, rank),
      {
        onDequeue: (waitMs) => {
          addDuration(this.stats.queue, waitMs);
          metrics.queueSeconds.observe(labels, waitMs / 1000);
        },
        onReject: () => undefined,
      },
    );
  }

  markReady(ready: boolean): void {
    this.ready = ready;
    this.metrics.modelReady.set({ model: this.entry.name }, ready ? 1 : 0);
    if (ready)
      this.metrics.modelInfo.set(
        {
          model: this.entry.name,
          version: String(this.entry.version),
          provider: this.executor.provider,
          device: deviceName(this.executor.provider),
        },
        1,
      );
  }

  /** Counts a request refused before it reached the queue (bad tensors, expired deadline). */
  recordRefused(error: unknown): void {
    this.stats.inferenceCount += 1;
    this.metrics.requests.inc({ model: this.entry.name });
    this.recordFailure(error, 0);
  }

  /** Accepts a validated request; resolves with exactly its rows. */
  async infer(inputs: TensorMap, rows: number, shapeKey: string, options: SubmitOptions): Promise<TensorMap> {
    const started = performance.now();
    const labels = { model: this.entry.name };
    this.stats.inferenceCount += 1;
    this.metrics.requests.inc(labels);
    try {
      if (!this.ready) throw new InferenceError('UNAVAILABLE', `model "${this.entry.name}" is not ready`);
      const outputs = await this.batcher.submit(inputs, rows, shapeKey, options);
      addDuration(this.stats.success, performance.now() - started);
      return outputs;
    } catch (error) {
      this.recordFailure(error, performance.now() - started);
      throw error;
    } finally {
      this.metrics.queueDepth.set(labels, this.batcher.depth);
    }
  }

  private recordFailure(error: unknown, elapsedMs: number): void {
    addDuration(this.stats.fail, elapsedMs);
    this.metrics.errors.inc({
      model: this.entry.name,
      code: isInferenceError(error) ? error.code : 'INTERNAL',
    });
  }

  private async runBatch(batch: Array<QueuedRequest<TensorMap, TensorMap>>, rank: number): Promise<void> {
    const labels = { model: this.entry.name };
    this.metrics.queueDepth.set(labels, this.batcher.depth);
    const requests = batch.map((r) => r.input);
    const rows = requests.reduce((n, r) => n + rowsOf(r), 0);
    const started = performance.now();
    const { outputs, cpuMs } = await this.executor.run(requests, rank);
    const elapsed = performance.now() - started;
    this.stats.executionCount += 1;
    addDuration(this.stats.computeInfer, elapsed);
    const perSize = this.stats.byBatchSize.get(rows) ?? { count: 0, ns: 0 };
    addDuration(perSize, elapsed);
    this.stats.byBatchSize.set(rows, perSize);
    this.metrics.runSeconds.observe(labels, elapsed / 1000);
    this.metrics.runCpuSeconds.inc(labels, cpuMs / 1000);
    this.metrics.batchSize.observe(labels, rows);
    const answers = splitBatch(
      outputs,
      batch.map((r) => r.rows),
    );
    batch.forEach((request, i) => request.resolve(answers[i]));
  }
}
