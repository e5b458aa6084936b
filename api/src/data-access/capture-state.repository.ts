import { Connection, Model } from 'mongoose';
import {
  CapturedLiveness,
  CapturedSelfie,
  CapturedSide,
  CaptureStateDocument,
  captureStateModel,
} from './capture-state.model';
import {
  blobIdsOf,
  CapturedChip,
  captureStateId,
  IssuedChipChallenge,
  PacedCapture,
} from '../domain/capture/capture-state';
import { CaptureStateStore } from '../domain/ports/capture-stores';
import type { CapturedIntegrity } from '../domain/capture/capture-integrity';

const DUPLICATE_KEY = 11000;

export { blobIdsOf, captureStateId };

/**
 * The capture states, read and written by `_id` (FerretDB answers those from its primary key).
 * Uploads of one attempt come from one device holding its token, so a plain $set per capture is
 * enough; the one race that matters, two devices starting at once, is settled by a unique insert.
 */
/** Every capture a session holds, emptied: one list, so a takeover and a purge forget the same ones. */
const NO_CAPTURES = {
  front: null,
  back: null,
  liveness: null,
  selfie: null,
  paced: null,
  chip: null,
  integrity: null,
} as const;

export class CaptureStateRepository implements CaptureStateStore {
  private readonly model: Model<CaptureStateDocument>;

  constructor(connection: Connection) {
    this.model = captureStateModel(connection);
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  find(sessionId: string, attempt: number): Promise<CaptureStateDocument | null> {
    return this.model.findById(captureStateId(sessionId, attempt)).lean<CaptureStateDocument>().exec();
  }

  /** False when another device created it first. */
  async create(doc: CaptureStateDocument): Promise<boolean> {
    try {
      await this.model.create(doc);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  /** A new device takes over: new token and challenge, every capture so far discarded. */
  async takeOver(id: string, tokenHash: string, challenge: string[], now: Date): Promise<void> {
    await this.model
      .updateOne(
        { _id: id },
        {
          $set: {
            token_hash: tokenHash,
            challenge,
            document_type: null,
            ...NO_CAPTURES,
            chip_challenge: null,
            last_write_at: now,
          },
        },
      )
      .exec();
  }

  async touch(id: string, now: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { last_write_at: now } }).exec();
  }

  async setSide(
    id: string,
    side: 'front' | 'back',
    value: CapturedSide,
    documentType: string,
    now: Date,
  ): Promise<void> {
    await this.model
      .updateOne({ _id: id }, { $set: { [side]: value, document_type: documentType, last_write_at: now } })
      .exec();
  }

  async setLiveness(id: string, value: CapturedLiveness, now: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { liveness: value, last_write_at: now } }).exec();
  }

  async setSelfie(id: string, value: CapturedSelfie, now: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { selfie: value, last_write_at: now } }).exec();
  }

  async setPaced(id: string, value: PacedCapture, now: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { paced: value, last_write_at: now } }).exec();
  }

  async setChip(id: string, value: CapturedChip, now: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { chip: value, last_write_at: now } }).exec();
  }

  async setChipChallenge(id: string, value: IssuedChipChallenge, now: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { chip_challenge: value, last_write_at: now } }).exec();
  }

  async setIntegrity(id: string, value: CapturedIntegrity, now: Date): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: { integrity: value, last_write_at: now } }).exec();
  }

  async markSubmitted(id: string, now: Date): Promise<void> {
    await this.model
      .updateOne({ _id: id, submitted_at: null }, { $set: { submitted_at: now, last_write_at: now } })
      .exec();
  }

  async schedulePurge(id: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: id, purge_after: null }, { $set: { purge_after: at } }).exec();
  }

  async markPurged(id: string, now: Date): Promise<void> {
    await this.model
      .updateOne(
        { _id: id },
        {
          $set: {
            purged_at: now,
            ...NO_CAPTURES,
          },
        },
      )
      .exec();
  }

  /** Captures whose retention has run out and that still hold blobs, a bounded page. */
  due(now: Date, limit = 200): Promise<CaptureStateDocument[]> {
    return this.model
      .find({ purge_after: { $lte: now }, purged_at: null })
      .limit(limit)
      .lean<CaptureStateDocument[]>()
      .exec();
  }
}
