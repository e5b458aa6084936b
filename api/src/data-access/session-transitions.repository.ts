import { SessionTransitions, TransitionGuard } from '../domain/ports/session-transitions';
import { SessionUpdate } from '../domain/session/session';
import { OPEN_STATUSES, SessionStatus } from '../domain/session-status';
import { attemptIs, claimId, SessionScope, SessionStore } from './session-store';
import { SessionDocument } from './session.model';
import { TransitionClaimDocument } from './transition-claim.model';

const DUPLICATE_KEY = 11000;

type ClaimExtras = Pick<TransitionClaimDocument, 'kind' | 'unless_decision_requested'>;

/**
 * Session transitions. MongoDB's findOneAndUpdate on the current status would be atomic, but
 * FerretDB 1.24 (SQLite) applies a filtered update as read-then-write, and measured 49 of 50
 * racing pairs both "winning". A unique insert is atomic on both, so each transition first claims
 * the (session, attempt, current status) it leaves (`claimId`) and only the claimant writes. A
 * retry makes a session FAILED again on a later attempt, hence the attempt in the claim.
 *
 * The applicant's submit is no transition, but expiry must not overtake it: the submit takes the
 * same claim while it writes its decision request, then releases it, and an expiry checks for a
 * request once it holds the claim (when no request can be half-written any more).
 */
export class SessionTransitionRepository implements SessionTransitions {
  constructor(private readonly store: SessionStore) {}

  /** A transition made by the service itself (applicant progress, expiry, a decision); null if it lost. */
  async transitionBySystem(
    id: string,
    from: SessionStatus[],
    update: SessionUpdate,
    guard: TransitionGuard = {},
  ): Promise<SessionDocument | null> {
    const outcome = await this.transition({}, id, from, update, undefined, guard);
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
    guard: TransitionGuard = {},
  ): Promise<SessionDocument | SessionStatus | 'missing'> {
    const { store } = this;
    // Sealed before the claim: the claim stores the update, and it must hold no plaintext either.
    const update = await store.seal(id, plainUpdate);
    const extras: ClaimExtras = guard.unlessDecisionRequested ? { unless_decision_requested: true } : {};
    for (;;) {
      const current = await store.findSealedInScope(id, scope);
      if (!current) return 'missing';
      if (!from.includes(current.status)) return current.status;
      // The caller acted on what it read of one attempt: a session retried since then is another decision.
      if (onAttempt !== undefined && (current.attempt ?? 1) !== onAttempt) return current.status;
      if (guard.unlessDecisionRequested && current.decision_requested_at) return current.status;
      const attempt = current.attempt ?? 1;
      const claimed = await this.claim(id, attempt, current.status, update, extras);
      if (claimed) {
        // A submit may have written its request between the read above and the claim. While this
        // claim stands no request can start, and one begun earlier was written before its claim
        // went, so what is read now is final.
        if (guard.unlessDecisionRequested && (await this.decisionRequested(id))) {
          await this.release(claimed);
          return current.status;
        }
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

  /**
   * The applicant submitted: the open session's decision is owed, so expiry leaves it alone. False
   * when the session is no longer open (expired or cancelled first). Idempotent.
   */
  async requestDecision(id: string, now: Date): Promise<boolean> {
    const update = { decision_requested_at: now, updated_at: now };
    for (;;) {
      const current = await this.store.findSealedInScope(id, {});
      if (!current || !OPEN_STATUSES.includes(current.status)) return false;
      if (current.decision_requested_at) return true;
      const attempt = current.attempt ?? 1;
      const claimed = await this.claim(id, attempt, current.status, update, { kind: 'decision-request' });
      // Our own claim is written (and released) as a roll-forward writes it, without reading it back;
      // written over the status read above, it is final: no transition leaves that status while it stands.
      if (claimed && (await this.writeDecisionRequest(claimed))) return true;
      // Another submit's claim (written the same way), or the session moved on before ours: look again.
      if (!claimed) await this.rollForward(claimId(id, attempt, current.status));
    }
  }

  /** The claim, or null when another writer holds it. */
  private async claim(
    id: string,
    attempt: number,
    from: SessionStatus,
    update: SessionUpdate,
    extras: ClaimExtras,
  ): Promise<TransitionClaimDocument | null> {
    try {
      const claim: TransitionClaimDocument = {
        _id: claimId(id, attempt, from),
        session_id: id,
        attempt,
        from,
        to: update.status ?? from,
        update,
        claimed_at: new Date(),
        ...extras,
      };
      await this.store.claims.create(claim);
      return claim;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return null;
      throw error;
    }
  }

  /**
   * Applies a claim's update if its session still has the claimed status and attempt (idempotent).
   * A decision request is written and then released; an expiry of a session whose decision was
   * requested is released unwritten.
   */
  async rollForward(id: string): Promise<void> {
    const { store } = this;
    const claim = await store.claims.findById(id).lean<TransitionClaimDocument>().exec();
    if (!claim) return;
    const filter = {
      _id: claim.session_id,
      status: claim.from as SessionStatus,
      ...attemptIs(claim.attempt ?? 1),
    };
    if (claim.kind === 'decision-request') {
      await this.writeDecisionRequest(claim);
      return;
    }
    if (claim.unless_decision_requested && (await this.decisionRequested(claim.session_id))) {
      await this.release(claim);
      return;
    }
    await store.inFlight.before(claim.session_id, claim.update, { attempt: claim.attempt ?? 1 });
    const result = await store.model.updateOne(filter, { $set: claim.update }).exec();
    if (result.matchedCount === 1)
      await store.inFlight.after(claim.session_id, claim.attempt ?? 1, (claim.update as SessionUpdate).status);
  }

  /** Writes a decision request's claim and releases it; true when the session had the claimed status and attempt. */
  private async writeDecisionRequest(claim: TransitionClaimDocument): Promise<boolean> {
    const { store } = this;
    const filter = { _id: claim.session_id, status: claim.from as SessionStatus, ...attemptIs(claim.attempt ?? 1) };
    await store.inFlight.open.markDecisionRequested(claim.session_id, claim.update.decision_requested_at as Date);
    const result = await store.model.updateOne(filter, { $set: claim.update }).exec();
    await this.release(claim);
    return result.matchedCount === 1;
  }

  private async decisionRequested(id: string): Promise<boolean> {
    const doc = await this.store.model.collection.findOne<Pick<SessionDocument, 'decision_requested_at'>>(
      { _id: id as never },
      { projection: { decision_requested_at: 1 } },
    );
    return Boolean(doc?.decision_requested_at);
  }

  /** Frees the claim's id for the next writer; its claimed_at tells it from a later claim of the same id. */
  private async release(claim: TransitionClaimDocument): Promise<void> {
    await this.store.claims.deleteOne({ _id: claim._id, claimed_at: claim.claimed_at }).exec();
  }
}
