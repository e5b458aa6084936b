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

  /** When an open session is due, or null when it is not open (decided, expired, or gone). */
  async openDeadline(id: string): Promise<Date | null> {
    const doc = await this.sessions.model
      .findOne({ _id: id, status: { $in: OPEN_STATUSES } }, { expires_at: 1 })
      .lean<Pick<SessionDocument, 'expires_at'>>()
      .exec();
    return doc?.expires_at ?? null;
  }

  /** True when this call moved the session to EXPIRED. */
  async expire(id: string, now: Date): Promise<boolean> {
    return (await this.sessions.transitionBySystem(id, OPEN_STATUSES, { status: 'EXPIRED', updated_at: now })) !== null;
  }

  /** Expires every open session whose deadline has passed, a bounded page per call. */
  async expireAllDue(now: Date): Promise<number> {
    const due = await this.sessions.model
      .find({ status: { $in: OPEN_STATUSES }, expires_at: { $lte: now } }, { _id: 1 })
      .limit(SWEEP_PAGE)
      .lean<Array<Pick<SessionDocument, '_id'>>>()
      .exec();
    let expired = 0;
    for (const { _id } of due) if (await this.expire(_id, now)) expired += 1;
    return expired;
  }
}
