/**
 * The one seam between task logic (document, liveness, antispoof, face match) and the machinery
 * that runs models (model repository, dynamic batcher, worker layout, execution providers).
 * Task code only ever sees this interface, so it runs unchanged in-process in a unit test or
 * behind the batching gRPC service.
 */

export type TensorDType = 'float32' | 'int32' | 'int64' | 'uint8';

/** A dense tensor; dims include the leading batch dimension (>= 1). */
export interface HostTensor {
  dims: number[];
  dtype: TensorDType;
  data: Float32Array | Int32Array | BigInt64Array | Uint8Array;
}

export interface InferOptions {
  /** Absolute deadline (ms since epoch); work still queued after it is dropped, never run. */
  deadlineMs?: number;
}

export interface ModelRunner {
  /**
   * Runs the served version of `model` on `inputs` (keyed by the config's input names). Requests
   * whose non-batch dims are equal may be batched with other callers' requests; the result holds
   * exactly this request's rows.
   */
  infer(model: string, inputs: Record<string, HostTensor>, options?: InferOptions): Promise<Record<string, HostTensor>>;
  /** The declared config of the served version (thresholds, preprocessing, dims). */
  config(model: string): ModelConfig;
}

/** Mirrors models/<name>/<version>/config.json; see models/README.md for the meaning of each field. */
export interface ModelConfig {
  name: string;
  version: number;
  task: string;
  platform: 'onnxruntime';
  file: string;
  sha256: string;
  licence: string;
  source: { package: string; package_version: string; path: string; conversion?: string };
  inputs: TensorSpec[];
  outputs: TensorSpec[];
  preprocessing?: Preprocessing;
  max_batch_size: number;
  dynamic_batching?: { preferred_batch_size?: number[]; max_queue_delay_microseconds: number; max_queue_size?: number };
  execution_providers: Array<'cuda' | 'cpu'>;
  thresholds?: Record<string, number>;
  assets?: Record<string, string>;
  warmup?: { batch_size: number };
}

export interface TensorSpec {
  name: string;
  dtype: TensorDType;
  /** Without the batch dimension when max_batch_size > 0 (Triton's rule); -1 marks a free dim. */
  dims: number[];
  layout?: 'NHWC' | 'NCHW' | 'NC' | 'NTC' | string;
}

export interface Preprocessing {
  width: number;
  height: number;
  color: 'RGB' | 'BGR' | 'GRAY';
  /** value = (pixel * scale - mean[c]) / std[c] */
  scale: number;
  mean: number[];
  std: number[];
  layout: 'NHWC' | 'NCHW';
}
