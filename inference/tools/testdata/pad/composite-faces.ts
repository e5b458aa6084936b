/**
 * Faces made of other faces: a mask (one person's face cut out, eye holes and all, worn over
 * another person's head) and an averaged face (several people aligned by their eyes and blended).
 * Eye positions come from the served face detector, run once over the source photos.
 */
import { between } from '../../../../scripts/test-support/seeded-random';
import { blank, sample, spot, type Raw } from './raw-image';

type Point = [number, number];

export interface FacePhoto {
  identity: string;
  photo: Raw;
  rightEye: Point;
  leftEye: Point;
}

/** The similarity map taking `to`'s eye pair onto `from`'s: returns from-image coordinates of a to-image point. */
export function eyeMap(from: FacePhoto, toRight: Point, toLeft: Point): (x: number, y: number) => Point {
  const dTo = [toLeft[0] - toRight[0], toLeft[1] - toRight[1]];
  const dFrom = [from.leftEye[0] - from.rightEye[0], from.leftEye[1] - from.rightEye[1]];
  const scale = Math.hypot(dFrom[0], dFrom[1]) / Math.hypot(dTo[0], dTo[1]);
  const angle = Math.atan2(dFrom[1], dFrom[0]) - Math.atan2(dTo[1], dTo[0]);
  const [cos, sin] = [Math.cos(angle) * scale, Math.sin(angle) * scale];
  return (x, y) => {
    const dx = x - toRight[0];
    const dy = y - toRight[1];
    return [from.rightEye[0] + cos * dx - sin * dy, from.rightEye[1] + sin * dx + cos * dy];
  };
}

/** `face`'s face, cut as a rigid oval with eye holes, worn over `wearer`'s. */
export function wearMask(
  face: FacePhoto,
  wearer: FacePhoto,
  random: () => number,
): { image: Raw; params: Record<string, number | string> } {
  const toFace = eyeMap(face, wearer.rightEye, wearer.leftEye);
  const eyeGap = Math.hypot(wearer.leftEye[0] - wearer.rightEye[0], wearer.leftEye[1] - wearer.rightEye[1]);
  const centre: Point = [
    (wearer.rightEye[0] + wearer.leftEye[0]) / 2,
    (wearer.rightEye[1] + wearer.leftEye[1]) / 2 + eyeGap * 0.55,
  ];
  const size = between(random, 0.95, 1.15);
  const oval = { cx: centre[0], cy: centre[1], rx: eyeGap * 1.05 * size, ry: eyeGap * 1.45 * size, angle: 0 };
  const holes = [wearer.rightEye, wearer.leftEye].map(([x, y]) => ({
    cx: x,
    cy: y,
    rx: eyeGap * 0.2,
    ry: eyeGap * 0.1,
    angle: 0,
  }));
  const contrast = between(random, 0.75, 0.95);
  const shift = [between(random, -12, 12), between(random, -12, 12), between(random, -12, 12)];
  const image = blank(wearer.photo.width, wearer.photo.height, (x, y, c) => {
    const own = wearer.photo.data[(y * wearer.photo.width + x) * 3 + c];
    const inOval = spot(x, y, oval) > Math.exp(-1);
    const inHole = holes.some((h) => spot(x, y, h) > Math.exp(-1));
    if (!inOval || inHole) return own;
    const [fx, fy] = toFace(x, y);
    const worn = sample(face.photo, fx, fy, c);
    if (worn === undefined) return own;
    // The mask's rim casts a thin shadow on the skin under it.
    const rim = spot(x, y, { ...oval, rx: oval.rx * 0.93, ry: oval.ry * 0.95 }) < Math.exp(-1) ? 0.6 : 1;
    return (128 + (worn - 128) * contrast + shift[c]) * rim;
  });
  return {
    image,
    params: {
      mask_of: face.identity,
      worn_by: wearer.identity,
      size: +size.toFixed(2),
      contrast: +contrast.toFixed(2),
    },
  };
}

/**
 * The pixel average of `faces`, each aligned so its eyes land on the same two points, framed as a
 * selfie is (the face about a third of the width, the averaged backgrounds around it).
 */
export function averageFaces(
  faces: FacePhoto[],
  random: () => number,
): { image: Raw; params: Record<string, number | string> } {
  const width = Math.round(between(random, 380, 450));
  const height = Math.round(width * 1.25);
  const gap = between(random, 0.12, 0.16);
  const right: Point = [width * (0.5 - gap / 2), height * 0.42];
  const left: Point = [width * (0.5 + gap / 2), height * 0.42];
  const maps = faces.map((f) => eyeMap(f, right, left));
  const image = blank(width, height, (x, y, c) => {
    let sum = 0;
    let n = 0;
    faces.forEach((f, k) => {
      const [fx, fy] = maps[k](x, y);
      const v = sample(f.photo, fx, fy, c);
      if (v !== undefined) {
        sum += v;
        n += 1;
      }
    });
    return n ? sum / n : 128;
  });
  return { image, params: { averaged: faces.map((f) => f.identity).join('+') } };
}
