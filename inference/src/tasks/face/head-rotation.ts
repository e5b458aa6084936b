/**
 * The head's 3D rotation from FaceMesh's 468 points: the rotation that best maps MediaPipe's
 * canonical face onto the frame's landmarks (least squares over the points that do not move with
 * the mouth and jaw), found with Horn's quaternion method. FaceMesh predicts each point's depth,
 * so the fit sees the turn in 3D instead of guessing it from 2D proportions, and it uses every
 * rigid point instead of five.
 */
import { CANONICAL_FACE } from './canonical-face';
import type { FaceLandmarks } from './face-types';
import { MOUTH_AND_JAW } from './mouth-and-jaw';

export interface HeadRotation {
  /** Degrees; positive when the subject turns to their left (nose toward the image's right). */
  yaw: number;
  /** Degrees; positive when the subject looks up. */
  pitch: number;
  /** Degrees; positive when the head tilts clockwise as the image shows it. */
  roll: number;
}

type Vec = [number, number, number];
type Matrix4 = number[][];

const NON_RIGID = new Set(MOUTH_AND_JAW);
const RIGID = Array.from({ length: CANONICAL_FACE.length / 3 }, (_, i) => i).filter((i) => !NON_RIGID.has(i));
const canonical = (i: number): Vec => [CANONICAL_FACE[3 * i], CANONICAL_FACE[3 * i + 1], CANONICAL_FACE[3 * i + 2]];

/** FaceMesh's image frame (x right, y down, z away from the camera) turned into the canonical face's (x right, y up, z toward the camera). */
const observed = (p: [number, number, number]): Vec => [p[0], -p[1], -p[2]];

export function headRotation(mesh: FaceLandmarks['mesh']): HeadRotation {
  const from = RIGID.map(canonical);
  const to = RIGID.map((i) => observed(mesh[i]));
  const centre = (ps: Vec[]): Vec => [0, 1, 2].map((k) => ps.reduce((s, p) => s + p[k], 0) / ps.length) as Vec;
  const [cf, ct] = [centre(from), centre(to)];
  // S[a][b] = sum over points of (canonical)_a * (observed)_b, both centred.
  const S = [0, 1, 2].map(() => [0, 0, 0]);
  for (let n = 0; n < from.length; n += 1)
    for (let a = 0; a < 3; a += 1) for (let b = 0; b < 3; b += 1) S[a][b] += (from[n][a] - cf[a]) * (to[n][b] - ct[b]);
  const [[xx, xy, xz], [yx, yy, yz], [zx, zy, zz]] = S;
  const N: Matrix4 = [
    [xx + yy + zz, yz - zy, zx - xz, xy - yx],
    [yz - zy, xx - yy - zz, xy + yx, zx + xz],
    [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
    [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
  ];
  const [w, x, y, z] = largestEigenvector(N);
  // The canonical face's forward axis (0, 0, 1) and up axis (0, 1, 0), rotated.
  const forward: Vec = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
  const up: Vec = [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)];
  return {
    yaw: degrees(Math.atan2(forward[0], forward[2])),
    pitch: degrees(Math.atan2(forward[1], Math.hypot(forward[0], forward[2]))),
    roll: degrees(Math.atan2(up[0], up[1])),
  };
}

const degrees = (radians: number) => (radians * 180) / Math.PI;

/** The eigenvector of a symmetric 4x4 matrix with the largest eigenvalue (cyclic Jacobi rotations). */
function largestEigenvector(matrix: Matrix4): number[] {
  const a = matrix.map((row) => [...row]);
  const v = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j): number => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 50; sweep += 1) {
    let off = 0;
    for (let p = 0; p < 4; p += 1) for (let q = p + 1; q < 4; q += 1) off += a[p][q] ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < 4; p += 1)
      for (let q = p + 1; q < 4; q += 1) {
        if (Math.abs(a[p][q]) < 1e-30) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 4; k += 1) {
          const [akp, akq] = [a[k][p], a[k][q]];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < 4; k += 1) {
          const [apk, aqk] = [a[p][k], a[q][k]];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 4; k += 1) {
          const [vkp, vkq] = [v[k][p], v[k][q]];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
  }
  let best = 0;
  for (let i = 1; i < 4; i += 1) if (a[i][i] > a[best][best]) best = i;
  return v.map((row) => row[best]);
}
