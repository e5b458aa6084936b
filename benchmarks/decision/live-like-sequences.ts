/**
 * Head-motion sequences of a live-like applicant, made in memory the way the liveness set makes
 * its own (`make-liveness-sequences.ts`: the same poses, warps and JPEG quality), from a camera
 * photo the face sets already hold. The liveness set's three subjects include Grace Hopper, whose
 * source is a scan of a printed 1984 portrait: PAD rightly takes every image made from it for a
 * recapture, so a benchmark of honest applicants takes a camera photo instead and reports that
 * portrait apart, as a PAD case (applicants.ts).
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { posedFrame, stepPoses, type Step } from '../../inference/tools/testdata/faces/make-liveness-sequences';
import type { LivenessSource } from '../../inference/tools/testdata/faces/face-sources';

/**
 * Messi's photo as the face set cuts it (`messi__original.jpg`, 360 × 360: a 120 px region of
 * OpenCV's messi5.jpg up-scaled 3×). Eye centres from the served face detector's keypoints on that
 * file ((207.6, 220.3) and (242.8, 221.4)); the face's half-width scaled from the astronaut's
 * hand-measured one by the eye distance (35 vs 45 px). The eyelids are larger than that scaling
 * gives (11 × 6 px, not 8 × 4): the up-scaled photo's eyes are soft, and FaceMesh read no blink under
 * the smaller lids (the liveness eval on these sequences: 2 of 3 refused at BLINK, 0 of 3 with 11 × 6).
 */
export const liveLikeSource: LivenessSource = {
  identity: 'messi',
  file: 'messi__original.jpg',
  faceCentreX: 225,
  faceHalfWidth: 33,
  eyes: [
    { x: 208, y: 220, halfWidth: 11, halfHeight: 6 },
    { x: 243, y: 221, halfWidth: 11, halfHeight: 6 },
  ],
};

/** The performing challenges of the liveness set, in its order. */
const challenges: Array<{ name: string; challenge: Step[] }> = [
  { name: 'left-right-blink', challenge: ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'] },
  { name: 'blink-right-left', challenge: ['BLINK', 'TURN_RIGHT', 'TURN_LEFT'] },
  { name: 'up-left-down', challenge: ['LOOK_UP', 'TURN_LEFT', 'LOOK_DOWN'] },
];

export interface MadeSequence {
  name: string;
  frames: Buffer[];
  challenge: Step[];
}

/** Each performing challenge as JPEG frames of `source` (read from `facesDir`), neutral first. */
export async function liveLikeSequences(facesDir: string, source = liveLikeSource): Promise<MadeSequence[]> {
  const { data, info } = await sharp(readFileSync(`${facesDir}/${source.file}`))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image = { data, width: info.width, height: info.height, channels: 3 as const };
  const jpeg = new Map<string, Promise<Buffer>>();
  const frame = (pose: string) => {
    if (!jpeg.has(pose)) {
      const posed = posedFrame(image, source, pose);
      jpeg.set(
        pose,
        sharp(posed.data, { raw: { width: posed.width, height: posed.height, channels: 3 } })
          .jpeg({ quality: 90 })
          .toBuffer(),
      );
    }
    return jpeg.get(pose)!;
  };
  return Promise.all(
    challenges.map(async ({ name, challenge }) => ({
      name: `${source.identity}__bench-${name}`,
      challenge,
      frames: await Promise.all(['neutral', ...challenge.flatMap((s) => stepPoses[s])].map(frame)),
    })),
  );
}
