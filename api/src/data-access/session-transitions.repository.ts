import { SessionTransitions } from '../domain/ports/session-transitions';
import { SessionUpdate } from '../domain/session/session';
import { SessionStatus } from '../domain/session-status';
import { attemptIs, claimId, SessionScope, SessionStore } from './session-store';
import { SessionDocument } from './session.model';
import { TransitionClaimDocument } from './transition-claim.model';

const DUPLICATE_KEY = 11000;

/**
 * Session transitions. MongoDB's findOneAndUpdate on the current status would be atomic, but
 * FerretDB 1.24 (SQLite) applies a filtered update as read-then-write, and measured 49 of 50
 * racing pairs both "winning". A unique insert is atomic on both, so each transition first claims
 * the (session, attempt, current status) it leaves (`claimId`) and only the claimant writes. A
 * retry makes a session FAILED again on a later attempt, hence the attempt in the claim.
 */
export class SessionTransitionRepository implements SessionTransitions {
  constructor(private readonly store: SessionStore) {}

  /** A transition made by the service itself (applicant progress, expiry, a decision); null if it lost. */
  async transitionBySystem(id: string, from: SessionStatus[], update: SessionUpdate): Promise<SessionDocument | null> {
    const outcome = await this.transition({}, id, from, update);
    return typeof outcome === 'string' ? null : outcome;
  }

  /**
   * Moves session `id` (within `scope`) from one of `from` to `update.status`, only while it is
   * on attempt `onAttempt` when one is given. Exactly one of any number of racing callers gets the
   * updated document; the others get the status they lost to, or 'missing'.
   */
  async transition(
    scope: SessionScope,
    id: string,
    from: SessionStatus[],
    plainUpdate: SessionUpdate,
    onAttempt?: number,
  ): Promise<SessionDocument | SessionStatus | 'missing'> {
    const { store } = this;
    // Sealed before the claim: the claim stores the update, and it must hold no plaintext either.
    const update = await store.seal(id, plainUpdate);
    for (;;) {
      const current = await store.findSealedInScope(id, scope);
      if (!current) return 'missing';
      if (!from.includes(current.status)) return current.status;
      // The caller acted on what it read of one attempt: a session retried since then is another decision.
      if (onAttempt !== undefined && (current.attempt ?? 1) !== onAttempt) return current.status;
      const attempt = current.attempt ?? 1;
      const claimed = await this.claim(id, attempt, current.status, update);
      if (claimed) {
        // After the claim (losers write nothing), before the session: a roll-forward of the claim does the same.
        await store.inFlight.before(id, update, current);
        await store.model
          .updateOne({ _id: id, status: current.status, ...attemptIs(attempt) }, { $set: update })
          .exec();
        await store.inFlight.after(id, attempt, update.status);
        return (await store.findOpened(id)) as SessionDocument;
      }
      // Someone else is moving it on from this status: finish their write if they died, then look again.
      await this.rollForward(claimId(id, attempt, current.status));
    }
  }

  private async claim(id: string, attempt: number, from: SessionStatus, update: SessionUpdate): Promise<boolean> {
    try {
      await this.store.claims.create({
        _id: claimId(id, attempt, from),
        session_id: id,
        attempt,
        from,
        to: update.status ?? from,
        update,
        claimed_at: new Date(),
      });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  /** Applies a claim's update if its session still has the claimed status and attempt (idempotent). */
  async rollForward(id: string): Promise<void> {
    const { store } = this;
    const claim = await store.claims.findById(id).lean<TransitionClaimDocument>().exec();
    if (!claim) return;
    const filter = {
      _id: claim.session_id,
      status: claim.from as SessionStatus,
      ...attemptIs(claim.attempt ?? 1),
    };
    await store.inFlight.before(claim.session_id, claim.update, { attempt: claim.attempt ?? 1 });
    const result = await store.model.updateOne(filter, { $set: claim.update }).exec();
    if (result.matchedCount === 1)
      await store.inFlight.after(claim.session_id, claim.attempt ?? 1, (claim.update as SessionUpdate).status);
  }
}
