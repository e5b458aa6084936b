/**
 * The applicants' selfies as the hosted page sends them. The face set's augmented copies
 * (`<identity>__augmented-N.jpg`) were drawn to test face matching across hard copies, JPEG quality
 * 45-92 among them; the page encodes what the camera shows at quality 0.9
 * (hosted/web/image-encode.ts). So each selfie here is the same augmentation (crop, scale,
 * rotation, brightness) of the same portrait, encoded at the page's quality instead: a phone never
 * sends a quality-47 JPEG of its own camera, and a soft source re-compressed that hard reads to PAD
 * as a recapture.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { applyAugmentation, loadPortrait, type Augmentation } from '../../inference/tools/testdata/faces/augment-face';
import { faceSources } from '../../inference/tools/testdata/faces/face-sources';

/** hosted/web/image-encode.ts: `encodeJpeg(…, quality = 0.9)`. */
export const PAGE_JPEG_QUALITY = 90;

interface AugmentedImage {
  file: string;
  identity: string;
  augmentation: Augmentation | null;
}

export async function pageSelfie(root: string, file: string): Promise<Buffer> {
  const faces = path.join(root, '.state', 'testdata', 'faces');
  const made = JSON.parse(readFileSync(path.join(faces, 'augmentations.json'), 'utf8')) as AugmentedImage[];
  const image = made.find((m) => m.file === file);
  const source = faceSources.find((s) => s.identity === image?.identity);
  if (!image?.augmentation || !source) throw new Error(`${file}: no augmented face-set image (run scripts/setup.sh)`);
  const portrait = await loadPortrait(path.join(root, '.state', 'assets', 'debian'), source);
  return applyAugmentation(portrait, { ...image.augmentation, jpegQuality: PAGE_JPEG_QUALITY });
}
