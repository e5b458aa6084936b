import { CheckRun, DocumentRead, FaceMatchRun, LivenessRun, ModelRef, ScoreEvidence } from '../checks/check-results';
import { ScreeningOutcome } from '../ports/sanctions-screening';
import { DocumentType } from '../session-status';
import type { ReusedCapture } from '../ports/capture-fingerprints';
import type { KnownFaceOutcome } from '../known-face/known-face-search';
import type { ChipEvidence, ChipVerification, DocumentChipMode } from '../chip/chip-verification';
import type {
  CaptureIntegrityPolicy,
  ConstraintProbe,
  FrameTiming,
  IntegrityClient,
  IntegritySignals,
  NativeSignals,
} from '../capture/capture-integrity';
import type { CameraClass, IntegrityFlag, RendererClass, TimingNote } from '../capture/integrity-classification';

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
  /** Captures another session of the account submitted first (production sessions only). */
  reused: ReusedCapture[];
  /** The search of the account's verified faces; null when it could not run (no face, no identity read). */
  knownFace?: KnownFaceOutcome | null;
  /** The passport chip; null for captures from before the chip routes (NOT_PERFORMED). */
  documentChip: ChipInput | null;
  /** The page's capture-integrity signals with the account's policy; null is the same as none sent. */
  integrity: IntegrityInput | null;
  /** Null when the account has no watchlist add-on. */
  sanctions: ((ScreeningOutcome | { verdict: 'SKIPPED'; reason: 'NO_NAME_READ' }) & { duration_ms: number }) | null;
  now: Date;
}

export interface ReportCheck {
  verdict: 'PASS' | 'FAIL' | 'SKIPPED' | 'CLEAR' | 'MATCH' | 'NOT_PERFORMED';
  reason: string | null;
  scores: ScoreEvidence[];
  model: ModelRef | null;
  /** Every model behind the check (the report's `model` is the one that scored it). */
  models: ModelRef[];
  duration_ms: number;
  /** Sanctions only: the closest list entry (list, entry id, matched name, score), never the whole entry. */
  match?: { list: string; entry_id: string; matched_name: string; score: number } | null;
  /** Sanctions only: the list versions screened against, so a decision traces to what was loaded. */
  lists?: Array<{ name: string; version: string }>;
  /** known_face only: the account's sessions whose verified face matched under another identity (ids only). */
  matched_sessions?: string[];
  /** document_chip only: what the chip proved, and how (no personal data). */
  evidence?: ChipReportEvidence;
  /** capture_integrity only: the policy, the flags and the signals (no raw label or renderer string). */
  integrity?: IntegrityReportEvidence;
}

/** The chip as the decision weighs it. */
export interface ChipInput {
  mode: DocumentChipMode;
  /** The verifier's outcome (no portrait, no MRZ: those stayed in the use case); null when no chip was sent. */
  verification: Pick<ChipVerification, 'verdict' | 'reason' | 'detail' | 'evidence'> | null;
  /** DG1's fields that differ from the page's MRZ (names only). */
  mrzMismatches: string[];
  /** The chip portrait against the selfie, made when the chip verified and the selfie shows a face. */
  portraitMatch: FaceMatchRun | null;
  duration_ms: number;
}

/** What the report shows of a chip: the verifier's evidence and, on a mismatch, which MRZ fields differed. */
export interface ChipReportEvidence extends ChipEvidence {
  mrz_fields_mismatched: string[];
}

/** What the report shows of the capture-integrity signals. */
export interface IntegrityReportEvidence {
  policy: CaptureIntegrityPolicy;
  /** Whether a flag fails the session: policy `fail` on a production session. */
  enforced: boolean;
  flags: IntegrityFlag[];
  /** Frame-timing observations, reported only. */
  notes: TimingNote[];
  signals: {
    client: IntegrityClient;
    camera: { class: CameraClass; product: string | null };
    webdriver: boolean | null;
    renderer: { class: RendererClass; product: string | null };
    constraint_probe: ConstraintProbe | null;
    frame_timing: FrameTiming | null;
    /** A native SDK's device and camera facts as sent (no personal data in them); null from the web page. */
    native: NativeSignals | null;
  } | null;
}

/** The integrity signals as the decision weighs them. */
export interface IntegrityInput {
  /** Null when the client sent none (a page without a camera, an app that passes no signals, an older capture). */
  signals: IntegritySignals | null;
  policy: CaptureIntegrityPolicy;
  /** Production sessions only: sandbox captures come from test browsers and fake cameras by design. */
  enforceable: boolean;
}
