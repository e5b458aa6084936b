import type { ModelRunner } from '../../runtime/model-runner';
import type { RgbImage } from '../../images/rgb-image';
import { packCrops, preprocessingOf } from '../../images/image-to-tensor';
import { chunks } from '../batch-chunks';
import { configuredThreshold } from '../face/thresholds';
import { padCrop, type Box } from './pad-crop';

/** Minivision's MiniFASNet pair, scored together as upstream does. */
export const padModels = ['pad-minifasnet-v2', 'pad-minifasnet-v1se'] as const;

/** MiniFASNet's classes: 0 and 2 are attack kinds, 1 is a real face. */
const realClass = 1;

export interface PadLines {
  /** The selfie's score must reach it. */
  realScore: number;
  /** How many liveness frames are scored, spread across the challenge (first and last included). */
  framesScored: number;
  /** Which quantile of the scored frames' scores stands for the sequence (0.5: their median). */
  framesQuantile: number;
  /** That quantile must reach it. */
  framesScore: number;
  /** Every scored frame must reach it (a lower line: single frames are noisier; 0 leaves it out). */
  frameScore: number;
  /** appliedScale / wanted scale below which the selfie is too close to judge. */
  cropRoom: number;
}

export interface PadScore {
  /** Mean of the members' real-class probabilities (upstream sums the softmaxes). */
  score: number;
  /** Each member's real-class probability, in `padModels` order (reported per signal). */
  members: number[];
  /**
   * Crop room of the member that needs the least context (V2's 2.7x): 1 when its crop has all the
   * context it was trained with. V1SE's 4x crop is clamped on most selfies, upstream's samples too.
   */
  room: number;
}

function serves(runner: ModelRunner, model: string): boolean {
  try {
    runner.config(model);
    return true;
  } catch {
    return false;
  }
}

/** True when the service serves the MiniFASNet pair; otherwise the legacy check runs. */
export function servesPadEnsemble(runner: ModelRunner): boolean {
  return padModels.every((m) => serves(runner, m));
}

/** The ensemble's lines: the mean, over its members, of each member's configured line of that name. */
export function padLines(runner: ModelRunner): PadLines {
  const mean = (name: string) =>
    padModels.reduce((sum, m) => sum + configuredThreshold(runner, m, name), 0) / padModels.length;
  return {
    realScore: mean('min_real_score'),
    framesScored: Math.round(mean('frames_scored')),
    framesQuantile: mean('frames_quantile'),
    framesScore: mean('min_frames_score'),
    frameScore: mean('min_frame_score'),
    cropRoom: mean('min_crop_room'),
  };
}

/** Scores each face with every member on its own upstream crop (scale from its config), batched per model. */
export async function padScores(runner: ModelRunner, faces: Array<{ image: RgbImage; box: Box }>): Promise<PadScore[]> {
  const out: PadScore[] = faces.map(() => ({ score: 0, members: padModels.map(() => 0), room: 0 }));
  await Promise.all(
    padModels.map(async (model, member) => {
      const config = runner.config(model);
      const pre = preprocessingOf(config);
      const wanted = pre.crop_scale;
      if (typeof wanted !== 'number')
        throw new Error(`models/${model}/${config.version}/config.json has no preprocessing.crop_scale`);
      let at = 0;
      for (const batch of chunks(faces, config.max_batch_size)) {
        const cut = batch.map(({ image, box }) => padCrop(image, box, wanted, pre.width));
        const [output] = Object.values(
          await runner.infer(
            model,
            packCrops(
              config,
              cut.map((c) => c.crop),
            ),
          ),
        );
        const classes = output.dims[output.dims.length - 1];
        cut.forEach(({ scaled }, n) => {
          const face = out[at + n];
          const real = (output.data as Float32Array)[n * classes + realClass];
          face.members[member] = real;
          face.score += real / padModels.length;
          face.room = Math.max(face.room, scaled.room);
        });
        at += batch.length;
      }
    }),
  );
  return out;
}
