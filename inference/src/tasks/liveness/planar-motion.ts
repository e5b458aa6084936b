/**
 * The motion a flat attack cannot fake. A face on a print (even a gently bent one) or on a screen
 * is a plane: however it is held and turned, its landmarks move from one frame to another as a
 * single homography. A real head is not flat: as it turns, the nose moves against the cheeks and
 * the face outline slides over the ears, so no homography explains the landmark motion.
 *
 * For each frame whose face changed shape against the first frontal frame, a homography is fitted
 * by least squares (normalised DLT) to all FaceMesh points, and the median distance between where
 * it puts each point and where the point was found, over the inter-ocular distance, is that
 * frame's parallax. The signal is the median over the (up to three) most deformed frames: near
 * zero for a plane (FaceMesh's own jitter), well above for a head.
 */
import type { Point } from '../face/face-types';

/** A 3×3 projective map, row-major, h[8] = 1. */
export type Homography = number[];

/** Least-squares homography taking each `from` point to its `to` point (≥ 4 pairs, Hartley-normalised). */
export function fitHomography(from: Point[], to: Point[]): Homography {
  if (from.length !== to.length || from.length < 4) throw new Error('a homography needs at least 4 point pairs');
  const a = normaliser(from);
  const b = normaliser(to);
  const normal = Array.from({ length: 8 }, () => new Array<number>(9).fill(0));
  from.forEach((p, i) => {
    const [x, y] = applyAffine(a, p);
    const [u, v] = applyAffine(b, to[i]);
    for (const [row, rhs] of [
      [[x, y, 1, 0, 0, 0, -u * x, -u * y], u],
      [[0, 0, 0, x, y, 1, -v * x, -v * y], v],
    ] as Array<[number[], number]>) {
      for (let r = 0; r < 8; r++) {
        for (let c = 0; c < 8; c++) normal[r][c] += row[r] * row[c];
        normal[r][8] += row[r] * rhs;
      }
    }
  });
  const h = [...solve(normal), 1];
  // Undo the normalisations: H = B⁻¹ · Hn · A.
  return normalise(multiply(multiply(inverseAffine(b), h), affineMatrix(a)));
}

export function project(h: Homography, [x, y]: Point): Point {
  const w = h[6] * x + h[7] * y + h[8];
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}

/** Median reprojection error of the best single homography from `from` to `to`, in pixels. */
export function planarResidual(from: Point[], to: Point[]): number {
  const h = fitHomography(from, to);
  return median(
    from.map((p, i) => {
      const q = project(h, p);
      return Math.hypot(q[0] - to[i][0], q[1] - to[i][1]);
    }),
  );
}

/** Median reprojection error of the best 2D similarity (shift, turn in the image plane, scale), in pixels. */
export function rigidResidual(from: Point[], to: Point[]): number {
  const mean = (ps: Point[]): Point => [
    ps.reduce((s, p) => s + p[0], 0) / ps.length,
    ps.reduce((s, p) => s + p[1], 0) / ps.length,
  ];
  const [fx, fy] = mean(from);
  const [tx, ty] = mean(to);
  let a = 0;
  let b = 0;
  let norm = 0;
  from.forEach(([x, y], i) => {
    const [u, v] = [x - fx, y - fy];
    const [p, q] = [to[i][0] - tx, to[i][1] - ty];
    a += u * p + v * q;
    b += u * q - v * p;
    norm += u * u + v * v;
  });
  [a, b] = [a / norm, b / norm];
  return median(
    from.map(([x, y], i) => {
      const [u, v] = [x - fx, y - fy];
      return Math.hypot(tx + a * u - b * v - to[i][0], ty + b * u + a * v - to[i][1]);
    }),
  );
}

export interface MotionFrame {
  /** Landmarks in image pixels, the same points in the same order in every frame. */
  points: Point[];
  /** Distance between the eye centres in this frame, pixels. */
  eyeDistance: number;
}

/** The signal is taken on this many of the most deformed frames (the peaks of the turns). */
const peakFrames = 3;

export interface PlanarMotion {
  /**
   * Median parallax (homography residual / eye distance) over the most deformed measured frames
   * (up to three: the peaks of the turns, where a head's parallax is largest); null when none was measured.
   */
  parallax: number | null;
  /** How many frames changed shape enough against the first to be measured. */
  framesMeasured: number;
  /** Each frame's parallax against the first, null where it was not measured. */
  perFrame: Array<number | null>;
}

/**
 * Parallax of every frame against the first, on the frames whose face changed shape in the image
 * by at least `minDeformation` (the median residual of the best 2D rigid move, over the eye
 * distance): a face that has only moved, turned in the image plane or come closer shows no
 * parallax whatever it is made of, while a turned head or a turned sheet changes shape.
 */
export function measurePlanarMotion(frames: MotionFrame[], minDeformation: number): PlanarMotion {
  if (!frames.length) return { parallax: null, framesMeasured: 0, perFrame: [] };
  const [first] = frames;
  const measured: Array<{ k: number; deformation: number; parallax: number }> = [];
  frames.forEach((f, k) => {
    const scale = (first.eyeDistance + f.eyeDistance) / 2;
    const deformation = k === 0 ? 0 : rigidResidual(first.points, f.points) / scale;
    if (k > 0 && deformation >= minDeformation)
      measured.push({ k, deformation, parallax: planarResidual(first.points, f.points) / scale });
  });
  const perFrame = frames.map((_, k) => measured.find((m) => m.k === k)?.parallax ?? null);
  const peaks = [...measured].sort((a, b) => b.deformation - a.deformation).slice(0, peakFrames);
  return {
    parallax: peaks.length ? median(peaks.map((p) => p.parallax)) : null,
    framesMeasured: measured.length,
    perFrame,
  };
}

type Affine = { scale: number; cx: number; cy: number };

function normaliser(points: Point[]): Affine {
  const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
  const spread = points.reduce((s, p) => s + Math.hypot(p[0] - cx, p[1] - cy), 0) / points.length;
  return { scale: Math.SQRT2 / (spread || 1), cx, cy };
}

const applyAffine = (t: Affine, [x, y]: Point): Point => [(x - t.cx) * t.scale, (y - t.cy) * t.scale];
const affineMatrix = (t: Affine) => [t.scale, 0, -t.cx * t.scale, 0, t.scale, -t.cy * t.scale, 0, 0, 1];
const inverseAffine = (t: Affine) => [1 / t.scale, 0, t.cx, 0, 1 / t.scale, t.cy, 0, 0, 1];

function multiply(p: number[], q: number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) out[r * 3 + c] += p[r * 3 + k] * q[k * 3 + c];
  return out;
}

const normalise = (h: number[]) => h.map((v) => v / h[8]);

/** Gauss-Jordan with partial pivoting on an n×(n+1) augmented matrix. */
function solve(rows: number[][]): number[] {
  const n = rows.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(rows[r][col]) > Math.abs(rows[pivot][col])) pivot = r;
    if (Math.abs(rows[pivot][col]) < 1e-12) throw new Error('degenerate point set: the homography is not determined');
    [rows[col], rows[pivot]] = [rows[pivot], rows[col]];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = rows[r][col] / rows[col][col];
      for (let k = col; k <= n; k++) rows[r][k] -= f * rows[col][k];
    }
  }
  return rows.map((r, i) => r[n] / r[i]);
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
