import type { AntispoofCheck } from '../task-contracts';
import { analyseFaces } from '../face/analyse-faces';
import { faceCropScores } from '../face/face-crop-scores';
import { decodeRgb } from '../face/rgb-image';
import { configuredThreshold } from '../face/thresholds';

export const antispoofModel = 'antispoof';

/** Antispoof: the selfie's face crop scored as real; SPOOF_DETECTED below antispoof's `min_real_score`. */
export const checkAntispoof: AntispoofCheck = async (runner, input) => {
  const threshold = configuredThreshold(runner, antispoofModel, 'min_real_score');
  const image = await decodeRgb(input.selfie);
  const [analysed] = await analyseFaces(runner, [image]);
  if (!analysed) return { verdict: 'FAIL', reason: 'FACE_NOT_DETECTED', detail: 'no face found in the selfie', scores: [] };
  const [real] = await faceCropScores(runner, antispoofModel, [{ image, analysed }]);
  const pass = real >= threshold;
  return {
    verdict: pass ? 'PASS' : 'FAIL',
    reason: pass ? null : 'SPOOF_DETECTED',
    detail: `real score ${real.toFixed(4)} ${pass ? '>=' : '<'} ${threshold}`,
    scores: [{ name: 'real_score', value: real, threshold, comparison: 'gte' }],
  };
};
