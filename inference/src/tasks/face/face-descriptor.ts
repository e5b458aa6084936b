import type { ModelRunner } from '../../runtime/model-runner';
import { boxToSize, sample } from '../../images/affine-sampler';
import { alignedCrop } from './align-face';
import type { AnalysedFace } from './analyse-faces';
import { dlibChip } from './dlib-chip';
import { embedFaces, faceEmbeddingModel } from './face-embedding';
import type { DetectedFace } from './face-types';
import { eyeCentres } from './mesh-geometry';
import { preprocessingOf } from '../../images/image-to-tensor';
import type { RgbImage } from '../../images/rgb-image';
import { rememberedEach } from '../remembered-work';

/**
 * How a face is cut for the embedding model; the model's config names it in `preprocessing.resize`.
 * `box` (the detector's square box, stretched) is kept only to measure the others against.
 */
export type FaceAlignment = 'eyes' | 'dlib-chip' | 'box';

export function alignmentOf(runner: ModelRunner): FaceAlignment {
  const { resize } = preprocessingOf(runner.config(faceEmbeddingModel)) as { resize?: string };
  return resize === 'dlib-chip-from-landmarks' ? 'dlib-chip' : 'eyes';
}

export function faceCrop(
  alignment: FaceAlignment,
  image: RgbImage,
  analysed: AnalysedFace,
  size: number,
): Float32Array {
  const { mesh } = analysed.landmarks;
  if (alignment === 'dlib-chip') return dlibChip(image, mesh, size);
  if (alignment === 'box') return sample(image, boxToSize(squareBox(analysed.face.box), size, size), size, size);
  const { right, left } = eyeCentres(mesh);
  return alignedCrop(image, right, left, size);
}

/**
 * Embeds each analysed face from a crop aligned as the served model wants (one batch). A face
 * analysed by analyseFaces from an upload is embedded once per upload (remembered-work.ts).
 */
export function describeFaces(
  runner: ModelRunner,
  faces: Array<{ image: RgbImage; analysed: AnalysedFace }>,
  alignment = alignmentOf(runner),
): Promise<Float32Array[]> {
  const size = preprocessingOf(runner.config(faceEmbeddingModel)).width;
  return rememberedEach(
    runner,
    `embedding:${alignment}`,
    faces,
    ({ image }) => image.source,
    (missing) =>
      embedFaces(
        runner,
        missing.map(({ image, analysed }) => faceCrop(alignment, image, analysed, size)),
      ),
  );
}

function squareBox(box: DetectedFace['box']): DetectedFace['box'] {
  const side = Math.max(box.width, box.height);
  return { x: box.x + (box.width - side) / 2, y: box.y + (box.height - side) / 2, width: side, height: side };
}
