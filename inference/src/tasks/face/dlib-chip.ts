/**
 * The dlib face-chip recipe (dlib's get_face_chip_details): a similarity transform, fitted by least
 * squares, from facial landmarks to dlib's mean face shape, scaled into a size×size chip with
 * `padding` of the face's extent on every side (0.25 for the face-recognition ResNet). The chip is
 * sampled with the border repeated, so a face near the photo's edge is never clipped or cut
 * against black.
 */
import { invert, sample, type Affine } from '../../images/affine-sampler';
import type { FaceLandmarks, Point } from './face-types';
import type { RgbImage } from '../../images/rgb-image';

/**
 * iBUG-68 points the recipe uses (eye corners, nose tip and base, mouth corners), each with the
 * FaceMesh index at the same place and dlib's mean-face position (its arrays cover points 17–67).
 */
const anchors: Array<{ ibug: number; mesh: number; x: number; y: number }> = [
  { ibug: 36, mesh: 33, x: 0.121737, y: 0.216423 },
  { ibug: 39, mesh: 133, x: 0.334606, y: 0.231733 },
  { ibug: 42, mesh: 362, x: 0.645647, y: 0.231733 },
  { ibug: 45, mesh: 263, x: 0.858516, y: 0.216423 },
  { ibug: 30, mesh: 1, x: 0.490127, y: 0.515625 },
  { ibug: 33, mesh: 2, x: 0.490127, y: 0.628106 },
  { ibug: 48, mesh: 61, x: 0.254149, y: 0.780233 },
  { ibug: 54, mesh: 291, x: 0.726104, y: 0.780233 },
];

export const dlibChipPadding = 0.25;

/** Output-to-source map of the chip. */
export function dlibChipAlignment(mesh: FaceLandmarks['mesh'], size: number, padding = dlibChipPadding): Affine {
  const from: Point[] = anchors.map((a) => [mesh[a.mesh][0], mesh[a.mesh][1]]);
  const to: Point[] = anchors.map((a) => [
    ((padding + a.x) / (2 * padding + 1)) * size,
    ((padding + a.y) / (2 * padding + 1)) * size,
  ]);
  return invert(fitSimilarity(from, to));
}

export function dlibChip(
  image: RgbImage,
  mesh: FaceLandmarks['mesh'],
  size: number,
  padding = dlibChipPadding,
): Float32Array {
  return sample(image, dlibChipAlignment(mesh, size, padding), size, size, 'border');
}

/** Least-squares rotation + uniform scale + shift taking `from` onto `to` (no reflection). */
export function fitSimilarity(from: Point[], to: Point[]): Affine {
  const centre = (ps: Point[]): Point => [
    ps.reduce((s, p) => s + p[0], 0) / ps.length,
    ps.reduce((s, p) => s + p[1], 0) / ps.length,
  ];
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  let norm = 0;
  let dot = 0;
  let cross = 0;
  from.forEach(([x, y], i) => {
    const px = x - fx;
    const py = y - fy;
    const qx = to[i][0] - tx;
    const qy = to[i][1] - ty;
    norm += px * px + py * py;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
  });
  const a = dot / norm;
  const b = cross / norm;
  return { a, b: -b, c: tx - a * fx + b * fy, d: b, e: a, f: ty - b * fx - a * fy };
}
