import { OPEN_STATUSES } from '../domain/session-status';
import { SessionDocument } from './session.model';
import { SessionRepository } from './session.repository';

const SWEEP_PAGE = 1_000;

/**
 * Expiry writes. Each goes through the store's claimed transition (a filtered update alone is not
 * atomic on FerretDB), from PENDING or IN_PROGRESS only, so expiry never overrides a decision and
 * a delayed job racing a sweep, or two workers, expire a session once.
 */
export class SessionExpiryRepository {
  constructor(private readonly sessions: SessionRepository) {}

  /**
   * When an open session is due, or null when it is not open (decided, expired, or gone) or its
   * decision is pending: a submitted session waits for its decision however long the service takes.
   */
  async openDeadline(id: string): Promise<Date | null> {
    const doc = await this.sessions.model
      .findOne({ _id: id, status: { $in: OPEN_STATUSES } }, { expires_at: 1, decision_requested_at: 1 })
      .lean<Pick<SessionDocument, 'expires_at' | 'decision_requested_at'>>()
      .exec();
    if (!doc || doc.decision_requested_at) return null;
    return doc.expires_at;
  }

  /** True when this call moved the session to EXPIRED. */
  async expire(id: string, now: Date): Promise<boolean> {
    return (await this.sessions.transitionBySystem(id, OPEN_STATUSES, { status: 'EXPIRED', updated_at: now })) !== null;
  }

  /** Expires every open, unsubmitted session whose deadline has passed, a bounded page per call; returns their ids. */
  async expireAllDue(now: Date): Promise<string[]> {
    const due = await this.sessions.model
      .find({ status: { $in: OPEN_STATUSES }, expires_at: { $lte: now }, decision_requested_at: null }, { _id: 1 })
      .limit(SWEEP_PAGE)
      .lean<Array<Pick<SessionDocument, '_id'>>>()
      .exec();
    const expired: string[] = [];
    for (const { _id } of due) if (await this.expire(_id, now)) expired.push(_id);
    return expired;
  }
}
