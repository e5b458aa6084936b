/**
 * models/<name>/<version>/config.json as the service, the task code and the tools read it; see
 * models/README.md for the meaning of each field. The zod schema that checks it is
 * model-config-schema.ts.
 */
import type { TensorDType } from '../client/host-tensor';

export interface ModelConfig {
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
  max_batch_size: number;
  dynamic_batching?: { preferred_batch_size?: number[]; max_queue_delay_microseconds: number; max_queue_size?: number };
  execution_providers: Array<'cuda' | 'cpu'>;
  thresholds?: Record<string, number>;
  assets?: Record<string, string>;
  warmup?: { batch_size: number };
}

/** Where model.onnx comes from: a file in a pinned npm package (copied or converted), or a file committed to this repository. */
export type ModelSource = PackageModelSource | CommittedModelSource;
export interface PackageModelSource { package: string; package_version: string; path: string; conversion?: string }
/**
 * A model no package carries, converted once by a tool in this repository and committed beside it
 * (with its licence and provenance); `committed` is its path from the repository root.
 */
export interface CommittedModelSource { committed: string; upstream?: string; /** Package models only. */ path?: undefined }

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
  /** Face-box enlargement around its centre before the crop (MiniFASNet: 2.7 or 4.0). */
  crop_scale?: number;
}
