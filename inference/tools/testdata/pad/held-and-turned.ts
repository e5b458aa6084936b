/**
 * A flat picture held up and turned to imitate the challenge's head turns: every frame is one
 * homography of the same still face (or nearly, for a gently bent sheet). The picture is a print of
 * the subject (halftone or photo), an artwork of them (painting or drawing), or a photo print of an
 * averaged face the subject is part of: whatever is on the sheet, a sheet only foreshortens.
 */
import { between } from '../../../../scripts/test-support/seeded-random';
import type { Step } from '../faces/make-liveness-sequences';
import { averageFaces } from './composite-faces';
import { drawScene, presentSurface, type Pose } from './present-surface';
import { drawCamera, sceneSize, type CameraParams } from './camera-path';
import type { PadPhoto } from './pad-sources';
import type { Raw } from './raw-image';
import { drawing, halftonePrint, painting, photoPrint, type Surface } from './surfaces';

export type HeldSpecies = 'print-turned' | 'artwork-turned' | 'averaged-print-turned';

/** How a held sheet is turned for each challenge step (fractions of the turn in yaw, pitch). */
const sheetMotion: Record<Step, Array<[number, number]>> = {
  TURN_LEFT: [
    [0.5, 0],
    [1, 0],
    [0.5, 0],
    [0, 0],
  ],
  TURN_RIGHT: [
    [-0.5, 0],
    [-1, 0],
    [-0.5, 0],
    [0, 0],
  ],
  LOOK_UP: [
    [0, -0.5],
    [0, -1],
    [0, -0.5],
    [0, 0],
  ],
  LOOK_DOWN: [
    [0, 0.5],
    [0, 1],
    [0, 0.5],
    [0, 0],
  ],
  BLINK: [
    [0, 0],
    [0, 0],
  ],
};

/**
 * What is printed on the sheet for the `i`th sample of `species`, made from the subject's neutral
 * frame `still` (and, for an averaged face, the subject's photo averaged with one or two others').
 */
export async function sheetOf(
  species: HeldSpecies,
  i: number,
  still: Raw,
  random: () => number,
  averaged: { subject?: PadPhoto; others: PadPhoto[] },
): Promise<Surface> {
  if (species === 'print-turned') return i % 2 ? photoPrint(still, random) : halftonePrint(still, random);
  if (species === 'artwork-turned') return i % 2 ? drawing(still, random) : painting(still, random);
  const { subject, others } = averaged;
  if (!subject || others.length < 2) throw new Error('an averaged face needs the subject and two other people');
  const count = 1 + Math.floor(random() * 2);
  const members = [subject, ...Array.from({ length: count }, (_, k) => others[(i + k) % others.length])];
  const face = averageFaces(members, random);
  const print = await photoPrint(face.image, random);
  return { ...print, params: { ...print.params, ...face.params } };
}

/** The frames of `sheet` held in a hand and turned through `challenge`, the camera and what was drawn for it. */
export function turnSheet(
  sheet: Surface,
  challenge: Step[],
  random: () => number,
  bent: boolean,
): { frames: Raw[]; camera: CameraParams; params: Record<string, number | string> } {
  const scene = drawScene(random, sceneSize.width, sceneSize.height, { bent, hand: true });
  const turn = between(random, 20, 45);
  const base: Pose = {
    yaw: between(random, -5, 5),
    pitch: between(random, -5, 5),
    roll: between(random, -4, 4),
  };
  const poses = [[0, 0], ...challenge.flatMap((s) => sheetMotion[s])].map(([y, p]) => ({
    yaw: base.yaw + y * turn,
    pitch: base.pitch + p * turn,
    roll: base.roll + between(random, -1.5, 1.5),
  }));
  // The camera is drawn before the frames are rendered: the order the set's seeds were made in.
  const camera = drawCamera(random);
  return {
    frames: poses.map((pose) => presentSurface(sheet.surface, scene, pose, random)),
    camera,
    params: { turn_degrees: +turn.toFixed(1), bend: +scene.bend.toFixed(2) },
  };
}
