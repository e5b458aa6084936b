import type { ModelRunner } from '../../runtime/model-runner';
import { chunks } from '../batch-chunks';
import { packCrops } from '../../images/image-to-tensor';

export const faceEmbeddingModel = 'face-embedding';

/**
 * Descriptors of aligned crops, as the model gives them (the metric normalises when it needs to:
 * dlib's distance line is set on raw descriptors). The descriptor is the model's widest output
 * (faceres also answers age and gender heads, which are ignored).
 */
export async function embedFaces(runner: ModelRunner, alignedCrops: Float32Array[]): Promise<Float32Array[]> {
  const config = runner.config(faceEmbeddingModel);
  const out: Float32Array[] = [];
  for (const batch of chunks(alignedCrops, config.max_batch_size)) {
    const outputs = Object.values(await runner.infer(faceEmbeddingModel, packCrops(config, batch)));
    const descriptor = outputs.reduce((widest, t) =>
      t.dims[t.dims.length - 1] > widest.dims[widest.dims.length - 1] ? t : widest,
    );
    const width = descriptor.dims[descriptor.dims.length - 1];
    batch.forEach((_, n) => out.push((descriptor.data as Float32Array).slice(n * width, (n + 1) * width)));
  }
  return out;
}
