/** Which capture a fingerprint came from; each is judged by its own check. */
export type CaptureKind = 'document' | 'liveness' | 'selfie';

/**
 * A capture's fingerprints: `exact`, a keyed digest of its bytes; `perceptual`, a 64-bit
 * perceptual hash (16 hex digits) that a re-encoded, resized, slightly cropped or re-lit copy keeps
 * within a few bits, or null where the capture is matched byte for byte only (documents: every
 * document of a template hashes alike) or its pixels could not be read.
 */
export interface CaptureFingerprint {
  kind: CaptureKind;
  exact: string;
  perceptual: string | null;
}

/** One of this session's fingerprints that another session of the account recorded first. */
export interface CaptureSighting {
  kind: CaptureKind;
  /** Its place in the list given to `claim`. */
  index: number;
  session_id: string;
  /** True for the same bytes; false for a perceptual copy (Hamming distance within the line). */
  exact: boolean;
}

/** A capture this session presented that another session of the account had already submitted. */
export interface ReusedCapture {
  kind: CaptureKind;
  session_id: string;
}

/**
 * Fingerprints of the captures submitted in an account, so one lifted from a session and posted
 * into another is recognised (CAPTURE_REUSED), byte for byte or as a perceptual copy. Without the
 * deployment's key the stored fingerprints neither reveal nor confirm anything about an image.
 */
export interface CaptureFingerprints {
  /** `perceptual: false`: the byte-for-byte digest only (no perceptual hash is made or stored). */
  of(kind: CaptureKind, bytes: Buffer, options?: { perceptual?: boolean }): Promise<CaptureFingerprint>;
  /** Records the session's fingerprints; answers those another session of the account recorded first. */
  claim(accountId: string, sessionId: string, prints: CaptureFingerprint[]): Promise<CaptureSighting[]>;
  /** Deletes the fingerprints the session recorded (its redaction: they go with its captures' retention). */
  forget(accountId: string, sessionId: string): Promise<void>;
}
