import { CheckRun, DocumentRead, FaceMatchRun, LivenessRun, ModelRef, ScoreEvidence } from '../checks/check-results';
import { ScreeningOutcome } from '../ports/sanctions-screening';
import { DocumentType } from '../session-status';

/** Everything the decision weighs for one applicant; null where a check could not run. */
export interface DecisionInputs {
  /** The document read that carries the machine-readable zone (the back of an ID card). */
  document: DocumentRead;
  /** The type the applicant chose, used when the MRZ does not say. */
  declaredType: DocumentType;
  /** A document portrait, from whichever side showed one. */
  hasPortrait: boolean;
  expected: { name: string; dob: string | null; address: string | null };
  liveness: LivenessRun;
  /** The selfie's antispoof run; its FACE_NOT_DETECTED means the selfie shows no face. */
  antispoof: CheckRun;
  /** Null when it could not run (no portrait, no face in the selfie). */
  faceMatch: FaceMatchRun | null;
  /** Null when the account has no watchlist add-on. */
  sanctions: ((ScreeningOutcome | { verdict: 'SKIPPED'; reason: 'NO_NAME_READ' }) & { duration_ms: number }) | null;
  now: Date;
}

export interface ReportCheck {
  verdict: 'PASS' | 'FAIL' | 'SKIPPED' | 'CLEAR' | 'MATCH';
  reason: string | null;
  scores: ScoreEvidence[];
  model: ModelRef | null;
  /** Every model behind the check (the report's `model` is the one that scored it). */
  models: ModelRef[];
  duration_ms: number;
  /** Sanctions only: the closest list entry (list, entry id, matched name, score), never the whole entry. */
  match?: { list: string; entry_id: string; matched_name: string; score: number } | null;
}
