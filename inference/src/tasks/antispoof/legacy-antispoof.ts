import type { AntispoofCheck, ScoreEvidence } from '../task-contracts';
import { analyseFaces } from '../face/analyse-faces';
import { faceCropScores } from '../face/face-crop-scores';
import { decodeRgbImage } from '../../images/decode-image';
import { configuredThreshold } from '../face/thresholds';
import { passiveLivenessModel } from '../liveness/liveness-settings';

export const antispoofModel = 'antispoof';

/**
 * The first antispoof check, kept for comparison: it runs when the service does not serve the
 * MiniFASNet pair (INFERENCE_MODELS without them). The selfie's face crop must clear both the antispoof model's `min_real_score` and
 * the passive-liveness model's `min_live_score`; SPOOF_DETECTED when either is below its line.
 * Measured on the project's attack simulations (models/README.md), the passive-liveness model
 * rejects the painting and a glare print the antispoof model lets through, at no cost to
 * bona fide photos, so the two are required together.
 */
export const checkLegacyAntispoof: AntispoofCheck = async (runner, input) => {
  const realLine = configuredThreshold(runner, antispoofModel, 'min_real_score');
  const liveLine = configuredThreshold(runner, passiveLivenessModel, 'min_live_score');
  const image = await decodeRgbImage(input.selfie, { what: 'selfie' });
  const [analysed] = await analyseFaces(runner, [image]);
  if (!analysed)
    return {
      verdict: 'FAIL',
      reason: 'FACE_NOT_DETECTED',
      detail: 'no face found in the selfie',
      scores: [],
      retake_reason: null,
    };
  const faces = [{ image, analysed }];
  const [[real], [live]] = await Promise.all([
    faceCropScores(runner, antispoofModel, faces),
    faceCropScores(runner, passiveLivenessModel, faces),
  ]);
  const scores: ScoreEvidence[] = [
    { name: 'real_score', value: real, threshold: realLine, comparison: 'gte' },
    { name: 'passive_liveness', value: live, threshold: liveLine, comparison: 'gte' },
  ];
  const failing = scores.filter((s) => s.value < s.threshold);
  return {
    verdict: failing.length ? 'FAIL' : 'PASS',
    reason: failing.length ? 'SPOOF_DETECTED' : null,
    detail: scores
      .map((s) => `${s.name} ${s.value.toFixed(4)} ${s.value >= s.threshold ? '>=' : '<'} ${s.threshold}`)
      .join(', '),
    scores,
    retake_reason: null,
  };
};
