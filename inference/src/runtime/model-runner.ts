/**
 * The one seam between task logic (document, liveness, antispoof, face match) and the machinery
 * that runs models (model repository, dynamic batcher, worker layout, execution providers).
 * Task code only ever sees this interface, so it runs unchanged in-process in a unit test or
 * behind the batching gRPC service.
 */
import type { HostTensor } from '../client/host-tensor';
import type { ModelConfig } from '../repository/model-config';
import type { ImageMemo } from './image-memo';

export type { HostTensor, TensorDType } from '../client/host-tensor';
export type { ModelConfig, Preprocessing, TensorSpec } from '../repository/model-config';

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
  /**
   * The service's memory of work done on uploads (decoded images, faces found, embeddings), shared
   * by the checks of one verification; absent where tasks run alone (unit tests, evaluation).
   */
  memo?: ImageMemo;
}
