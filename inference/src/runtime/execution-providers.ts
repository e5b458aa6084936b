/**
 * Opens an ONNX session on the device the service was asked for, and nowhere else unless asked:
 * `cuda` opens on CUDA or fails, `cpu` on CPU, `auto` tries CUDA and falls back to CPU, keeping the
 * reason so the start log (a warning), ModelMetadata and the metrics can say why. A silent CPU
 * fallback would let a GPU node serve at a tenth of its speed while reporting ready.
 */
import * as ort from 'onnxruntime-node';
import type { Device } from '../repository/model-config';

/** onnxruntime-node's names; 'CUDAExecutionProvider' would be dropped without a word. */
export type ProviderName = Device;
/** INFERENCE_DEVICE: where every model must run ('auto': CUDA when it opens, CPU otherwise). */
export type DeviceRequest = Device | 'auto';

export interface SessionTuning {
  /** ORT intra-op threads; default leaves ORT's own choice (one per core). */
  intraOpThreads?: number;
  /** Niceness of executor processes (0-19); default 0 (see INFERENCE_EXECUTOR_NICE in config/service-env.ts). */
  executorNice?: number;
  /** Default cpu. */
  device?: DeviceRequest;
  /** Folder of the CUDA 13 runtime libraries (npm run gpu:install), put on the executors' LD_LIBRARY_PATH. */
  cudaLibraryPath?: string;
}

export interface SkippedProvider {
  provider: ProviderName;
  reason: string;
}

export interface OpenedSession {
  session: ort.InferenceSession;
  provider: ProviderName;
  /** Only under `auto`: CUDA, with the reason it did not open. */
  skipped: SkippedProvider[];
}

/** A model could not open on CUDA while INFERENCE_DEVICE=cuda: the service must not start. */
export class CudaUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`cannot open on CUDA (INFERENCE_DEVICE=cuda): ${reason}`);
    this.name = 'CudaUnavailableError';
  }
}

export type SessionOpener = (
  modelPath: string,
  provider: ProviderName,
  tuning: SessionTuning,
) => Promise<ort.InferenceSession>;

function sessionOptions(provider: ProviderName, tuning: SessionTuning): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: [provider],
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
    ...(tuning.intraOpThreads ? { intraOpNumThreads: tuning.intraOpThreads } : {}),
    // Spinning intra-op threads burn the cores the gRPC front needs between batches. Spinning only
    // while a run lasts (session.force_spinning_stop) makes a lone run 0.2-0.3 ms faster, but under
    // load it lost: bench:decision 40 x 3 interleaved, 1,384 and 1,974 ms of CPU a verification
    // against 1,665 and 1,619 without (inference/README.md, "Call order").
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
}

export const openOrtSession: SessionOpener = (modelPath, provider, tuning) =>
  ort.InferenceSession.create(modelPath, sessionOptions(provider, tuning));

const firstLine = (error: unknown): string => (error as Error).message.split('\n')[0] ?? 'unknown error';

export async function openSessionOnDevice(
  modelPath: string,
  tuning: SessionTuning = {},
  open: SessionOpener = openOrtSession,
): Promise<OpenedSession> {
  const request = tuning.device ?? 'cpu';
  if (request === 'cpu') return { session: await open(modelPath, 'cpu', tuning), provider: 'cpu', skipped: [] };
  try {
    return { session: await open(modelPath, 'cuda', tuning), provider: 'cuda', skipped: [] };
  } catch (error) {
    if (request === 'cuda') throw new CudaUnavailableError(firstLine(error));
    const skipped = [{ provider: 'cuda' as const, reason: firstLine(error) }];
    return { session: await open(modelPath, 'cpu', tuning), provider: 'cpu', skipped };
  }
}
