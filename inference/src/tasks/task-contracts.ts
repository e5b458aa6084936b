/**
 * What each check takes and answers, independent of transport. Task modules implement these
 * functions against a ModelRunner; the gRPC verification service maps them to generated proto
 * types. Every answer carries its verdict, the scores behind it, the threshold each score was held
 * to and a machine-readable reason, so a FAILED can be explained and a threshold audited.
 */
import type { ModelRunner } from '../runtime/model-runner';

export type Verdict = 'PASS' | 'FAIL';

export interface ScoreEvidence {
  name: string;
  value: number;
  /** The configured decision line this score was compared with. */
  threshold: number;
  /** 'gte' when value must be >= threshold to pass, 'lte' when it must be <= threshold. */
  comparison: 'gte' | 'lte';
}

export interface CheckOutcome {
  verdict: Verdict;
  /** One of contract.md's failure_reason values when verdict is FAIL, else null. */
  reason: string | null;
  /** Human-readable detail for logs and the integrator (never personal data). */
  detail: string;
  scores: ScoreEvidence[];
}

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

// The API's domain owns its own list (api/src/domain/session-status.ts): the services deploy apart.
// inference/test/verification-service.test.ts fails if this service refuses a type the API offers.
export const DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence', 'residence_permit'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface DocumentCheckInput {
  image: Uint8Array;
  now?: Date;
  /**
   * The type the applicant said the document is. It steers only where the read looks first (a
   * declared passport's machine zone on a reduced page); the answer comes from the page.
   */
  declaredType?: DocumentType;
}
export interface MrzFields {
  format: 'TD1' | 'TD2' | 'TD3';
  document_code: string;
  issuing_state: string;
  document_number: string;
  surname: string;
  given_names: string;
  nationality: string;
  birth_date: string; // YYYY-MM-DD
  sex: 'M' | 'F' | 'X';
  expiry_date: string; // YYYY-MM-DD
  check_digits_valid: boolean;
  /** Which characters were changed by field-aware correction, for audit. */
  corrections: Array<{ line: number; index: number; from: string; to: string }>;
}
export interface DocumentCheckOutput extends CheckOutcome {
  mrz: MrzFields | null;
  raw_mrz_lines: string[];
  person: {
    name: string;
    dob: string;
    document_type: DocumentType;
    document_country: string; // ISO 3166-1 alpha-2
    document_number: string;
    expiry_date: string;
    sex: string;
    address: {
      line1: string | null;
      line2: string | null;
      city: string | null;
      region: string | null;
      postal_code: string | null;
      country: string | null;
    } | null;
    address_is_best_effort: boolean;
  } | null;
  portrait_box: FaceBox | null;
  /** JPEG of the portrait crop, ready for face match. */
  portrait_jpeg: Uint8Array | null;
}

export type ChallengeStep = 'TURN_LEFT' | 'TURN_RIGHT' | 'BLINK' | 'LOOK_UP' | 'LOOK_DOWN';
/** One step of the server-paced challenge, as drawn, with the frames it holds. */
export interface PacedStepInput {
  kind: 'HOLD_POSE' | 'OPEN_MOUTH';
  target: { yaw: number; pitch: number };
  tolerance_deg: number;
  hold_ms: number;
  deadline_ms: number;
  first_frame: number;
  frame_count: number;
  /** Per frame of the step: ms since its reveal. */
  timestamps_ms: number[];
}
export interface LivenessCheckInput {
  frames: Uint8Array[];
  /** The one-shot challenge; empty when `paced` is given. */
  challenge: ChallengeStep[];
  /** The server-paced challenge: the frames must follow these steps instead. */
  paced?: PacedStepInput[];
  /** When given, must show the same person as the frames (the check compares them). */
  selfie?: Uint8Array;
}
export interface FrameObservationOutput {
  yaw: number;
  pitch: number;
  eye_openness: number;
  face_found: boolean;
  mouth_openness: number;
}
export interface LivenessCheckOutput extends CheckOutcome {
  failed_step: ChallengeStep | null;
  per_frame: FrameObservationOutput[];
}
/** Each frame's face, pose and mouth opening only: no verdict (the paced challenge's upload gate). */
export type FrameObserver = (runner: ModelRunner, frames: Uint8Array[]) => Promise<FrameObservationOutput[]>;

export interface AntispoofCheckInput {
  selfie: Uint8Array;
  /** The liveness frames in capture order; several spread across the challenge are scored too. */
  frames?: Uint8Array[];
}
export interface AntispoofCheckOutput extends CheckOutcome {
  /**
   * Set when the selfie cannot be judged as captured and the applicant can fix it: FACE_TOO_CLOSE
   * (the face fills the frame, leaving no room for the crop the model was trained on: move back).
   * Never a spoof verdict; the capture API answers it as a retake.
   */
  retake_reason: 'FACE_TOO_CLOSE' | null;
}

export interface FaceMatchCheckInput {
  document_portrait: Uint8Array;
  selfie: Uint8Array;
}
export interface FaceMatchCheckOutput extends CheckOutcome {
  similarity: number | null;
  /** The selfie's descriptor, for the API's search of an account's verified faces; null without a face. */
  selfie_embedding: Float32Array | null;
  /** The model that described it (name, version, sha256), named even when the description came from memory. */
  embedding_model: { name: string; version: number; sha256: string } | null;
}

export type DocumentCheck = (runner: ModelRunner, input: DocumentCheckInput) => Promise<DocumentCheckOutput>;
export type LivenessCheck = (runner: ModelRunner, input: LivenessCheckInput) => Promise<LivenessCheckOutput>;
export type AntispoofCheck = (runner: ModelRunner, input: AntispoofCheckInput) => Promise<AntispoofCheckOutput>;
export type FaceMatchCheck = (runner: ModelRunner, input: FaceMatchCheckInput) => Promise<FaceMatchCheckOutput>;
