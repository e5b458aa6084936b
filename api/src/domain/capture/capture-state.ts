import type { CapturedIntegrity } from './capture-integrity';
import { PacedStepKind, PoseTarget } from './paced-challenge';

/** One stored capture: the encrypted image's blob id and what the upload-time check said. */
export interface CapturedSide {
  blob_id: string;
  /** Uploads of this side so far (each side allows 3). */
  uploads: number;
  readable: boolean;
  reason: string | null;
  /** The document read without its portrait (person included), sealed with the capture key: it is personal data. */
  read_sealed: string;
  /** The portrait the read cropped, as its own encrypted blob (it is a biometric image). */
  portrait_blob_id: string | null;
}

export interface CapturedLiveness {
  /**
   * The frames packed (see frame-pack.ts), read in this order (liveness-frames.ts): one blob for
   * the one-shot upload, one a step for the paced challenge (each written when its step closed).
   * The first id names the capture (the selfie's runs say which frames they scored by it).
   */
  blob_ids: string[];
  timestamps: number[];
  uploads: number;
  face_found_ratio: number;
  /**
   * Set when the frames come from a server-paced challenge: each step as drawn, with the range of
   * the packed frames it holds and their timestamps (ms since its reveal, bounded by arrival).
   */
  paced?: PacedStepSpec[] | null;
}

/** One paced step as the liveness check judges it (no personal data: targets and times). */
export interface PacedStepSpec {
  kind: PacedStepKind;
  target: PoseTarget;
  tolerance_deg: number;
  hold_ms: number;
  deadline_ms: number;
  /** Index of the step's first frame in the packed frames, and how many it has there. */
  first_frame: number;
  frame_count: number;
  /** Per packed frame of the step: ms since the reveal. */
  timestamps: number[];
}

/** A revealed paced step and what it has received (frames are sealed blobs, one per chunk). */
export interface PacedStepRecord {
  step_id: string;
  index: number;
  kind: PacedStepKind;
  target: PoseTarget;
  tolerance_deg: number;
  hold_ms: number;
  deadline_ms: number;
  revealed_at: Date;
  chunk_blob_ids: string[];
  /** Per frame received: the client's ms since the reveal. */
  timestamps: number[];
  completed_at: Date | null;
  /**
   * Per judged frame (the spread the decision keeps, see `kept_blob_id`): exactly one face found,
   * from the observation made when the step completed.
   */
  face_found: boolean[] | null;
  /**
   * Set when the step passed its gate: the frames the decision will judge, packed in one blob, so
   * the chunks are deleted then and the capture reads one blob a step. Absent on steps closed
   * before this field existed (their chunks are still held) and on steps that failed.
   */
  kept_blob_id?: string | null;
}

/** The paced challenge in progress (challenges_started counts the liveness attempts used). */
export interface PacedCapture {
  challenges_started: number;
  challenge_id: string;
  mouth_position: number;
  steps: PacedStepRecord[];
  /** open: steps still to come; captured: moved into `liveness`; restart: ended, a new one may start. */
  outcome: 'open' | 'captured' | 'restart';
}

export interface CapturedSelfie {
  blob_id: string;
  uploads: number;
  face_found: boolean;
  /** The antispoof run (scores only, no personal data), reused by the decision. */
  antispoof_json: string;
  /**
   * The liveness frames the antispoof run scored beside the selfie (null: the selfie alone), so
   * frames captured again afterwards are scored again at decision.
   */
  antispoof_frames_blob_id?: string | null;
  /**
   * The liveness run over the frames captured before this selfie, with the selfie (scores only),
   * made at upload so the decision does not wait for it; `liveness_blob_id` names the frames it
   * scored, so frames captured again afterwards are checked again at decision.
   */
  liveness_json?: string | null;
  liveness_blob_id?: string | null;
  /**
   * The face match of the document portrait captured before this selfie against it (scores only),
   * made at upload for the same reason; `face_match_portrait_blob_id` names the portrait it used,
   * so a document captured again afterwards is matched again at decision.
   */
  face_match_json?: string | null;
  face_match_portrait_blob_id?: string | null;
  /** The selfie's face descriptor from that match, sealed (biometric data; known_face search). */
  face_embedding_sealed?: string | null;
}

/**
 * The passport chip files as the device read them, kept as one encrypted blob (JSON of base64
 * members) until the decision verifies them; only their shape is recorded here.
 */
export interface CapturedChip {
  blob_id: string;
  uploads: number;
  data_groups: number[];
  active_authentication: boolean;
  /** Whether the active-authentication answer used the issued challenge, live and unspent (null: no answer or none issued). */
  challenge_fresh: boolean | null;
}

/** The active-authentication challenge issued to the device: its SHA-256 only, single use. */
export interface IssuedChipChallenge {
  sha256: string;
  expires_at: Date;
  /** An upload answered it: a second answer to the same challenge is a replay. */
  used: boolean;
}

/**
 * The capture of one attempt of one session (`_id` = `<session_id>:<attempt>`): the device's token
 * (hashed), the challenge drawn for it, and what has been captured. Images live in the encrypted
 * blob store; this record only points at them. A retry starts a new attempt, hence a fresh one.
 */
export interface CaptureState {
  _id: string;
  session_id: string;
  attempt: number;
  token_hash: string;
  challenge: string[];
  document_type: string | null;
  front: CapturedSide | null;
  back: CapturedSide | null;
  liveness: CapturedLiveness | null;
  selfie: CapturedSelfie | null;
  /** The server-paced challenge (production sessions), absent until its first reveal. */
  paced?: PacedCapture | null;
  /** Absent on captures from before the chip routes. */
  chip?: CapturedChip | null;
  chip_challenge?: IssuedChipChallenge | null;
  /** The client's capture-integrity signals (absent: none sent, or a capture from before them). */
  integrity?: CapturedIntegrity | null;
  last_write_at: Date;
  submitted_at: Date | null;
  /** Set once the blobs are deleted (decided, expired or cancelled), or due (retention). */
  purge_after: Date | null;
  purged_at: Date | null;
  created_at: Date;
}

export const captureStateId = (sessionId: string, attempt: number) => `${sessionId}:${attempt}`;

/** Every blob a capture state points at. */
export function blobIdsOf(
  state: Pick<CaptureState, 'front' | 'back' | 'liveness' | 'selfie'> & Pick<Partial<CaptureState>, 'paced' | 'chip'>,
): string[] {
  const sides = [state.front, state.back].flatMap((side) =>
    side ? [side.blob_id, side.portrait_blob_id].filter((id): id is string => Boolean(id)) : [],
  );
  const chunks =
    state.paced?.steps.flatMap((step) => [...step.chunk_blob_ids, ...(step.kept_blob_id ? [step.kept_blob_id] : [])]) ??
    [];
  return [
    ...sides,
    ...(state.liveness?.blob_ids ?? []),
    ...chunks,
    ...(state.selfie ? [state.selfie.blob_id] : []),
    ...(state.chip ? [state.chip.blob_id] : []),
  ];
}
