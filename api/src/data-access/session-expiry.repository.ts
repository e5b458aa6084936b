import { SessionExpiry } from '../domain/ports/session-expiry';
import { OPEN_STATUSES } from '../domain/session-status';
import { SessionRepository } from './session.repository';

const SWEEP_PAGE = 1_000;

/**
 * Expiry writes. Each goes through the store's claimed transition (a filtered update alone is not
 * atomic on FerretDB), from PENDING or IN_PROGRESS only, so expiry never overrides a decision and
 * a delayed job racing a sweep, or two workers, expire a session once.
 */
export class SessionExpiryRepository implements SessionExpiry {
  constructor(private readonly sessions: SessionRepository) {}

  openDeadline(id: string): Promise<Date | null> {
    return this.sessions.expiryDeadline(id);
  }

  /** True when this call moved the session to EXPIRED. */
  async expire(id: string, now: Date): Promise<boolean> {
    const expired = await this.sessions.transitionBySystem(
      id,
      OPEN_STATUSES,
      { status: 'EXPIRED', updated_at: now },
      { unlessDecisionRequested: true },
    );
    return expired !== null;
  }

  /** Expires every open, unsubmitted session whose deadline has passed, a bounded page per call; returns their ids. */
  async expireAllDue(now: Date): Promise<string[]> {
    const expired: string[] = [];
    for (const id of await this.sessions.dueForExpiry(now, SWEEP_PAGE))
      if (await this.expire(id, now)) expired.push(id);
    return expired;
  }
}
