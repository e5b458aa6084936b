/**
 * Benchmark inputs per model and batch size: random values in [0, 1) with the shape real
 * requests have (free dims at the preprocessing size). Text detection runs at 320x320 so a batch
 * of 32 fits the 64 MiB request limit; sizes that cannot fit are skipped and reported.
 */
import { MAX_REQUEST_BYTES } from '../../inference/src/client/message-limits';
import type { HostTensor, ModelConfig } from '../../inference/src/runtime/model-runner';
import { warmupInputs } from '../../inference/src/runtime/warmup-inputs';

export function benchConfig(config: ModelConfig): ModelConfig {
  if (config.name !== 'text-detection' || !config.preprocessing) return config;
  return { ...config, preprocessing: { ...config.preprocessing, width: 320, height: 320 } };
}

export function benchInputs(config: ModelConfig, rows: number): Record<string, HostTensor> {
  const shapes = warmupInputs(benchConfig(config), 1);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  return Object.fromEntries(
    Object.entries(shapes).map(([name, t]) => {
      const dims = [rows, ...t.dims.slice(1)];
      const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
      for (let i = 0; i < data.length; i++) data[i] = random();
      return [name, { dtype: t.dtype, dims, data }];
    }),
  );
}

/** Why a batch size cannot be sent over gRPC, or null when it can. */
export function tooLargeForRequest(config: ModelConfig, rows: number): string | null {
  const bytes = Object.values(benchInputs(config, 1)).reduce((n, t) => n + t.data.byteLength, 0) * rows;
  return bytes + 4096 > MAX_REQUEST_BYTES
    ? `${(bytes / 2 ** 20).toFixed(1)} MiB exceeds the ${MAX_REQUEST_BYTES / 2 ** 20} MiB request limit`
    : null;
}
