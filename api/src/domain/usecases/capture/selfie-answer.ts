import { AntispoofRun } from '../../checks/check-results';

/** Why a retake is asked for: no face, or a face so close the antispoof crop has no room (move back). */
export type SelfieRetakeReason = 'FACE_NOT_DETECTED' | 'FACE_TOO_CLOSE';

export interface SelfieAnswer {
  face_found: boolean;
  retake: boolean;
  /** What the applicant can fix when retake is asked for; null otherwise. */
  reason: SelfieRetakeReason | null;
  attempts_left: number;
}

/**
 * What the applicant is told after the selfie upload: only whether a face was found and, while
 * attempts are left, whether to retake and why. A face that fills the frame is a framing problem
 * the applicant can fix (move back), never a spoof verdict; no verdict is revealed before the decision.
 */
export function selfieAnswerOf(
  antispoof: Pick<AntispoofRun, 'reason' | 'retake_reason'>,
  attemptsLeft: number,
): SelfieAnswer {
  const tooClose = antispoof.retake_reason === 'FACE_TOO_CLOSE';
  const faceFound = tooClose || antispoof.reason !== 'FACE_NOT_DETECTED';
  const reason: SelfieRetakeReason | null = tooClose ? 'FACE_TOO_CLOSE' : !faceFound ? 'FACE_NOT_DETECTED' : null;
  const retake = attemptsLeft > 0 && reason !== null;
  return { face_found: faceFound, retake, reason: retake ? reason : null, attempts_left: attemptsLeft };
}
