import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { livenessSources, type LivenessSource } from './face-sources';
import { closeEyes, turnOnCylinder, type RawImage } from './warp-face';

export type Step = 'TURN_LEFT' | 'TURN_RIGHT' | 'BLINK' | 'LOOK_UP' | 'LOOK_DOWN';

/** One line of sequences.jsonl; frame paths are relative to that file. See README.md. */
export interface LivenessSequence {
  name: string;
  frames: string[];
  challenge: Step[];
  live: boolean;
  expected_reason: 'LIVENESS_FAILED' | 'FACE_NOT_DETECTED' | null;
  expected_failed_step: Step | null;
  kind: string;
}

/** A yaw (vertical axis) and pitch (horizontal axis) warp in degrees, and whether the eyes are closed. */
interface Pose {
  yaw?: number;
  pitch?: number;
  closed?: boolean;
}

/**
 * Poses each synthetic frame shows. Steps name the subject's own movement: TURN_LEFT is the person
 * turning to their left, which moves the nose toward the image's right in an unmirrored frame
 * (positive yaw). The cylinder has the face's own half-width as radius, so a warp of N degrees
 * moves FaceMesh's landmarks about as far as a head turned N degrees would (measured: 20° reads
 * 14–31°, 6° reads 4–10°); a clear turn or look is 30°. `drift-N` frames wander within ±6° on both
 * axes, the way a talking head moves without turning.
 */
const poses: Record<string, Pose> = {
  neutral: {},
  'left-15': { yaw: 15 },
  'left-30': { yaw: 30 },
  'right-15': { yaw: -15 },
  'right-30': { yaw: -30 },
  'up-15': { pitch: -15 },
  'up-30': { pitch: -30 },
  'down-15': { pitch: 15 },
  'down-30': { pitch: 30 },
  blink: { closed: true },
  'blink-turned-left-8': { closed: true, yaw: 8 },
  'drift-1': { yaw: 4, pitch: -2 },
  'drift-2': { yaw: -3, pitch: 3 },
  'drift-3': { yaw: 6, pitch: 1 },
  'drift-4': { yaw: -6, pitch: -3 },
  'drift-5': { yaw: 2, pitch: 6 },
  'drift-6': { yaw: -4, pitch: -6 },
};

export const stepPoses: Record<Step, string[]> = {
  TURN_LEFT: ['left-15', 'left-30', 'left-15', 'neutral'],
  TURN_RIGHT: ['right-15', 'right-30', 'right-15', 'neutral'],
  BLINK: ['blink', 'neutral'],
  LOOK_UP: ['up-15', 'up-30', 'up-15', 'neutral'],
  LOOK_DOWN: ['down-15', 'down-30', 'down-15', 'neutral'],
};

const driftFrames = ['drift-1', 'drift-2', 'drift-3', 'drift-4', 'drift-5', 'drift-6', 'drift-3', 'drift-2'];

export async function makeLivenessSequences(assetsDir: string, outDir: string): Promise<LivenessSequence[]> {
  for (const source of livenessSources) await writePoseFrames(assetsDir, outDir, source);
  const blank = 'synthetic-no-face.jpg';
  await sharp({ create: { width: 320, height: 320, channels: 3, background: { r: 90, g: 110, b: 100 } } })
    .jpeg()
    .toFile(path.join(outDir, blank));
  const sequences: LivenessSequence[] = [];
  for (const [index, source] of livenessSources.entries()) {
    const other = livenessSources[(index + 1) % livenessSources.length].identity;
    sequences.push(...sequencesFor(source.identity, other, blank));
  }
  await writeFile(path.join(outDir, 'sequences.jsonl'), sequences.map((s) => JSON.stringify(s)).join('\n') + '\n');
  return sequences;
}

