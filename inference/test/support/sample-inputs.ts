/** Seeded random inputs shaped like a model's warm-up inputs (preprocessing size for free dims). */
import type { HostTensor, ModelConfig } from '../../src/runtime/model-runner';
import { warmupInputs } from '../../src/runtime/warmup-inputs';

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** One request of `rows` rows; values in [0, 1) like normalised pixels. */
export function sampleInputs(config: ModelConfig, rows: number, seed: number): Record<string, HostTensor> {
  const random = seededRandom(seed);
  const shapes = warmupInputs(config, 1);
  return Object.fromEntries(
    Object.entries(shapes).map(([name, t]) => {
      const dims = config.max_batch_size > 0 ? [rows, ...t.dims.slice(1)] : t.dims;
      const length = dims.reduce((a, b) => a * b, 1);
      return [name, { dtype: t.dtype, dims, data: Float32Array.from({ length }, () => random()) }];
    }),
  );
}
