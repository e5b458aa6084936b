import { ScoreEvidence } from '../checks/check-results';

/** Scores that say whether a requirement holds in full (a match, every check digit, every challenge step), not how far. */
export const ALL_OR_NOTHING = new Set([
  'name_match',
  'dob_match',
  'address_postal_code_match',
  'mrz_check_digits_passed',
  'steps_completed',
]);

/**
 * How far one score sits from its decision line, as a number in [0, 1]: 0.5 on the line, rising
 * to 1 when the margin on the passing side is as large as the line itself (or 0.05 for lines near
 * zero), falling to 0 as far on the failing side.
 *   margin = (value - threshold) for `gte`, (threshold - value) for `lte`
 *   c = clamp(0.5 + 0.5 * margin / max(|threshold|, 0.05), 0, 1)
 * except that a met yes-or-no requirement (ALL_OR_NOTHING) gives 1.
 */
export function scoreConfidence(score: ScoreEvidence): number {
  // A yes-or-no requirement has no margin to measure: met, it is certain (before, every verified
  // session sat at exactly 0.5, pinned there by a matching name or a full set of check digits).
  if (ALL_OR_NOTHING.has(score.name) && score.value >= score.threshold) return 1;
  const margin = score.comparison === 'gte' ? score.value - score.threshold : score.threshold - score.value;
  const scale = Math.max(Math.abs(score.threshold), 0.05);
  return Math.min(1, Math.max(0, 0.5 + (0.5 * margin) / scale));
}

/**
 * The overall confidence is the weakest score's: a verification is only as sure as its least sure
 * check. A VERIFIED session therefore scores at least 0.5 and a FAILED one below it (a failed
 * check without scores, such as an unreadable document, counts as 0). Rounded to 4 decimals.
 */
export function overallConfidence(scores: ScoreEvidence[], failedWithoutScore: boolean): number {
  if (failedWithoutScore) return 0;
  if (scores.length === 0) return 0.5;
  return Math.round(Math.min(...scores.map(scoreConfidence)) * 10_000) / 10_000;
}