function sequencesFor(identity: string, other: string, blank: string): LivenessSequence[] {
  const frames = (who: string, steps: Step[]) => [
    frame(who, 'neutral'),
    ...steps.flatMap((s) => stepPoses[s].map((p) => frame(who, p))),
  ];
  const pass = (name: string, challenge: Step[]): LivenessSequence => ({
    name: `${identity}__synthetic-${name}`,
    frames: frames(identity, challenge),
    challenge,
    live: true,
    expected_reason: null,
    expected_failed_step: null,
    kind: 'synthetic-performs-challenge',
  });
  const fail = (
    name: string,
    challenge: Step[],
    shown: string[],
    failedStep: Step,
    reason: LivenessSequence['expected_reason'] = 'LIVENESS_FAILED',
  ): LivenessSequence => ({
    name: `${identity}__synthetic-${name}`,
    frames: shown,
    challenge,
    live: false,
    expected_reason: reason,
    expected_failed_step: failedStep,
    kind: `synthetic-${name}`,
  });
  const leftRightBlink: Step[] = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'];
  return [
    pass('left-right-blink', leftRightBlink),
    pass('blink-right-left', ['BLINK', 'TURN_RIGHT', 'TURN_LEFT']),
    pass('up-left-down', ['LOOK_UP', 'TURN_LEFT', 'LOOK_DOWN']),
    fail('wrong-order', leftRightBlink, frames(identity, ['TURN_RIGHT', 'TURN_LEFT', 'BLINK']), 'TURN_RIGHT'),
    fail(
      'static',
      leftRightBlink,
      Array.from({ length: 11 }, () => frame(identity, 'neutral')),
      'TURN_LEFT',
    ),
    fail('no-blink', ['TURN_LEFT', 'BLINK'], frames(identity, ['TURN_LEFT', 'TURN_LEFT']), 'BLINK'),
    fail(
      'face-swapped-mid-sequence',
      leftRightBlink,
      [...frames(identity, ['TURN_LEFT']), ...frames(other, ['TURN_RIGHT', 'BLINK']).slice(1)],
      'TURN_RIGHT',
    ),
    fail(
      'no-face',
      leftRightBlink,
      Array.from({ length: 6 }, () => blank),
      'TURN_LEFT',
      'FACE_NOT_DETECTED',
    ),
    fail(
      'talking-drift',
      leftRightBlink,
      [frame(identity, 'neutral'), ...driftFrames.map((p) => frame(identity, p))],
      'TURN_LEFT',
    ),
    fail(
      'talking-drift-then-blink',
      ['LOOK_UP', 'BLINK'],
      [frame(identity, 'neutral'), ...driftFrames.map((p) => frame(identity, p)), frame(identity, 'blink')],
      'LOOK_UP',
    ),
    {
      ...pass('right-left-blink-still-turned', ['TURN_RIGHT', 'TURN_LEFT', 'BLINK']),
      frames: [
        ...frames(identity, ['TURN_RIGHT']),
        ...stepPoses.TURN_LEFT.slice(0, 2).map((p) => frame(identity, p)),
        frame(identity, 'blink-turned-left-8'),
        frame(identity, 'neutral'),
      ],
    },
  ];
}

const frame = (identity: string, pose: string) => `${identity}__synthetic-pose-${pose}.jpg`;

async function writePoseFrames(assetsDir: string, outDir: string, source: LivenessSource): Promise<void> {
  const { data, info } = await sharp(path.join(assetsDir, source.file))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image: RawImage = { data, width: info.width, height: info.height, channels: 3 };
  for (const pose of Object.keys(poses)) {
    const posed = posedFrame(image, source, pose);
    await sharp(posed.data, { raw: { width: posed.width, height: posed.height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toFile(path.join(outDir, frame(source.identity, pose)));
  }
}

/** `image` of `source` in one of the named poses (the keys of `poses`, as `stepPoses` names them). */
export function posedFrame(image: RawImage, source: LivenessSource, pose: string): RawImage {
  const spec = poses[pose];
  if (!spec) throw new Error(`no pose ${pose}`);
  const eyeY = source.eyes.reduce((sum, e) => sum + e.y, 0) / source.eyes.length;
  let posed = spec.closed ? closeEyes(image, source.eyes) : image;
  if (spec.yaw)
    posed = turnOnCylinder(posed, {
      axis: 'vertical',
      centre: source.faceCentreX,
      radius: source.faceHalfWidth,
      degrees: spec.yaw,
    });
  if (spec.pitch)
    posed = turnOnCylinder(posed, {
      axis: 'horizontal',
      centre: eyeY + source.faceHalfWidth * 0.5,
      radius: source.faceHalfWidth,
      degrees: spec.pitch,
    });
  return posed;
}
