/**
 * Finds the holder's portrait on the document with the face detector and cuts it out for face
 * match. BlazeFace sees the page shrunk to a 256-pixel square, where a small photo (a card held far
 * from the camera) falls below its smallest anchors; when the whole page yields no face, the page
 * is searched again in overlapping tiles, in one batch. The most confident face wins; the crop
 * keeps head and shoulders around it.
 */
import type { ModelRunner } from '../../../runtime/model-runner';
import type { FaceBox } from '../../task-contracts';
import { detectFaces } from '../../face/detect-faces';
import type { DetectedFace } from '../../face/face-types';
import { encodeJpeg, type RgbImage } from '../../../images/rgb-image';

export interface Portrait {
  box: FaceBox;
  jpeg: Uint8Array;
}

/** How much of the page around the face goes into the crop, as multiples of the face box. */
const CROP_MARGIN = 0.6;

interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A 2 x 2 grid of overlapping tiles, each two thirds of the page on a side. */
function tiles(image: RgbImage): Region[] {
  const w = Math.round((image.width * 2) / 3);
  const h = Math.round((image.height * 2) / 3);
  const out: Region[] = [];
  for (const x of [0, image.width - w]) for (const y of [0, image.height - h]) out.push({ x, y, width: w, height: h });
  return out;
}

async function mostConfidentFace(
  runner: ModelRunner,
  image: RgbImage,
  regions: Region[],
): Promise<DetectedFace | null> {
  const whole = (r: Region): boolean => r.width === image.width && r.height === image.height;
  const found = await detectFaces(
    runner,
    regions.map((r) => (whole(r) ? image : cropRegion(image, r))),
  );
  let best: DetectedFace | null = null;
  found.forEach((faces, i) => {
    for (const face of faces) {
      if (best && face.score <= best.score) continue;
      best = { ...face, box: { ...face.box, x: face.box.x + regions[i].x, y: face.box.y + regions[i].y } };
    }
  });
  return best;
}

export function cropRegion(image: RgbImage, r: Region): RgbImage {
  const x0 = Math.max(0, Math.floor(r.x));
  const y0 = Math.max(0, Math.floor(r.y));
  const x1 = Math.min(image.width, Math.ceil(r.x + r.width));
  const y1 = Math.min(image.height, Math.ceil(r.y + r.height));
  const width = x1 - x0;
  const data = new Uint8Array(width * (y1 - y0) * 3);
  for (let y = y0; y < y1; y++)
    data.set(image.data.subarray((y * image.width + x0) * 3, (y * image.width + x1) * 3), (y - y0) * width * 3);
  return { data, width, height: y1 - y0 };
}

export async function findPortrait(runner: ModelRunner, image: RgbImage): Promise<Portrait | null> {
  const page = { x: 0, y: 0, width: image.width, height: image.height };
  const best =
    (await mostConfidentFace(runner, image, [page])) ?? (await mostConfidentFace(runner, image, tiles(image)));
  if (!best) return null;
  const { box, score } = best;
  const crop = cropRegion(image, {
    x: box.x - CROP_MARGIN * box.width,
    y: box.y - CROP_MARGIN * box.height,
    width: box.width * (1 + 2 * CROP_MARGIN),
    height: box.height * (1 + 2 * CROP_MARGIN),
  });
  return {
    box: { x: box.x, y: box.y, width: box.width, height: box.height, score },
    jpeg: await encodeJpeg(crop),
  };
}
