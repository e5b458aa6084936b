/**
 * A mask worn through the challenge: another person's face, printed and cut as a rigid oval with
 * eye holes, worn over a liveness subject's head while they perform their recorded challenge. The
 * head under it turns for real (its frames are the subject's own performing recording), but the
 * face the camera reads is a flat sheet riding on the front of that head: each frame shows the
 * sheet turned by the head's yaw and pitch about the head's axis, while the wearer's own eyes
 * (and their blink) show through the holes. The same wearer's eyes, found by the served detector
 * on the recording's neutral frame, place the mask, as `wearMask` does for the stills.
 */
import { between } from '../../../../scripts/test-support/seeded-random';
import { eyeMap, type FacePhoto } from './composite-faces';
import { blank, sample, spot, type Raw } from './raw-image';

type Point = [number, number];

/** Yaw and pitch in degrees of each synthetic pose a performing recording shows (its generator's). */
const poseAngles: Record<string, [number, number]> = {
  neutral: [0, 0],
  blink: [0, 0],
  'blink-turned-left-8': [8, 0],
  'left-15': [15, 0],
  'left-30': [30, 0],
  'right-15': [-15, 0],
  'right-30': [-30, 0],
  'up-15': [0, -15],
  'up-30': [0, -30],
  'down-15': [0, 15],
  'down-30': [0, 30],
};

/** The yaw and pitch of a performing recording's frame file, from its pose name. */
export function poseOfFrame(file: string): [number, number] {
  const pose = /synthetic-pose-(.+)\.jpg$/.exec(file)?.[1];
  const angles = pose ? poseAngles[pose] : undefined;
  if (!angles) throw new Error(`no pose known for liveness frame ${file}`);
  return angles;
}

/**
 * The frame `shown` (the wearer turned by `yaw`/`pitch` degrees; positive yaw moves the nose to the
 * image's right, positive pitch down) with `mask`'s face worn over it as a flat sheet. The sheet
 * lies at the front of a head whose axis is one face half-width behind it, as the recording's
 * cylinder warp has it, so its centre moves with the head while the sheet itself only foreshortens.
 */
export function wearFlatMask(
  mask: FacePhoto,
  wearer: FacePhoto,
  shown: Raw,
  angles: [number, number],
  look: { size: number; contrast: number; shift: number[] },
): Raw {
  const eyeGap = Math.hypot(wearer.leftEye[0] - wearer.rightEye[0], wearer.leftEye[1] - wearer.rightEye[1]);
  const centre: Point = [
    (wearer.rightEye[0] + wearer.leftEye[0]) / 2,
    (wearer.rightEye[1] + wearer.leftEye[1]) / 2 + eyeGap * 0.55,
  ];
  const radius = eyeGap * 1.1;
  const [yaw, pitch] = angles.map((a) => (a * Math.PI) / 180);
  const oval = { cx: centre[0], cy: centre[1], rx: eyeGap * 1.05 * look.size, ry: eyeGap * 1.45 * look.size, angle: 0 };
  const holes = [wearer.rightEye, wearer.leftEye].map(([x, y]) => ({
    cx: x,
    cy: y,
    rx: eyeGap * 0.2,
    ry: eyeGap * 0.1,
    angle: 0,
  }));
  const toFace = eyeMap(mask, wearer.rightEye, wearer.leftEye);
  // Paper facing away from the camera catches less of the frontal light.
  const shade = 0.85 + 0.15 * Math.cos(yaw) * Math.cos(pitch);
  return blank(shown.width, shown.height, (x, y, c) => {
    const own = shown.data[(y * shown.width + x) * 3 + c];
    // Where on the upright sheet (in the neutral frame's coordinates) this pixel looks.
    const sx = centre[0] + (x - centre[0] - radius * Math.sin(yaw)) / Math.cos(yaw);
    const sy = centre[1] + (y - centre[1] - radius * Math.sin(pitch)) / Math.cos(pitch);
    const inOval = spot(sx, sy, oval) > Math.exp(-1);
    const inHole = holes.some((h) => spot(sx, sy, h) > Math.exp(-1));
    if (!inOval || inHole) return own;
    const [fx, fy] = toFace(sx, sy);
    const worn = sample(mask.photo, fx, fy, c);
    if (worn === undefined) return own;
    const rim = spot(sx, sy, { ...oval, rx: oval.rx * 0.93, ry: oval.ry * 0.95 }) < Math.exp(-1) ? 0.6 : 1;
    return (128 + (worn - 128) * look.contrast + look.shift[c]) * rim * shade;
  });
}

/** A mask's look drawn once per sequence: one sheet is worn throughout. */
export function drawMaskLook(random: () => number): { size: number; contrast: number; shift: number[] } {
  return {
    size: between(random, 0.95, 1.15),
    contrast: between(random, 0.75, 0.95),
    shift: [between(random, -12, 12), between(random, -12, 12), between(random, -12, 12)],
  };
}
