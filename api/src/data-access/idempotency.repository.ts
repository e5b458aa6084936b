import { createHash, randomUUID } from 'node:crypto';
import { Connection, Model } from 'mongoose';
import { IdempotencyKeys } from '../domain/ports/idempotency-keys';
import { newSessionId } from '../shared/random-id';
import {
  IdempotencyRecordDocument,
  idempotencyRecordModel,
  IdempotencyTakeoverDocument,
  idempotencyTakeoverModel,
  IdempotentResponseDocument,
  idempotentResponseModel,
} from './idempotency-record.model';

const DUPLICATE_KEY = 11000;
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What a request carrying a key gets to do. */
export type IdempotencyClaim =
  | { kind: 'run'; recordId: string; reservedSessionId: string; holder: string }
  | { kind: 'replay'; status: number; contentType: string | null; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in-flight' };

/**
 * Idempotency keys in MongoDB rather than Redis: the record must outlive a crash of the API
 * process and of Redis alike (a lost record would let a retry create a second session, and bill
 * it), and it sits beside the sessions it guards, in the store that is already durable.
 */
export class IdempotencyRepository implements IdempotencyKeys {
  readonly model: Model<IdempotencyRecordDocument>;
  private readonly responses: Model<IdempotentResponseDocument>;
  private readonly takeovers: Model<IdempotencyTakeoverDocument>;

  /** @param leaseMs how long a claim holds its key without a renewal: the bound on how long a dead holder blocks it. */
  constructor(
    connection: Connection,
    readonly leaseMs: number,
  ) {
    this.model = idempotencyRecordModel(connection);
    this.responses = idempotentResponseModel(connection);
    this.takeovers = idempotencyTakeoverModel(connection);
  }

  async init(): Promise<void> {
    await Promise.all([this.model.init(), this.responses.init(), this.takeovers.init()]);
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
      const holder = randomUUID();
      if (await this.insert(recordId, requestHash, reservedSessionId, holder, now))
        return { kind: 'run', recordId, reservedSessionId, holder };
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
      // The holder died (or answered 5xx) without a stored response: take the lapsed lease over and
      // re-run under the same reserved id. Of requests taking over the same lapsed lease at once,
      // the one whose takeover insert lands runs; the others answer as for a live lease.
      if (!(await this.insertTakeover(recordId, existing, existing.expires_at))) return { kind: 'in-flight' };
      await this.model.updateOne({ _id: recordId }, { $set: { locked_until: this.leaseEnd(now), holder } }).exec();
      return { kind: 'run', recordId, reservedSessionId: existing.reserved_session_id, holder };
    }
    return { kind: 'in-flight' };
  }

  /** Extends a running claim's lease; false when it is no longer this holder's (it lapsed and was taken over). */
  async renew(recordId: string, holder: string, now: Date): Promise<boolean> {
    const renewed = await this.model
      .updateOne({ _id: recordId, holder }, { $set: { locked_until: this.leaseEnd(now) } })
      .exec();
    return renewed.matchedCount === 1;
  }

  /** The first stored response wins: two runners of one key (a takeover) answer for the same session anyway. */
  async complete(recordId: string, status: number, contentType: string | null, body: string, now: Date): Promise<void> {
    try {
      await this.responses.create({
        _id: recordId,
        status,
        content_type: contentType,
        body,
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
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
    const [records, responses, takeovers] = await Promise.all([
      this.model.deleteMany({ expires_at: { $lte: now } }).exec(),
      this.responses.deleteMany({ expires_at: { $lte: now } }).exec(),
      this.takeovers.deleteMany({ expires_at: { $lte: now } }).exec(),
    ]);
    return records.deletedCount + responses.deletedCount + takeovers.deletedCount;
  }

  /** The lapsed lease is named by its holder (one per run) and its end, so each lapse is taken over once. */
  private async insertTakeover(
    recordId: string,
    lapsed: Pick<IdempotencyRecordDocument, 'holder' | 'locked_until'>,
    expiresAt: Date,
  ): Promise<boolean> {
    try {
      await this.takeovers.create({
        _id: `${recordId}@${lapsed.holder ?? 'none'}@${lapsed.locked_until.getTime()}`,
        expires_at: expiresAt,
      });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  private leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.leaseMs);
  }

  private async insert(
    recordId: string,
    requestHash: string,
    reservedSessionId: string,
    holder: string,
    now: Date,
  ): Promise<boolean> {
    try {
      await this.model.create({
        _id: recordId,
        request_hash: requestHash,
        locked_until: this.leaseEnd(now),
        holder,
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
