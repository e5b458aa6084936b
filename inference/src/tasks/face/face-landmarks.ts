import type { HostTensor, ModelRunner } from '../../runtime/model-runner';
import { apply, sample, type Affine } from '../../images/affine-sampler';
import type { DetectedFace, FaceLandmarks } from './face-types';
import { chunks } from '../batch-chunks';
import { packCrops, preprocessingOf } from '../../images/image-to-tensor';
import type { RgbImage } from '../../images/rgb-image';

export const faceLandmarksModel = 'face-landmarks';

/** FaceMesh was trained on the detector box enlarged this much (the value @vladmandic/human uses). */
const cropEnlarge = 1.4;

export interface LandmarkRequest {
  image: RgbImage;
  face: DetectedFace;
}

/**
 * Runs FaceMesh on a square crop around each detected face, turned so the detector's eyes are
 * level (FaceMesh expects upright faces), and maps the 468 points back to source pixels.
 */
export async function faceLandmarks(runner: ModelRunner, requests: LandmarkRequest[]): Promise<FaceLandmarks[]> {
  const config = runner.config(faceLandmarksModel);
  const size = preprocessingOf(config).width;
  const out: FaceLandmarks[] = [];
  for (const batch of chunks(requests, config.max_batch_size)) {
    const maps = batch.map(({ face }) => uprightCrop(face, size));
    const crops = batch.map(({ image }, i) => sample(image, maps[i], size, size));
    const outputs = await runner.infer(faceLandmarksModel, packCrops(config, crops));
    const { mesh, flags } = meshOutputs(outputs);
    batch.forEach((_, n) => {
      const points: FaceLandmarks['mesh'] = [];
      const scale = Math.hypot(maps[n].a, maps[n].d);
      for (let p = 0; p < 468; p++) {
        const at = n * 1404 + p * 3;
        const [x, y] = apply(maps[n], mesh[at], mesh[at + 1]);
        points.push([x, y, mesh[at + 2] * scale]);
      }
      out.push({ mesh: points, score: flags[n] });
    });
  }
  return out;
}

/** Output-to-source map of a square crop centred on the face, rotated so the eyes are level. */
export function uprightCrop(face: DetectedFace, size: number): Affine {
  const [rightEye, leftEye] = face.keypoints;
  const angle = Math.atan2(leftEye[1] - rightEye[1], leftEye[0] - rightEye[0]);
  const side = Math.max(face.box.width, face.box.height) * cropEnlarge;
  const cx = face.box.x + face.box.width / 2;
  const cy = face.box.y + face.box.height / 2;
  const s = side / size;
  const cos = Math.cos(angle) * s;
  const sin = Math.sin(angle) * s;
  // Source = centre + R(angle) * s * (output - size/2).
  return {
    a: cos,
    b: -sin,
    c: cx - cos * (size / 2) + sin * (size / 2),
    d: sin,
    e: cos,
    f: cy - sin * (size / 2) - cos * (size / 2),
  };
}

function meshOutputs(outputs: Record<string, HostTensor>): { mesh: Float32Array; flags: Float32Array } {
  const tensors = Object.values(outputs);
  const mesh = tensors.find((t) => t.dims[t.dims.length - 1] === 1404);
  const flag = tensors.find((t) => t.dims[t.dims.length - 1] === 1);
  if (!mesh || !flag)
    throw new Error(
      `face-landmarks outputs [${tensors.map((t) => t.dims.join('x')).join(', ')}] lack the 1404-value mesh or the face flag`,
    );
  return { mesh: mesh.data as Float32Array, flags: flag.data as Float32Array };
}
