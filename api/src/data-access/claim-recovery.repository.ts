import { ClaimRecovery } from '../domain/ports/session-transitions';
import { SessionRepository } from './session.repository';

/**
 * Finishes transitions whose writer died between claiming them and writing the session, looking
 * only at claims made in a recent window: scanning every claim ever made (a filtered read each,
 * ~15 ms of FerretDB CPU apiece) grew to seconds per sweep; a window keeps each sweep's work
 * proportional to the recent decision rate.
 * A claim older than the window is still rolled forward by the next transition attempted on its
 * session: the session's own expiry job or the expiry sweep, at the latest.
 */
export class ClaimRecoveryRepository implements ClaimRecovery {
  constructor(private readonly sessions: SessionRepository) {}

  async rollForwardClaimedBetween(from: Date, to: Date): Promise<number> {
    const claims = await this.sessions.claims
      .find({ claimed_at: { $gte: from, $lt: to } }, { _id: 1, session_id: 1, from: 1, attempt: 1 })
      .lean<Array<{ _id: string; session_id: string; from: string; attempt?: number }>>()
      .exec();
    let applied = 0;
    for (const claim of claims) {
      const session = await this.sessions.statusAndAttemptOf(claim.session_id);
      if (!session || session.status !== claim.from || session.attempt !== (claim.attempt ?? 1)) continue;
      await this.sessions.rollForward(claim._id);
      applied += 1;
    }
    return applied;
  }
}
