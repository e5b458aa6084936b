import { CaptureState } from '../../capture/capture-state';
import { TextSealer } from '../../../shared/sealer';

/** Sealing is the vault's concern (tested with it): in these unit tests what is stored is the plaintext. */
export const plainSealer: TextSealer = {
  seal: (_where, plaintext) => Promise.resolve(plaintext),
  open: (_where, stored) => Promise.resolve(stored),
};

/**
 * A submitted capture of session ses_1, attempt 1, as the upload flow stores it: a passport front
 * whose read is `read`, the liveness frames in `framesBlob`, and the selfie with the runs made at
 * its upload (antispoof and liveness over 'frames-1', face match against 'portrait-1').
 */
export function submittedCapture(options: {
  read: unknown;
  livenessRun: unknown;
  faceMatchRun: unknown;
  framesBlob?: string;
  portraitBlob?: string;
  faceEmbeddingSealed?: string;
  purged?: boolean;
}): CaptureState {
  const now = new Date();
  return {
    _id: 'ses_1:1',
    session_id: 'ses_1',
    attempt: 1,
    token_hash: 'h',
    challenge: ['TURN_LEFT'],
    document_type: 'passport',
    front: {
      blob_id: 'doc',
      uploads: 1,
      readable: true,
      reason: null,
      read_sealed: JSON.stringify(options.read),
      portrait_blob_id: options.portraitBlob ?? 'portrait-1',
    },
    back: null,
    liveness: {
      blob_ids: [options.framesBlob ?? 'frames-1'],
      timestamps: [0],
      uploads: 1,
      face_found_ratio: 1,
    },
    selfie: {
      blob_id: 'selfie',
      uploads: 1,
      face_found: true,
      antispoof_json: JSON.stringify({ ...(options.livenessRun as object), duration_ms: 300 }),
      antispoof_frames_blob_id: 'frames-1',
      liveness_json: JSON.stringify(options.livenessRun),
      liveness_blob_id: 'frames-1',
      face_match_json: JSON.stringify(options.faceMatchRun),
      face_match_portrait_blob_id: 'portrait-1',
      ...(options.faceEmbeddingSealed ? { face_embedding_sealed: options.faceEmbeddingSealed } : {}),
    },
    last_write_at: now,
    submitted_at: now,
    purge_after: null,
    purged_at: options.purged ? now : null,
    created_at: now,
  };
}
