import type { ModelRunner } from '../../runtime/model-runner';
import type { RgbImage } from '../../images/rgb-image';
import { detectFaces } from '../face/detect-faces';
import type { DetectedFace } from '../face/face-types';
import type { Box } from './pad-crop';

/** Each retry tile covers this share of the image's width and height (neighbours overlap). */
const tileShare = 0.6;

/**
 * The applicant's face box in each image, or null. BlazeFace sees the whole image letterboxed to
 * 256 px, where a small face in a large photo can be missed; before an image is given up, it is
 * searched again at about twice the resolution, as five overlapping tiles (four corners and the
 * centre, each 60% of the image). A face missed twice is refused by the caller, never passed.
 *
 * The box is BlazeFace's own: on the project's photos and upstream's samples it matches the
 * RetinaFace box MiniFASNet was trained with to within a few percent (models/README.md).
 */
export async function findFaceBoxes(runner: ModelRunner, images: RgbImage[]): Promise<Array<Box | null>> {
  const first = (await detectFaces(runner, images)).map(largest);
  const missed = first.flatMap((face, i) => (face ? [] : [i]));
  if (!missed.length) return first.map((f) => f && f.box);
  const tiles = missed.flatMap((i) => tilesOf(images[i]).map((tile) => ({ index: i, ...tile })));
  const found = await detectFaces(
    runner,
    tiles.map((t) => t.image),
  );
  const boxes: Array<Box | null> = first.map((f) => f && f.box);
  tiles.forEach((tile, t) => {
    const face = largest(found[t]);
    if (!face) return;
    const box = {
      x: face.box.x + tile.x,
      y: face.box.y + tile.y,
      width: face.box.width,
      height: face.box.height,
    };
    const best = boxes[tile.index];
    if (!best || box.width * box.height > best.width * best.height) boxes[tile.index] = box;
  });
  return boxes;
}

function largest(faces: DetectedFace[]): DetectedFace | null {
  return faces.reduce<DetectedFace | null>(
    (best, f) => (!best || f.box.width * f.box.height > best.box.width * best.box.height ? f : best),
    null,
  );
}

/** Four corner tiles and a centre tile, each tileShare of the image, as their own images. */
export function tilesOf(image: RgbImage): Array<{ image: RgbImage; x: number; y: number }> {
  const width = Math.max(1, Math.round(image.width * tileShare));
  const height = Math.max(1, Math.round(image.height * tileShare));
  const xs = [0, image.width - width, Math.round((image.width - width) / 2)];
  const ys = [0, image.height - height, Math.round((image.height - height) / 2)];
  const origins: Array<[number, number]> = [
    [xs[0], ys[0]],
    [xs[1], ys[0]],
    [xs[0], ys[1]],
    [xs[1], ys[1]],
    [xs[2], ys[2]],
  ];
  return origins.map(([x, y]) => ({ image: cropRgb(image, x, y, width, height), x, y }));
}

function cropRgb(image: RgbImage, x: number, y: number, width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * image.width + x) * 3;
    data.set(image.data.subarray(from, from + width * 3), row * width * 3);
  }
  return { data, width, height };
}
