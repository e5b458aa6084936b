/**
 * The inference service's own entry point (it runs alone on a GPU node, or beside the API via
 * `npm start`): `npx tsx inference/src/main.ts`. Exits non-zero with the model and the problem
 * when any model fails validation or warm-up; drains and stops on SIGTERM/SIGINT.
 */
import { readServiceEnv } from './config/service-env';
import { DEFAULT_IMAGE_MEMO, DEFAULT_ROW_CACHE, startInferenceServer } from './grpc/inference-server';
import { nvidiaDriverVersion } from './runtime/nvidia-driver';

const log = (line: string): void => console.log(`[inference] ${line}`);

async function main(): Promise<void> {
  const env = readServiceEnv();
  const started = performance.now();
  if (env.INFERENCE_DEVICE !== 'cpu') {
    log(
      `INFERENCE_DEVICE=${env.INFERENCE_DEVICE}; NVIDIA driver ${nvidiaDriverVersion()}; CUDA libraries from ${env.INFERENCE_CUDA_LIBRARY_PATH ?? "the loader's default path"}`,
    );
  }
  const server = await startInferenceServer({
    repository: env.MODEL_REPOSITORY,
    port: env.INFERENCE_PORT,
    host: env.INFERENCE_HOST,
    metricsPort: env.INFERENCE_METRICS_PORT,
    models: env.INFERENCE_MODELS,
    layout: env.INFERENCE_EXECUTOR,
    executorProcesses: env.INFERENCE_EXECUTOR_PROCESSES,
    dynamicBatching: env.INFERENCE_DYNAMIC_BATCHING === 'on',
    tuning: {
      intraOpThreads: env.INFERENCE_INTRA_OP_THREADS,
      executorNice: env.INFERENCE_EXECUTOR_NICE,
      device: env.INFERENCE_DEVICE,
      cudaLibraryPath: env.INFERENCE_CUDA_LIBRARY_PATH,
    },
    rowCache:
      env.INFERENCE_ROW_CACHE_MB > 0
        ? {
            ...DEFAULT_ROW_CACHE,
            maxBytes: env.INFERENCE_ROW_CACHE_MB * 1024 * 1024,
            ttlMs: env.INFERENCE_ROW_CACHE_TTL_S * 1000,
          }
        : null,
    imageMemo:
      env.INFERENCE_IMAGE_MEMO_MB > 0
        ? { ...DEFAULT_IMAGE_MEMO, imageBytes: env.INFERENCE_IMAGE_MEMO_MB * 1024 * 1024 }
        : null,
    log,
  });
  log(
    `ready: ${server.host.models().length} models warmed in ${((performance.now() - started) / 1000).toFixed(1)} s; gRPC :${server.port}, metrics :${server.metricsPort}/metrics`,
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: draining`);
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: Error) => {
  console.error(`[inference] start-up failed: ${error.message}`);
  process.exit(1);
});
