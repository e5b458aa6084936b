import { DecisionBacklog, LedgerOutbox, RetentionCandidate, RetentionCandidates } from '../domain/ports/session-sweeps';
import { OPEN_STATUSES, SessionStatus } from '../domain/session-status';
import { attemptIs, SessionStore } from './session-store';
import { SessionDocument } from './session.model';

/**
 * The reads and bookkeeping writes of the sweeps and jobs that keep sessions moving: decisions
 * owed, ledger entries owed, expiry deadlines and retention. The owed work is read from the
 * in-flight mirror (by session id), never by filtering every session.
 */
export class SessionSweepRepository implements DecisionBacklog, LedgerOutbox, RetentionCandidates {
  constructor(private readonly store: SessionStore) {}

  /** Ended sessions not redacted yet whose end is at or before `cutoff`, a bounded page (retention sweep). */
  async endedBefore(
    cutoff: Date,
    limit: number,
    accountIds?: { in?: string[]; notIn?: string[] },
  ): Promise<RetentionCandidate[]> {
    const account = accountIds?.in
      ? { account_id: { $in: accountIds.in } }
      : accountIds?.notIn?.length
        ? { account_id: { $nin: accountIds.notIn } }
        : {};
    const projection = { _id: 1, account_id: 1, status: 1, decided_at: 1, updated_at: 1 };
    const decided = await this.store.model
      .find(
        {
          redacted_at: null,
          status: { $in: ['VERIFIED', 'FAILED'] },
          decided_at: { $lte: cutoff },
          ...account,
        },
        projection,
      )
      .limit(limit)
      .lean<RetentionCandidate[]>()
      .exec();
    const expired = await this.store.model
      .find({ redacted_at: null, status: 'EXPIRED', updated_at: { $lte: cutoff }, ...account }, projection)
      .limit(Math.max(0, limit - decided.length))
      .lean<RetentionCandidate[]>()
      .exec();
    return [...decided, ...expired];
  }

  unfinishedRedactions(limit: number, now: Date): Promise<string[]> {
    return this.store.inFlight.redactions.unfinished(limit, now);
  }

  /** Billable decisions whose ledger entry is still owed (billing sweep). */
  ledgerPending(limit = 500): Promise<string[]> {
    return this.store.inFlight.ledger.owed(limit);
  }

  /** The ledger entry of that attempt is written: the session no longer owes one. */
  async ledgerWritten(id: string, attempt: number): Promise<void> {
    await this.store.model
      .updateOne({ _id: id, ledger_pending: true, ...attemptIs(attempt) }, { $unset: { ledger_pending: 1 } })
      .exec();
    await this.store.inFlight.ledger.written(id, attempt);
  }

  /** Submitted sessions still open: decisions owed (the capture sweep re-enqueues them). */
  awaitingDecision(limit = 500): Promise<Array<Pick<SessionDocument, '_id' | 'attempt'>>> {
    return this.store.inFlight.open.awaitingDecision(limit);
  }

  /** The status alone, read by _id (FerretDB answers that far cheaper than a filter on {_id, status}). */
  async statusOf(id: string): Promise<SessionStatus | null> {
    const doc = await this.store.model.collection.findOne<Pick<SessionDocument, 'status'>>(
      { _id: id as never },
      { projection: { status: 1 } },
    );
    return doc?.status ?? null;
  }

  /** Status and attempt, read by _id alone (claim recovery compares both with a claim). */
  async statusAndAttemptOf(id: string): Promise<{ status: SessionStatus; attempt: number } | null> {
    const doc = await this.store.model.collection.findOne<Pick<SessionDocument, 'status' | 'attempt'>>(
      { _id: id as never },
      { projection: { status: 1, attempt: 1 } },
    );
    return doc ? { status: doc.status, attempt: doc.attempt ?? 1 } : null;
  }

  /**
   * When an open session is due to expire, or null when it is not open (decided, expired, or gone)
   * or its decision is pending: a submitted session waits for its decision however long the service takes.
   */
  async expiryDeadline(id: string): Promise<Date | null> {
    // By _id alone, the status checked here: a read, so nothing is lost by not filtering in the store.
    const doc = await this.store.model.collection.findOne<
      Pick<SessionDocument, 'status' | 'expires_at' | 'decision_requested_at'>
    >({ _id: id as never }, { projection: { status: 1, expires_at: 1, decision_requested_at: 1 } });
    if (!doc || !OPEN_STATUSES.includes(doc.status) || doc.decision_requested_at) return null;
    return doc.expires_at;
  }

  /** Open, unsubmitted sessions whose deadline has passed, a bounded page. */
  dueForExpiry(now: Date, limit: number): Promise<string[]> {
    return this.store.inFlight.open.dueForExpiry(now, limit);
  }
}
