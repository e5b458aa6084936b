import type { ModelRunner } from '../../runtime/model-runner';
import { sample } from '../../images/affine-sampler';
import type { AnalysedFace } from './analyse-faces';
import { uprightCrop } from './face-landmarks';
import { chunks } from '../batch-chunks';
import { packCrops, preprocessingOf } from '../../images/image-to-tensor';
import type { RgbImage } from '../../images/rgb-image';
import { rememberedEach } from '../remembered-work';

/**
 * Runs a single-score face classifier (antispoof, passive liveness) on the same upright 1.4x face
 * crop FaceMesh sees, which is the crop @vladmandic/human feeds these models. `column` picks the
 * output value that means "real / live" (antispoof answers one value; liveness two, live first).
 */
export function faceCropScores(
  runner: ModelRunner,
  model: string,
  faces: Array<{ image: RgbImage; analysed: AnalysedFace }>,
  column = 0,
): Promise<number[]> {
  return rememberedEach(
    runner,
    `${model}:${column}`,
    faces,
    ({ image }) => image.source,
    (missing) => scoreAll(runner, model, missing, column),
  );
}

async function scoreAll(
  runner: ModelRunner,
  model: string,
  faces: Array<{ image: RgbImage; analysed: AnalysedFace }>,
  column: number,
): Promise<number[]> {
  const config = runner.config(model);
  const size = preprocessingOf(config).width;
  const scores: number[] = [];
  for (const batch of chunks(faces, config.max_batch_size)) {
    const crops = batch.map(({ image, analysed }) => sample(image, uprightCrop(analysed.face, size), size, size));
    const [output] = Object.values(await runner.infer(model, packCrops(config, crops)));
    const width = output.dims[output.dims.length - 1];
    batch.forEach((_, n) => scores.push((output.data as Float32Array)[n * width + column]));
  }
  return scores;
}
