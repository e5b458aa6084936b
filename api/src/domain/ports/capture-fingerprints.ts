/** Which capture a fingerprint came from; each is judged by its own check. */
export type CaptureKind = 'document' | 'liveness' | 'selfie';

export interface CaptureFingerprint {
  kind: CaptureKind;
  value: string;
}

/** A capture this session presented that another session of the account had already submitted. */
export interface ReusedCapture {
  kind: CaptureKind;
  session_id: string;
}

/**
 * Fingerprints of the captures submitted in an account, so one lifted from a session and posted
 * into another is recognised (CAPTURE_REUSED). A fingerprint is a keyed digest of the capture's
 * bytes: equal bytes give equal values, and without the deployment's key it neither reveals nor
 * confirms anything about the image.
 */
export interface CaptureFingerprints {
  of(bytes: Buffer): string;
  /** Records the session's fingerprints; answers those another session of the account recorded first. */
  claim(accountId: string, sessionId: string, prints: CaptureFingerprint[]): Promise<ReusedCapture[]>;
  /** Deletes the fingerprints the session recorded (its redaction: they go with its captures' retention). */
  forget(accountId: string, sessionId: string): Promise<void>;
}
