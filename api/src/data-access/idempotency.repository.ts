import { createHash } from 'node:crypto';
import { Connection, Model } from 'mongoose';
import { newSessionId } from '../shared/random-id';
import {
  IdempotencyRecordDocument, idempotencyRecordModel, IdempotentResponseDocument, idempotentResponseModel,
} from './idempotency-record.model';

const DUPLICATE_KEY = 11000;
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What a request carrying a key gets to do. */
export type IdempotencyClaim =
  | { kind: 'run'; recordId: string; reservedSessionId: string }
  | { kind: 'replay'; status: number; contentType: string | null; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in-flight' };

/**
 * Idempotency keys in MongoDB rather than Redis: the record must outlive a crash of the API
 * process and of Redis alike (a lost record would let a retry create a second session, and bill
 * it), and it sits beside the sessions it guards, in the store that is already durable.
 */
export class IdempotencyRepository {
  readonly model: Model<IdempotencyRecordDocument>;
  private readonly responses: Model<IdempotentResponseDocument>;

  constructor(connection: Connection, private readonly lockMs: number) {
    this.model = idempotencyRecordModel(connection);
    this.responses = idempotentResponseModel(connection);
  }

  async init(): Promise<void> {
    await Promise.all([this.model.init(), this.responses.init()]);
  }

  /** Scoped to the API key (by its id) and hashed, so the record holds neither. */
  static recordId(keyId: string, idempotencyKey: string): string {
    return sha256(`${keyId}\n${idempotencyKey}`);
  }

  static requestHash(method: string, path: string, rawBody: string): string {
    return sha256(`${method} ${path}\n${rawBody}`);
  }

  async claim(recordId: string, requestHash: string, now: Date): Promise<IdempotencyClaim> {
    for (let tries = 0; tries < 3; tries += 1) {
      const reservedSessionId = newSessionId();
      if (await this.insert(recordId, requestHash, reservedSessionId, now)) return { kind: 'run', recordId, reservedSessionId };
      const existing = await this.model.findById(recordId).lean<IdempotencyRecordDocument>().exec();
      if (!existing) continue;
      if (existing.expires_at <= now) {
        // Only the record that expired: a request racing this one may already have made a new one.
        await this.model.deleteOne({ _id: recordId, expires_at: existing.expires_at }).exec();
        await this.responses.deleteOne({ _id: recordId, expires_at: { $lte: now } }).exec();
        continue;
      }
      if (existing.request_hash !== requestHash) return { kind: 'mismatch' };
      const stored = await this.responses.findById(recordId).lean<IdempotentResponseDocument>().exec();
      if (stored) return { kind: 'replay', status: stored.status, contentType: stored.content_type, body: stored.body };
      if (existing.locked_until > now) return { kind: 'in-flight' };
      // The first runner died (or answered 5xx) without a stored response: run again under the same
      // reserved id. Two such takeovers racing are harmless, since the session insert is unique.
      await this.model.updateOne({ _id: recordId }, { $set: { locked_until: new Date(now.getTime() + this.lockMs) } }).exec();
      return { kind: 'run', recordId, reservedSessionId: existing.reserved_session_id };
    }
    return { kind: 'in-flight' };
  }

  /** The first stored response wins: two runners of one key (a takeover) answer for the same session anyway. */
  async complete(recordId: string, status: number, contentType: string | null, body: string, now: Date): Promise<void> {
    try {
      await this.responses.create({ _id: recordId, status, content_type: contentType, body, expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) });
    } catch (error) {
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
    }
  }

  /** A 5xx is not stored: the key is unlocked so the client's retry runs the request again (by _id alone, FerretDB's fast path). */
  async unlock(recordId: string): Promise<void> {
    await this.model.updateOne({ _id: recordId }, { $set: { locked_until: new Date(0) } }).exec();
  }

  /** Deletes records past their 24 hours (run by the expiry sweep); returns how many. */
  async purgeExpired(now: Date): Promise<number> {
    const [records, responses] = await Promise.all([
      this.model.deleteMany({ expires_at: { $lte: now } }).exec(),
      this.responses.deleteMany({ expires_at: { $lte: now } }).exec(),
    ]);
    return records.deletedCount + responses.deletedCount;
  }

  private async insert(recordId: string, requestHash: string, reservedSessionId: string, now: Date): Promise<boolean> {
    try {
      await this.model.create({
        _id: recordId,
        request_hash: requestHash,
        locked_until: new Date(now.getTime() + this.lockMs),
        reserved_session_id: reservedSessionId,
        created_at: now,
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }
}
