import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { livenessSources, type LivenessSource } from './face-sources';
import { closeEyes, turnOnCylinder, type RawImage } from './warp-face';

type Step = 'TURN_LEFT' | 'TURN_RIGHT' | 'BLINK' | 'LOOK_UP' | 'LOOK_DOWN';

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

/**
 * Poses each synthetic frame shows. Steps name the subject's own movement: TURN_LEFT is the person
 * turning to their left, which moves the nose toward the image's right in an unmirrored frame.
 */
const poses: Record<string, { axis: 'vertical' | 'horizontal'; degrees: number } | 'blink' | null> = {
  neutral: null,
  'left-14': { axis: 'vertical', degrees: 14 }, 'left-28': { axis: 'vertical', degrees: 28 },
  'right-14': { axis: 'vertical', degrees: -14 }, 'right-28': { axis: 'vertical', degrees: -28 },
  'up-15': { axis: 'horizontal', degrees: -15 }, 'up-30': { axis: 'horizontal', degrees: -30 },
  'down-15': { axis: 'horizontal', degrees: 15 }, 'down-30': { axis: 'horizontal', degrees: 30 },
  blink: 'blink',
};

const stepPoses: Record<Step, string[]> = {
  TURN_LEFT: ['left-14', 'left-28', 'left-14', 'neutral'],
  TURN_RIGHT: ['right-14', 'right-28', 'right-14', 'neutral'],
  BLINK: ['blink', 'neutral'],
  LOOK_UP: ['up-15', 'up-30', 'up-15', 'neutral'],
  LOOK_DOWN: ['down-15', 'down-30', 'down-15', 'neutral'],
};

export async function makeLivenessSequences(assetsDir: string, outDir: string): Promise<LivenessSequence[]> {
  for (const source of livenessSources) await writePoseFrames(assetsDir, outDir, source);
  const blank = 'synthetic-no-face.jpg';
  await sharp({ create: { width: 320, height: 320, channels: 3, background: { r: 90, g: 110, b: 100 } } }).jpeg().toFile(path.join(outDir, blank));
  const sequences: LivenessSequence[] = [];
  for (const [index, source] of livenessSources.entries()) {
    const other = livenessSources[(index + 1) % livenessSources.length].identity;
    sequences.push(...sequencesFor(source.identity, other, blank));
  }
  await writeFile(path.join(outDir, 'sequences.jsonl'), sequences.map((s) => JSON.stringify(s)).join('\n') + '\n');
  return sequences;
}

function sequencesFor(identity: string, other: string, blank: string): LivenessSequence[] {
  const frames = (who: string, steps: Step[]) => [frame(who, 'neutral'), ...steps.flatMap((s) => stepPoses[s].map((p) => frame(who, p)))];
  const pass = (name: string, challenge: Step[]): LivenessSequence => ({
    name: `${identity}__synthetic-${name}`, frames: frames(identity, challenge), challenge, live: true, expected_reason: null, expected_failed_step: null, kind: 'synthetic-performs-challenge',
  });
  const fail = (name: string, challenge: Step[], shown: string[], failedStep: Step, reason: LivenessSequence['expected_reason'] = 'LIVENESS_FAILED'): LivenessSequence => ({
    name: `${identity}__synthetic-${name}`, frames: shown, challenge, live: false, expected_reason: reason, expected_failed_step: failedStep, kind: `synthetic-${name}`,
  });
  const leftRightBlink: Step[] = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'];
  return [
    pass('left-right-blink', leftRightBlink),
    pass('blink-right-left', ['BLINK', 'TURN_RIGHT', 'TURN_LEFT']),
    pass('up-left-down', ['LOOK_UP', 'TURN_LEFT', 'LOOK_DOWN']),
    fail('wrong-order', leftRightBlink, frames(identity, ['TURN_RIGHT', 'TURN_LEFT', 'BLINK']), 'TURN_RIGHT'),
    fail('static', leftRightBlink, Array.from({ length: 11 }, () => frame(identity, 'neutral')), 'TURN_LEFT'),
    fail('no-blink', ['TURN_LEFT', 'BLINK'], frames(identity, ['TURN_LEFT', 'TURN_LEFT']), 'BLINK'),
    fail('face-swapped-mid-sequence', leftRightBlink, [...frames(identity, ['TURN_LEFT']), ...frames(other, ['TURN_RIGHT', 'BLINK']).slice(1)], 'TURN_RIGHT'),
    fail('no-face', leftRightBlink, Array.from({ length: 6 }, () => blank), 'TURN_LEFT', 'FACE_NOT_DETECTED'),
  ];
}

const frame = (identity: string, pose: string) => `${identity}__synthetic-pose-${pose}.jpg`;

async function writePoseFrames(assetsDir: string, outDir: string, source: LivenessSource): Promise<void> {
  const { data, info } = await sharp(path.join(assetsDir, source.file)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RawImage = { data, width: info.width, height: info.height, channels: 3 };
  const eyeY = source.eyes.reduce((sum, e) => sum + e.y, 0) / source.eyes.length;
  for (const [pose, spec] of Object.entries(poses)) {
    let posed = image;
    if (spec === 'blink') posed = closeEyes(image, source.eyes);
    else if (spec) {
      const vertical = spec.axis === 'vertical';
      posed = turnOnCylinder(image, {
        axis: spec.axis,
        centre: vertical ? source.faceCentreX : eyeY + source.faceHalfWidth * 0.5,
        radius: source.faceHalfWidth * (vertical ? 1.9 : 1.7),
        degrees: spec.degrees,
      });
    }
    await sharp(posed.data, { raw: { width: posed.width, height: posed.height, channels: 3 } }).jpeg({ quality: 90 }).toFile(path.join(outDir, frame(source.identity, pose)));
  }
}
