/**
 * ModelService over a ModelHost. Handlers stay thin: decode, call the host, encode, map errors.
 * The caller's gRPC deadline becomes the request's queue deadline, and a cancelled call is dropped
 * from the queue, so work nobody waits for is never run.
 */
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import type {
  BatchProfile,
  ModelInferRequest,
  ModelInferResponse,
  ModelMetadataRequest,
  ModelMetadataResponse,
  ModelReadyRequest,
  ModelReadyResponse,
  ModelServiceServer,
  ModelStatistics,
  ModelStatisticsRequest,
  ModelStatisticsResponse,
  RepositoryIndexRequest,
  RepositoryIndexResponse,
} from '../../../proto/gen/bioverify/inference/v1/model_service';
import type { Duration } from '../metrics/model-statistics';
import { InferenceError } from '../runtime/inference-error';
import type { HostTensor, ModelConfig, TensorSpec } from '../runtime/model-runner';
import { deviceName, type HostedModel } from '../serving/hosted-model';
import type { ModelHost } from '../serving/model-host';
import { toServiceError } from './grpc-errors';
import { decodeTensor, encodeTensor, InvalidTensorError, protoDataType } from '../client/tensor-codec';

type Unary<Req, Res> = (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => void;

function unary<Req, Res>(
  handler: (request: Req, call: ServerUnaryCall<Req, Res>) => Res | Promise<Res>,
): Unary<Req, Res> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => handler(call.request, call))
      .then(
        (response) => callback(null, response),
        (error: unknown) => callback(toServiceError(error), null),
      );
  };
}

export function deadlineMsOf(call: ServerUnaryCall<unknown, unknown>): number | undefined {
  const deadline = call.getDeadline();
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}

/** The codec is the client's: its refusals become the service's INVALID_ARGUMENT here. */
function decodeInput(tensor: Parameters<typeof decodeTensor>[0]): HostTensor {
  try {
    return decodeTensor(tensor);
  } catch (error) {
    if (error instanceof InvalidTensorError) throw new InferenceError('INVALID_ARGUMENT', error.message);
    throw error;
  }
}

const tensorMetadata = (spec: TensorSpec) => ({
  name: spec.name,
  datatype: protoDataType(spec.dtype),
  shape: spec.dims,
  layout: spec.layout ?? '',
});
const batchProfileOf = (config: ModelConfig): BatchProfile => {
  const profile = config.batching[config.device];
  return {
    device: config.device,
    maxBatchSize: profile.max_batch_size,
    preferredBatchSize: profile.preferred_batch_size ?? [],
    maxQueueDelayMicroseconds: profile.max_queue_delay_microseconds,
    maxQueueSize: profile.max_queue_size ?? 0,
    warmupBatchSizes: profile.warmup_batch_sizes,
  };
};
const duration = (d: Duration) => ({ count: d.count, ns: d.ns });

function statisticsOf(model: HostedModel): ModelStatistics {
  const s = model.stats;
  return {
    name: model.entry.name,
    version: String(model.entry.version),
    executionProvider: model.executor.provider,
    device: deviceName(model.executor.provider),
    inferenceCount: s.inferenceCount,
    executionCount: s.executionCount,
    inferenceStats: {
      success: duration(s.success),
      fail: duration(s.fail),
      queue: duration(s.queue),
      computeInfer: duration(s.computeInfer),
    },
    batchStats: [...s.byBatchSize.entries()]
      .sort(([a], [b]) => a - b)
      .map(([batchSize, d]) => ({ batchSize, computeInfer: duration(d) })),
    queueDepth: model.batcher.depth,
  };
}

/** `current` answers undefined until every model has loaded; calls before that are UNAVAILABLE. */
export function modelServiceHandlers(current: () => ModelHost | undefined): ModelServiceServer {
  const loaded = (): ModelHost => {
    const host = current();
    if (!host) throw new InferenceError('UNAVAILABLE', 'models are still loading');
    return host;
  };
  return {
    modelReady: unary<ModelReadyRequest, ModelReadyResponse>((req) => ({
      ready: loaded().find(req.name, req.version).ready,
    })),

    modelMetadata: unary<ModelMetadataRequest, ModelMetadataResponse>((req) => {
      const model = loaded().find(req.name, req.version);
      const config = model.config;
      return {
        name: config.name,
        versions: [String(config.version)],
        platform: config.platform,
        task: config.task,
        inputs: config.inputs.map(tensorMetadata),
        outputs: config.outputs.map(tensorMetadata),
        maxBatchSize: config.max_batch_size,
        executionProvider: model.executor.provider,
        skippedProviders: model.executor.skippedProviders,
        thresholds: config.thresholds ?? {},
        sha256: config.sha256,
        configJson: JSON.stringify(config),
        device: deviceName(model.executor.provider),
        batchProfile: batchProfileOf(config),
      };
    }),

    modelInfer: unary<ModelInferRequest, ModelInferResponse>(async (req, call) => {
      const host = loaded();
      const model = host.find(req.modelName, req.modelVersion);
      let inputs: Record<string, HostTensor>;
      let wanted: string[];
      try {
        inputs = Object.fromEntries(req.inputs.map((t) => [t.name, decodeInput(t)]));
        if (req.inputs.length !== Object.keys(inputs).length)
          throw new InferenceError('INVALID_ARGUMENT', 'an input name appears twice');
        wanted = req.outputs.length > 0 ? req.outputs : model.config.outputs.map((o) => o.name);
        const unknown = wanted.find((name) => !model.config.outputs.some((o) => o.name === name));
        if (unknown)
          throw new InferenceError('INVALID_ARGUMENT', `model "${req.modelName}" has no output "${unknown}"`);
      } catch (error) {
        model.recordRefused(error);
        throw error;
      }
      const outputs = await host.infer(req.modelName, inputs, {
        deadlineMs: deadlineMsOf(call),
        cancelled: () => call.cancelled,
      });
      return {
        modelName: model.entry.name,
        modelVersion: String(model.entry.version),
        id: req.id,
        outputs: wanted.map((name) => encodeTensor(name, outputs[name])),
      };
    }),

    modelStatistics: unary<ModelStatisticsRequest, ModelStatisticsResponse>((req) => ({
      modelStats: (req.name ? [loaded().find(req.name, req.version)] : loaded().models()).map(statisticsOf),
    })),

    repositoryIndex: unary<RepositoryIndexRequest, RepositoryIndexResponse>(() => ({
      models: loaded()
        .models()
        .map((m) => ({
          name: m.entry.name,
          version: String(m.entry.version),
          ready: m.ready,
          executionProvider: m.executor.provider,
          device: deviceName(m.executor.provider),
        })),
    })),
  };
}
