/**
 * Opens an ONNX session on the first execution provider in the config's order that works here.
 * CUDA is tried only when onnxruntime-node was installed with its CUDA provider
 * (ONNXRUNTIME_NODE_INSTALL=cuda12); otherwise it is skipped with a reason instead of an ORT error
 * on stderr. Whatever is skipped is kept so ModelMetadata and metrics can say why a model is on CPU.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';

export type ProviderName = 'cuda' | 'cpu';

export interface SessionTuning {
  /** ORT intra-op threads; default leaves ORT's own choice (one per core). */
  intraOpThreads?: number;
  /** Niceness of executor processes (0-19); default 0 (see INFERENCE_EXECUTOR_NICE in config/service-env.ts). */
  executorNice?: number;
}

export interface OpenedSession {
  session: ort.InferenceSession;
  provider: ProviderName;
  skipped: Array<{ provider: ProviderName; reason: string }>;
}

function cudaProviderLibraryPresent(): boolean {
  const bindingDir = dirname(require.resolve(`onnxruntime-node/bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`));
  return existsSync(join(bindingDir, 'libonnxruntime_providers_cuda.so'));
}

function sessionOptions(provider: ProviderName, tuning: SessionTuning): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: [provider],
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
    ...(tuning.intraOpThreads ? { intraOpNumThreads: tuning.intraOpThreads } : {}),
    // Spinning intra-op threads burn the cores the gRPC front needs between batches.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
}

export async function openSessionWithFallback(modelPath: string, providers: ProviderName[], tuning: SessionTuning = {}): Promise<OpenedSession> {
  const skipped: OpenedSession['skipped'] = [];
  for (const provider of providers) {
    if (provider === 'cuda' && !cudaProviderLibraryPresent()) {
      skipped.push({ provider, reason: 'libonnxruntime_providers_cuda.so not installed (install onnxruntime-node with ONNXRUNTIME_NODE_INSTALL=cuda12)' });
      continue;
    }
    try {
      const session = await ort.InferenceSession.create(modelPath, sessionOptions(provider, tuning));
      return { session, provider, skipped };
    } catch (error) {
      skipped.push({ provider, reason: (error as Error).message.split('\n')[0] ?? 'unknown error' });
    }
  }
  throw new Error(`no execution provider could open the model (${skipped.map((s) => `${s.provider}: ${s.reason}`).join('; ')})`);
}
