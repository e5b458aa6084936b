import type { ModelRunner } from '../../runtime/model-runner';
import { chunks, packCrops } from './model-input';

export const faceEmbeddingModel = 'face-embedding';

/**
 * L2-normalised descriptors of aligned crops. The descriptor is the model's widest output
 * (faceres also answers age and gender heads, which are ignored).
 */
export async function embedFaces(runner: ModelRunner, alignedCrops: Float32Array[]): Promise<Float32Array[]> {
  const config = runner.config(faceEmbeddingModel);
  const out: Float32Array[] = [];
  for (const batch of chunks(alignedCrops, config.max_batch_size)) {
    const outputs = Object.values(await runner.infer(faceEmbeddingModel, packCrops(config, batch)));
    const descriptor = outputs.reduce((widest, t) => (t.dims[t.dims.length - 1] > widest.dims[widest.dims.length - 1] ? t : widest));
    const width = descriptor.dims[descriptor.dims.length - 1];
    batch.forEach((_, n) => out.push(normalise((descriptor.data as Float32Array).slice(n * width, (n + 1) * width))));
  }
  return out;
}

function normalise(vector: Float32Array): Float32Array {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

/** Cosine similarity of two L2-normalised vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}
