/**
 * models/<name>/<version>/config.json as the service, the task code and the tools read it; see
 * models/README.md for the meaning of each field. The zod schema that checks it is
 * model-config-schema.ts.
 */
import type { TensorDType } from '../client/host-tensor';

/** Where a model's session runs; also the key of its batch profile. */
export type Device = 'cpu' | 'cuda';

/**
 * How the dynamic batcher serves a model on one device. A CPU gains little past a small batch; a
 * GPU delivers most of its throughput only at large ones (measured on an H100: face-embedding
 * 760/s at batch 1, 24,500/s at 64), so each device has its own.
 */
export interface BatchProfile {
  /** Largest batch the batcher forms and the largest one request may carry. */
  max_batch_size: number;
  /** Sizes the batcher aims for before its delay runs out. */
  preferred_batch_size?: number[];
  /** How long a request may wait for companions. */
  max_queue_delay_microseconds: number;
  /** Requests beyond it are refused (RESOURCE_EXHAUSTED). */
  max_queue_size?: number;
  /** Batch sizes run before the model turns ready, so no applicant pays a first-shape cost. */
  warmup_batch_sizes: number[];
}

/** config.json as declared: tensor shapes once, a batch profile per device. */
export interface DeclaredModelConfig {
  name: string;
  version: number;
  task: string;
  platform: 'onnxruntime';
  file: string;
  sha256: string;
  licence: string;
  source: ModelSource;
  inputs: TensorSpec[];
  outputs: TensorSpec[];
  preprocessing?: Preprocessing;
  batching: Record<Device, BatchProfile>;
  thresholds?: Record<string, number>;
  assets?: Record<string, string>;
  /**
   * Which file a CUDA session opens (default fp32: `file`). fp16 opens `fp16.file` and is allowed
   * only on CUDA: with INFERENCE_DEVICE=cpu the service refuses to start, and under auto a CPU
   * fallback opens the fp32 file with a warning.
   */
  precision?: Precision;
  /** The half-precision variant, converted by `npm run models:convert-fp16` (not materialized by default). */
  fp16?: { file: string; sha256: string };
}

export type Precision = 'fp32' | 'fp16';

/**
 * The config as served on one device: the declared one plus that device's profile, spelled as
 * Triton does (max_batch_size, dynamic_batching), which is what task code and remote callers read.
 */
export interface ModelConfig extends DeclaredModelConfig {
  device: Device;
  max_batch_size: number;
  dynamic_batching: {
    preferred_batch_size?: number[];
    max_queue_delay_microseconds: number;
    max_queue_size?: number;
  };
}

/** Where model.onnx comes from: a file in a pinned npm package (copied or converted), or a file committed to this repository. */
export type ModelSource = PackageModelSource | CommittedModelSource;
export interface PackageModelSource {
  package: string;
  package_version: string;
  path: string;
  conversion?: string;
}
/**
 * A model no package carries, converted once by a tool in this repository and committed beside it
 * (with its licence and provenance); `committed` is its path from the repository root.
 */
export interface CommittedModelSource {
  committed: string;
  upstream?: string;
  /** Package models only. */ path?: undefined;
}

export interface TensorSpec {
  name: string;
  dtype: TensorDType;
  /** Without the batch dimension (every model takes one, Triton's rule); -1 marks a free dim. */
  dims: number[];
  /** NHWC, NCHW, NC or NTC for the tasks' own readers; any other a model declares is carried as is. */
  layout?: string;
  /** Class-index outputs only: how many classes the index ranges over (a recogniser's charset size). */
  classes?: number;
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
  /** Face-box enlargement around its centre before the crop (MiniFASNet: 2.7 or 4.0). */
  crop_scale?: number;
}
