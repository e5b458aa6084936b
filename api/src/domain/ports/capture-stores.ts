import {
  CapturedChip,
  CapturedLiveness,
  CapturedSelfie,
  CapturedSide,
  CaptureState,
  IssuedChipChallenge,
  PacedCapture,
} from '../capture/capture-state';
import type { CapturedIntegrity } from '../capture/capture-integrity';

/**
 * The capture state of each session attempt, addressed by `captureStateId`. Uploads of one
 * attempt come from the one device holding its token; two devices starting at once are settled by
 * `create`, of which one wins.
 */
export interface CaptureStateStore {
  find(sessionId: string, attempt: number): Promise<CaptureState | null>;
  /** False when another device created it first. */
  create(state: CaptureState): Promise<boolean>;
  /** A new device takes over: new token and challenge, every capture so far discarded. */
  takeOver(id: string, tokenHash: string, challenge: string[], now: Date): Promise<void>;
  setSide(id: string, side: 'front' | 'back', value: CapturedSide, documentType: string, now: Date): Promise<void>;
  setLiveness(id: string, value: CapturedLiveness, now: Date): Promise<void>;
  setSelfie(id: string, value: CapturedSelfie, now: Date): Promise<void>;
  /** The paced challenge as it now stands (one device writes it, in order, so a plain $set). */
  setPaced(id: string, value: PacedCapture, now: Date): Promise<void>;
  setChip(id: string, value: CapturedChip, now: Date): Promise<void>;
  setChipChallenge(id: string, value: IssuedChipChallenge, now: Date): Promise<void>;
  setIntegrity(id: string, value: CapturedIntegrity, now: Date): Promise<void>;
  markSubmitted(id: string, now: Date): Promise<void>;
  schedulePurge(id: string, at: Date): Promise<void>;
  markPurged(id: string, now: Date): Promise<void>;
  /** Captures whose retention has run out and that still hold blobs, a bounded page. */
  due(now: Date, limit?: number): Promise<CaptureState[]>;
}

/** Captured images, sealed at rest and bound to their session. */
export interface CaptureBlobStore {
  /** The new blob's id. */
  put(sessionId: string, image: Buffer): Promise<string>;
  get(sessionId: string, blobId: string): Promise<Buffer>;
  /** Deleting a blob that is already gone is not an error: purges are retried after crashes. */
  delete(blobIds: string[]): Promise<void>;
}

/** Capture writes counted per session attempt, across every API process. */
export interface CaptureWriteLimit {
  readonly limit: number;
  /** Counts this write; true while the attempt is within its limit. */
  allow(sessionId: string, attempt: number): Promise<boolean>;
}
