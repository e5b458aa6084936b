/**
 * Head pose and eye openness from FaceMesh's 468 points (MediaPipe's canonical indices). Angles
 * come from 2D geometry in the face's own frame (so roll does not leak into yaw): treating the
 * head as a cylinder, a nose that sits a fraction r across the face has turned asin(2r - 1). That
 * reads real turns high (the nose stands out of the cylinder): `turnFromCylinderYaw` converts it to
 * the turn of a face shaped like MediaPipe's canonical one, and the paced check judges that.
 * The rigid 3D fit (head-rotation.ts) was measured beside it on the synthetic heads
 * (inference/tools/pose-error/README.md) and is not used for judging: see there why.
 */
import { CANONICAL_FACE } from './canonical-face';
import type { FaceLandmarks, Point } from './face-types';

const index = {
  noseTip: 1,
  faceRightEdge: 234,
  faceLeftEdge: 454,
  forehead: 10,
  chin: 152,
  // "right"/"left" are the subject's: their right eye appears on the image's left.
  rightEye: { outer: 33, inner: 133, upper: [160, 159, 158], lower: [144, 145, 153] },
  leftEye: { outer: 263, inner: 362, upper: [387, 386, 385], lower: [373, 374, 380] },
  // Inner lips (upper 13, lower 14) and the mouth's corners (61 right, 291 left).
  mouth: { upper: 13, lower: 14, right: 61, left: 291 },
};

export { MOUTH_AND_JAW } from './mouth-and-jaw';

export interface HeadPose {
  /** Degrees; positive when the subject turns to their left (nose toward the image's right). */
  yaw: number;
  /** Degrees; positive when the subject looks up. Only differences between frames are meaningful. */
  pitch: number;
  /** Eye aspect ratio averaged over both eyes: about 0.25-0.35 open, under ~0.12 closed. */
  eyeOpenness: number;
}

const point = (mesh: FaceLandmarks['mesh'], i: number): Point => [mesh[i][0], mesh[i][1]];
const distance = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
const mean = (points: Point[]): Point => [
  points.reduce((s, p) => s + p[0], 0) / points.length,
  points.reduce((s, p) => s + p[1], 0) / points.length,
];

export function eyeCentres(mesh: FaceLandmarks['mesh']): { right: Point; left: Point } {
  const centre = (eye: typeof index.rightEye) =>
    mean([eye.outer, eye.inner, ...eye.upper, ...eye.lower].map((i) => point(mesh, i)));
  return { right: centre(index.rightEye), left: centre(index.leftEye) };
}

export function headPose(mesh: FaceLandmarks['mesh']): HeadPose {
  const { right, left } = eyeCentres(mesh);
  const axisLength = distance(right, left);
  const u: Point = [(left[0] - right[0]) / axisLength, (left[1] - right[1]) / axisLength];
  const v: Point = [-u[1], u[0]];
  const along = (p: Point, axis: Point) => p[0] * axis[0] + p[1] * axis[1];
  const nose = point(mesh, index.noseTip);
  const across =
    (along(nose, u) - along(point(mesh, index.faceRightEdge), u)) /
    (along(point(mesh, index.faceLeftEdge), u) - along(point(mesh, index.faceRightEdge), u));
  const down =
    (along(nose, v) - along(point(mesh, index.forehead), v)) /
    (along(point(mesh, index.chin), v) - along(point(mesh, index.forehead), v));
  return {
    yaw: asinDegrees(2 * across - 1),
    pitch: -asinDegrees(2 * down - 1),
    eyeOpenness: (aspect(mesh, index.rightEye) + aspect(mesh, index.leftEye)) / 2,
  };
}

/** Inner-lip gap over mouth width: about 0-0.05 closed, over ~0.3 wide open. */
export function mouthOpenness(mesh: FaceLandmarks['mesh']): number {
  const m = index.mouth;
  const width = distance(point(mesh, m.right), point(mesh, m.left));
  return width > 0 ? distance(point(mesh, m.upper), point(mesh, m.lower)) / width : 0;
}

/**
 * How far the nose tip stands in front of the face's edge points (234/454), over their half-spread,
 * on MediaPipe's canonical face (an average face): 1.29. A head is no cylinder through its edges: its
 * nose stands out, so a head turned by θ puts the nose at 2r - 1 = NOSE_DEPTH x tan θ across the
 * edges, and `headPose` (which takes asin of that) reads a real 30° turn as 48° and 36° as 70°.
 */
const NOSE_DEPTH = (() => {
  const at = (i: number, k: number) => CANONICAL_FACE[3 * i + k];
  const edgeDepth = (at(index.faceRightEdge, 2) + at(index.faceLeftEdge, 2)) / 2;
  const halfSpread = (at(index.faceLeftEdge, 0) - at(index.faceRightEdge, 0)) / 2;
  return (at(index.noseTip, 2) - edgeDepth) / halfSpread;
})();

/**
 * The head's turn (degrees, same sign) from `headPose`'s cylinder yaw, for a face shaped like the
 * canonical one: atan(sin(yaw) / NOSE_DEPTH), exact for that face seen straight on. It tops out at
 * atan(1 / NOSE_DEPTH) = 37.7° (turns beyond that put the nose past the edge, which the cylinder
 * reads as 90°). A face whose nose stands further out reads a little high, a flatter one a little
 * low: 20 % either way moves a 36° turn to 37.7° or to 30°.
 */
export function turnFromCylinderYaw(yaw: number): number {
  return (Math.atan(Math.sin((yaw * Math.PI) / 180) / NOSE_DEPTH) * 180) / Math.PI;
}

/** What `headPose` reads as yaw for a face shaped like the canonical one turned by `turn` degrees (90° past 37.7°): the inverse of `turnFromCylinderYaw`. */
export function cylinderYawOfTurn(turn: number): number {
  return asinDegrees(NOSE_DEPTH * Math.tan((turn * Math.PI) / 180));
}

function aspect(mesh: FaceLandmarks['mesh'], eye: typeof index.rightEye): number {
  const width = distance(point(mesh, eye.outer), point(mesh, eye.inner));
  const heights = eye.upper.map((u, k) => distance(point(mesh, u), point(mesh, eye.lower[k])));
  return heights.reduce((s, h) => s + h, 0) / heights.length / width;
}

function asinDegrees(x: number): number {
  return (Math.asin(Math.max(-1, Math.min(1, x))) * 180) / Math.PI;
}
