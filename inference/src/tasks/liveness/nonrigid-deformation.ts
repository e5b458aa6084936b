import type { FaceLandmarks } from '../face/face-types';
import { eyeCentres, MOUTH_AND_JAW } from '../face/mesh-geometry';

const MOVING = new Set(MOUTH_AND_JAW);

/**
 * How far the mouth and jaw moved against the rest of the face between two frames, once the best
 * rigid fit (a 2D similarity: rotation, scale, shift, least squares over the points that do not
 * move with the mouth) is removed: the RMS residual of the mouth and jaw points, in eye distances.
 * A rigid mask or a photo on a 3D shape turns and shifts as one piece, so the fit explains it.
 */
export function nonrigidDeformation(rest: FaceLandmarks['mesh'], moved: FaceLandmarks['mesh']): number {
  const anchors = rest.flatMap((_, i) => (MOVING.has(i) ? [] : [i]));
  const fit = similarityFit(
    anchors.map((i) => [rest[i][0], rest[i][1]]),
    anchors.map((i) => [moved[i][0], moved[i][1]]),
  );
  const { right, left } = eyeCentres(rest);
  const eyeDistance = Math.hypot(left[0] - right[0], left[1] - right[1]) || 1;
  const residuals = MOUTH_AND_JAW.map((i) => {
    const [x, y] = fit([moved[i][0], moved[i][1]]);
    return (x - rest[i][0]) ** 2 + (y - rest[i][1]) ** 2;
  });
  return Math.sqrt(residuals.reduce((s, r) => s + r, 0) / residuals.length) / eyeDistance;
}

type P = [number, number];

/** The similarity that maps `from` onto `to` with least squares (Umeyama in 2D), as a function applied to `from`-side points. */
function similarityFit(to: P[], from: P[]): (p: P) => P {
  const n = to.length;
  const mean = (ps: P[]): P => [ps.reduce((s, p) => s + p[0], 0) / n, ps.reduce((s, p) => s + p[1], 0) / n];
  const [tx, ty] = mean(to);
  const [fx, fy] = mean(from);
  let a = 0;
  let b = 0;
  let norm = 0;
  for (let i = 0; i < n; i += 1) {
    const [ux, uy] = [from[i][0] - fx, from[i][1] - fy];
    const [vx, vy] = [to[i][0] - tx, to[i][1] - ty];
    a += ux * vx + uy * vy;
    b += ux * vy - uy * vx;
    norm += ux * ux + uy * uy;
  }
  const [c, s] = norm > 0 ? [a / norm, b / norm] : [1, 0];
  return ([x, y]) => [tx + c * (x - fx) - s * (y - fy), ty + s * (x - fx) + c * (y - fy)];
}
