import type { AntispoofCheck, AntispoofCheckOutput, ScoreEvidence } from '../task-contracts';
import { decodeUpload } from '../remembered-work';
import { findFaceBoxes } from './find-face-box';
import { checkLegacyAntispoof } from './legacy-antispoof';
import { padLines, padScores, servesPadEnsemble } from './pad-ensemble';
import { spreadFrames } from './spread-frames';

export { antispoofModel } from './legacy-antispoof';

/**
 * Presentation-attack detection with Minivision's MiniFASNet pair on the selfie and on liveness
 * frames spread across the challenge (a replay that follows the challenge must still look live
 * frame by frame). How many frames are scored and how their scores make one verdict are config
 * (`frames_scored`, `frames_quantile`, `min_frames_score`, `min_frame_score` in the pair's
 * thresholds): it passes only when the selfie's score reaches its line, the chosen quantile of the
 * frames' scores reaches the frames' line and every scored frame reaches the per-frame line. A
 * face that is not found, even at the larger retry size, is a refusal, never a pass. A selfie whose
 * face fills the frame leaves no room for the crop the model was trained on: it is not scored and
 * the liveness frames decide alone, so the honest applicant is not asked to take it again; only
 * when no frame could be scored instead is a retake asked for (FACE_TOO_CLOSE: move back), never
 * a spoof verdict.
 * When the service does not serve the pair, the legacy check runs (kept for comparison).
 */
export const checkAntispoof: AntispoofCheck = async (runner, input) => {
  if (!servesPadEnsemble(runner)) return checkLegacyAntispoof(runner, input);
  const lines = padLines(runner);
  const selfie = await decodeUpload(runner, input.selfie, 'selfie');
  const picked = spreadFrames(input.frames ?? [], lines.framesScored);
  const frames = await Promise.all(picked.map(({ bytes, index }) => decodeUpload(runner, bytes, `frame ${index}`)));
  const boxes = await findFaceBoxes(runner, [selfie, ...frames]);
  const fail = (
    reason: string,
    detail: string,
    scores: ScoreEvidence[],
    retake: AntispoofCheckOutput['retake_reason'] = null,
  ): AntispoofCheckOutput => ({ verdict: 'FAIL', reason, detail, scores, retake_reason: retake });
  if (!boxes[0]) return fail('FACE_NOT_DETECTED', 'no face found in the selfie', []);
  const faces = [{ image: selfie, box: boxes[0] }];
  const frameAt: number[] = [];
  boxes.slice(1).forEach((box, k) => {
    if (box) {
      faces.push({ image: frames[k], box });
      frameAt.push(picked[k].index);
    }
  });
  const [selfieScore, ...frameScores] = await padScores(runner, faces);
  const scores: ScoreEvidence[] = [
    { name: 'selfie_crop_room', value: selfieScore.room, threshold: lines.cropRoom, comparison: 'gte' },
  ];
  const tooClose = selfieScore.room < lines.cropRoom;
  if (!tooClose)
    scores.push({
      name: 'pad_selfie',
      value: selfieScore.score,
      threshold: lines.realScore,
      comparison: 'gte',
    });
  if (frameScores.length) {
    scores.push({
      name: framesScoreName(lines.framesQuantile),
      value: quantile(
        frameScores.map((f) => f.score),
        lines.framesQuantile,
      ),
      threshold: lines.framesScore,
      comparison: 'gte',
    });
    frameScores.forEach((f, k) =>
      scores.push({
        name: `pad_frame_${frameAt[k]}`,
        value: f.score,
        threshold: lines.frameScore,
        comparison: 'gte',
      }),
    );
  }
  // A retake could only add the selfie's own score to a verdict the frames already reach, so it is
  // asked for only when there are no frames to decide instead.
  const retake = tooClose && !frameScores.length ? 'FACE_TOO_CLOSE' : null;
  const closeNote = !tooClose
    ? ''
    : `the face fills the selfie (crop room ${selfieScore.room.toFixed(2)} < ${lines.cropRoom}): ` +
      (retake ? 'move back; ' : 'not scored, the liveness frames decide; ');
  if (picked.length && !frameScores.length)
    return fail(
      'SPOOF_DETECTED',
      `${closeNote}no face found in the ${picked.length} liveness frames scored`,
      scores,
      retake,
    );
  if (tooClose && !frameScores.length)
    return fail('FACE_NOT_DETECTED', `${closeNote}no liveness frames to score instead`, scores, retake);
  const judged = scores.filter((s) => s.name !== 'selfie_crop_room');
  const failing = judged.filter((s) => s.value < s.threshold);
  const detail =
    closeNote +
    judged
      .map((s) => `${s.name} ${s.value.toFixed(4)} ${s.value >= s.threshold ? '>=' : '<'} ${round(s.threshold)}`)
      .join(', ');
  if (failing.length) return fail('SPOOF_DETECTED', detail, scores, retake);
  return { verdict: 'PASS', reason: null, detail, scores, retake_reason: retake };
};

/** The q-quantile, interpolated between neighbours (q = 0.5 is the median). */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - below);
}

/** The evidence name of the frames' pooled score: `pad_frames_median`, or `pad_frames_p<percent>`. */
export const framesScoreName = (q: number) => (q === 0.5 ? 'pad_frames_median' : `pad_frames_p${Math.round(q * 100)}`);

const round = (n: number) => Math.round(n * 1e4) / 1e4;
