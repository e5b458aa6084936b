/**
 * `npm run testdata:face-line`: the set the face-match line is placed and reported on. From each
 * photo in face-line-photos.ts it writes a selfie (the head-and-shoulders crop, as a phone would
 * upload it) and two documents carrying that photo as their portrait (a TD3 passport and a TD1
 * card), made by the same render → rotate → relight → JPEG path as the synthetic documents, so the
 * portrait the document check reads from them has been through what a real one has. Pairs put a
 * document against a selfie: genuine only where the selfie is ANOTHER photo of the same person,
 * impostor where the people differ, and only within one split. Seeded and idempotent.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { seededRandom, seedOf } from '../../../../scripts/test-support/seeded-random';
import { composeMrz } from '../documents/compose-mrz';
import { documentSides } from '../documents/document-layouts';
import { REFERENCE_DATE } from '../documents/generate-documents';
import { renderDocument } from '../documents/render-document';
import { drawIdentity } from '../documents/synthetic-identity';
import type { MrzFormat } from '../../../src/tasks';
import { faceLinePhotos, photoRoots, type FaceLinePhoto } from './face-line-photos';
import { faceLinePairs, type FaceLinePair } from './face-line-pairs';

/** Bump when the output would change, so stale sets are rebuilt. */
const GENERATOR_VERSION = '2';
const repoRoot = path.resolve(__dirname, '../../../..');
export const faceLineDir = path.join(repoRoot, '.state/testdata/face-line');
export const faceLinePairsFile = path.join(faceLineDir, 'pairs.jsonl');

const LAYOUTS: Array<{ format: MrzFormat; code: string; kind: string }> = [
  { format: 'TD3', code: 'P', kind: 'passport' },
  { format: 'TD1', code: 'ID', kind: 'id-card' },
];

/** Head and shoulders around the face box, clamped to the photo: what a portrait or a selfie shows. */
async function headAndShoulders(photo: FaceLinePhoto): Promise<Buffer> {
  const file = path.join(repoRoot, photoRoots[photo.root], photo.file);
  const image = sharp(file).removeAlpha();
  const { width = 0, height = 0 } = await image.metadata();
  const { x, y, width: w, height: h } = photo.face;
  const left = Math.max(0, Math.round(x - 0.7 * w));
  const top = Math.max(0, Math.round(y - 0.8 * h));
  const right = Math.min(width, Math.round(x + 1.7 * w));
  const bottom = Math.min(height, Math.round(y + 2.1 * h));
  return image
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toBuffer();
}

async function selfieOf(crop: Buffer): Promise<Buffer> {
  return sharp(crop).resize(720, 720, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 88 }).toBuffer();
}

async function documentOf(photo: FaceLinePhoto, crop: Buffer, layout: (typeof LAYOUTS)[number]): Promise<Buffer> {
  const random = seededRandom(seedOf(`face-line-${photo.photo}-${layout.kind}`));
  const id = drawIdentity(random, REFERENCE_DATE);
  const capture = {
    rotationDegrees: Math.round((random() * 3 - 1.5) * 100) / 100,
    brightness: Math.round((0.9 + random() * 0.2) * 100) / 100,
    jpegQuality: 80 + Math.floor(random() * 16),
    surfaceGrey: 90 + Math.floor(random() * 120),
  };
  return renderDocument({
    sides: documentSides(layout.format, layout.code, id, random),
    mrzLines: composeMrz(layout.format, layout.code, id),
    portrait: crop,
    mrzBlurSigma: 0,
    capture,
  });
}

export async function generateFaceLineTestdata(): Promise<FaceLinePair[]> {
  const stamp = path.join(faceLineDir, '.generator-version');
  if (existsSync(stamp) && existsSync(faceLinePairsFile) && (await readFile(stamp, 'utf8')) === GENERATOR_VERSION) {
    return (await readFile(faceLinePairsFile, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as FaceLinePair);
  }
  for (const root of Object.values(photoRoots)) {
    if (!existsSync(path.join(repoRoot, root)))
      throw new Error(`${root} is missing: run bash scripts/setup.sh (it fetches the photos)`);
  }
  await rm(faceLineDir, { recursive: true, force: true });
  await mkdir(faceLineDir, { recursive: true });
  const documents: Array<{ photo: FaceLinePhoto; file: string; kind: string }> = [];
  for (const photo of faceLinePhotos) {
    const crop = await headAndShoulders(photo);
    await writeFile(path.join(faceLineDir, `${photo.photo}__selfie.jpg`), await selfieOf(crop));
    for (const layout of LAYOUTS) {
      const file = `${photo.photo}__${layout.kind}.jpg`;
      await writeFile(path.join(faceLineDir, file), await documentOf(photo, crop, layout));
      documents.push({ photo, file, kind: layout.kind });
    }
  }
  const pairs = faceLinePairs(documents, faceLinePhotos);
  await writeFile(faceLinePairsFile, pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await writeFile(stamp, GENERATOR_VERSION);
  const count = (split: string, same: boolean): number =>
    pairs.filter((p) => p.split === split && p.same === same).length;
  console.log(
    `face-line: ${faceLinePhotos.length} photos, ${documents.length} documents; calibration ${count('calibration', true)} genuine / ${count('calibration', false)} impostor, report ${count('report', true)} genuine / ${count('report', false)} impostor pairs in ${faceLineDir}`,
  );
  return pairs;
}

if (require.main === module) {
  generateFaceLineTestdata().catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
