import type { ModelRunner } from '../../runtime/model-runner';
import { alignedCrop } from './align-face';
import type { AnalysedFace } from './analyse-faces';
import { embedFaces, faceEmbeddingModel } from './face-embedding';
import { eyeCentres } from './mesh-geometry';
import { preprocessingOf } from './model-input';
import type { RgbImage } from './rgb-image';

/** Embeds each analysed face from a crop aligned on FaceMesh's eye centres (one batch). */
export async function describeFaces(runner: ModelRunner, faces: Array<{ image: RgbImage; analysed: AnalysedFace }>): Promise<Float32Array[]> {
  const size = preprocessingOf(runner.config(faceEmbeddingModel)).width;
  const crops = faces.map(({ image, analysed }) => {
    const { right, left } = eyeCentres(analysed.landmarks.mesh);
    return alignedCrop(image, right, left, size);
  });
  return embedFaces(runner, crops);
}
