import { Model } from 'mongoose';
import { OPEN_STATUSES } from '../domain/session-status';
import { SessionDocument } from './session.model';

/**
 * Expiry writes on the session collection. Each is conditional on the status being open and the
 * deadline having passed, so expiry never overrides a decision, and running twice (a delayed job
 * and a sweep, or two workers) changes nothing the second time.
 */
export class SessionExpiryRepository {
  constructor(private readonly sessions: Model<SessionDocument>) {}

  /** Expires one session if it is open and due; null when it was not (decided, gone, or not yet due). */
  expireIfDue(id: string, now: Date): Promise<SessionDocument | null> {
    return this.sessions
      .findOneAndUpdate({ _id: id, status: { $in: OPEN_STATUSES }, expires_at: { $lte: now } }, { $set: { status: 'EXPIRED', updated_at: now } }, { new: true })
      .lean<SessionDocument>()
      .exec();
  }

  /** When an open session is due, or null when it is not open (any more). */
  openDeadline(id: string): Promise<Date | null> {
    return this.sessions
      .findOne({ _id: id, status: { $in: OPEN_STATUSES } }, { expires_at: 1 })
      .lean<Pick<SessionDocument, 'expires_at'>>()
      .exec()
      .then((doc) => doc?.expires_at ?? null);
  }

  async expireAllDue(now: Date): Promise<number> {
    const result = await this.sessions
      .updateMany({ status: { $in: OPEN_STATUSES }, expires_at: { $lte: now } }, { $set: { status: 'EXPIRED', updated_at: now } })
      .exec();
    return result.modifiedCount;
  }
}
