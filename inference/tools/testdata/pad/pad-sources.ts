/**
 * The bona fide photos the PAD sets are made from: every real portrait of the face sets (except
 * the Mona Lisa, itself a painting) and the liveness sources' frontal and near-frontal frames. Each
 * photo's eyes are found by the served face detector, for the masks and the averaged faces.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInProcessModelRunner } from '../../../src/runtime/in-process-model-runner';
import { detectFaces } from '../../../src/tasks';
import { loadPortrait } from '../faces/augment-face';
import { faceSources, livenessSources } from '../faces/face-sources';
import type { FacePhoto } from './composite-faces';
import { decodeRaw, toBytes } from './raw-image';

/** Liveness frames that still face the camera, usable as extra photos of those three people. */
const nearFrontalPoses = ['neutral', 'drift-1', 'drift-2', 'drift-4', 'left-15', 'right-15', 'up-15', 'down-15'];

export interface PadPhoto extends FacePhoto {
  name: string;
  /**
   * How much of the context MiniFASNet's widest-needed crop (about 6 eye distances around the
   * eyes) the photo holds, 1 = all of it. A tight portrait (facereg's 100-px cells, Yale's) is
   * answered with a retake when presented as it is, so only roomy photos (≥ 0.65) are used where
   * the photo itself is what the camera sees: live stills, mask wearers and averaged faces.
   */
  room: number;
}

export const isRoomy = (p: PadPhoto) => p.room >= 0.65;

export async function loadPadPhotos(assetsDir: string, livenessDir: string, modelsDir: string): Promise<PadPhoto[]> {
  const photos: Array<Omit<PadPhoto, 'rightEye' | 'leftEye' | 'room'>> = [];
  for (const source of faceSources.filter((s) => s.identity !== 'mona-lisa')) {
    photos.push({
      identity: source.identity,
      name: `${source.identity}__portrait`,
      photo: await decodeRaw(await loadPortrait(assetsDir, source)),
    });
  }
  for (const source of livenessSources) {
    for (const pose of nearFrontalPoses) {
      const file = path.join(livenessDir, `${source.identity}__synthetic-pose-${pose}.jpg`);
      if (!existsSync(file)) throw new Error(`liveness frame ${file} missing: run \`npm run testdata:faces\` first`);
      photos.push({
        identity: source.identity,
        name: `${source.identity}__pose-${pose}`,
        photo: await decodeRaw(file),
      });
    }
  }
  const runner = await createInProcessModelRunner({ repository: modelsDir, models: ['face-detection'] });
  try {
    const found = await detectFaces(
      runner,
      photos.map((p) => ({
        data: new Uint8Array(toBytes(p.photo)),
        width: p.photo.width,
        height: p.photo.height,
      })),
    );
    return photos.flatMap((p, i) => {
      const face = found[i].reduce<(typeof found)[number][number] | null>(
        (best, f) => (!best || f.box.width > best.box.width ? f : best),
        null,
      );
      if (!face) return [];
      const [rightEye, leftEye] = face.keypoints;
      const half = 3 * Math.hypot(leftEye[0] - rightEye[0], leftEye[1] - rightEye[1]);
      const [cx, cy] = [(leftEye[0] + rightEye[0]) / 2, (leftEye[1] + rightEye[1]) / 2];
      const room = Math.min(cx, p.photo.width - cx, cy, p.photo.height - cy) / half;
      return [{ ...p, rightEye, leftEye, room: +room.toFixed(2) }];
    });
  } finally {
    await runner.close();
  }
}
