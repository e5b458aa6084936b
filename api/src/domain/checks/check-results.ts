import { Address, DocumentType } from '../session-status';

/**
 * What the inference service's checks answer, in the API's own terms. The inference repository
 * maps the generated gRPC types to these; nothing else in the API sees the wire types.
 */
export interface ScoreEvidence {
  name: string;
  value: number;
  threshold: number;
  comparison: 'gte' | 'lte';
}

export interface ModelRef {
  name: string;
  version: string;
  sha256: string;
}

export interface CheckRun {
  verdict: 'PASS' | 'FAIL';
  /** A contract failure_reason when FAIL. */
  reason: string | null;
  scores: ScoreEvidence[];
  models: ModelRef[];
  duration_ms: number;
}

/**
 * The antispoof run. `retake_reason` is set when the selfie cannot be judged as captured and the
 * applicant can fix it (FACE_TOO_CLOSE: move back); it is never a spoof verdict.
 */
export interface AntispoofRun extends CheckRun {
  retake_reason?: 'FACE_TOO_CLOSE' | null;
}

export interface DocumentPerson {
  name: string;
  dob: string;
  document_type: DocumentType;
  document_country: string;
  document_number: string;
  expiry_date: string;
  /** ISO 3166-1 alpha-3 nationality from the MRZ ('' when unread). */
  nationality: string;
  address: Address | null;
}

export interface MrzCorrection {
  line: number;
  index: number;
  from: string;
  to: string;
}

export interface DocumentRead extends CheckRun {
  /** TD1, TD2, TD3, or null when no machine-readable zone was read. */
  format: string | null;
  person: DocumentPerson | null;
  corrections: MrzCorrection[];
  /** JPEG of the document portrait, or null when none was found. */
  portrait: Buffer | null;
}

export interface LivenessRun extends CheckRun {
  failed_step: string | null;
  /** Per frame: was exactly one face seen. */
  face_found: boolean[];
}

/** One frame as the paced challenge's upload gate sees it (no verdict). */
export interface FrameObservation {
  face_found: boolean;
  yaw: number;
  pitch: number;
  mouth_openness: number;
}

export interface FaceMatchRun extends CheckRun {
  similarity: number | null;
  /**
   * The selfie's face descriptor in the face-match model's space (base64 of float32), for the
   * search of the account's verified faces (known_face); null without a face. Biometric data: kept
   * only sealed, never in a report, a log or a queue payload.
   */
  selfie_embedding?: string | null;
  /** The model that described the selfie ("name@version:sha256"): descriptors of different models are never compared. */
  embedding_model?: string | null;
}

/** The service could not answer now (down, overloaded, deadline): the caller retries later. */
export class InferenceUnavailableError extends Error {}

/** The service refused the input itself (not an image, a pixel bomb, too many frames). */
export class InferenceInputRejectedError extends Error {}
