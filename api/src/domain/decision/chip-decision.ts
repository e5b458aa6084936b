import type { FaceMatchRun } from '../checks/check-results';
import { documentChipCheck, type DocumentChipCheck } from '../chip/document-chip-check';
import type { ChipInput, ReportCheck } from './decision-inputs';

export interface ChipOutcome {
  check: DocumentChipCheck;
  report: ReportCheck;
  /** The chip portrait's face match, when the chip verified: the face-match reference from then on. */
  reference: FaceMatchRun | null;
}

/**
 * The `document_chip` check: passive (and, where the chip has a key, active) authentication, DG1
 * against the page's MRZ, then DG2's portrait against the selfie. A chip that passes all of them
 * makes its portrait the face-match reference, since the state signed it and the page's printed
 * photo is only what the camera saw. `off` (or a capture from before the chip routes) is
 * NOT_PERFORMED whatever was sent.
 */
export function decideChip(input: ChipInput | null): ChipOutcome {
  if (!input) return { check: { status: 'NOT_PERFORMED', reason: null }, report: notPerformed(0), reference: null };
  const verification = input.mode === 'off' ? null : input.verification;
  let check = documentChipCheck(input.mode, verification, input.mrzMismatches);
  const portraitFailed = check.status === 'PASS' && input.portraitMatch?.verdict === 'FAIL';
  if (portraitFailed) check = { status: 'FAIL', reason: 'CHIP_PORTRAIT_MISMATCH' };
  // The portrait's own score stays on face_match; the chip's entry says what was proved, no scores.
  const report: ReportCheck = {
    ...notPerformed(input.duration_ms),
    verdict: check.status,
    reason: check.reason,
    ...(verification ? { evidence: { ...verification.evidence, mrz_fields_mismatched: input.mrzMismatches } } : {}),
  };
  const reference = check.status === 'PASS' ? input.portraitMatch : null;
  return { check, report, reference };
}

const notPerformed = (duration_ms: number): ReportCheck => ({
  verdict: 'NOT_PERFORMED',
  reason: null,
  scores: [],
  model: null,
  models: [],
  duration_ms,
});
