import { Connection, Model } from 'mongoose';
import { Tenant } from '../domain/environment';
import { OPEN_STATUSES, SessionStatus } from '../domain/session-status';
import { AppError } from '../shared/app-error';
import { inFlightMigrated } from './in-flight-backfill';
import { InFlightSessions } from './in-flight-sessions';
import { isSealed, PiiVault } from './pii-vault';
import { retryTransient } from './store-retry';
import { PERSONAL_SESSION_FIELDS, SessionDocument, sessionModel } from './session.model';
import { TransitionClaimDocument, transitionClaimModel } from './transition-claim.model';

export type SessionUpdate = Partial<Omit<SessionDocument, '_id' | 'account_id' | 'environment' | 'created_at'>> & {
  status?: SessionStatus;
};
type Scope = Partial<Pick<SessionDocument, 'account_id' | 'environment'>>;

const DUPLICATE_KEY = 11000;

/** Attempt 1 keeps the id claims had before retries existed, so claims already stored still guard. */
export const claimId = (id: string, attempt: number, from: string) =>
  attempt <= 1 ? `${id}:${from}` : `${id}:${attempt}:${from}`;

/** The session is still at `attempt` (documents written before retries existed have no field: attempt 1). */
export const attemptIs = (attempt: number) => (attempt <= 1 ? { attempt: { $in: [1, null] } } : { attempt });

/**
 * The session store. Integrator-facing reads and writes go through `forTenant`, whose every query
 * carries the account and environment; the few tenant-less paths are named for the capability
 * that justifies them (the applicant's session id, a credential token, a system job).
 *
 * Transitions: MongoDB's findOneAndUpdate on the current status would be atomic, but FerretDB
 * 1.24 (SQLite) applies a filtered update as read-then-write, and measured 49 of 50 racing pairs
 * both "winning". A unique insert is atomic on both, so each transition first claims the
 * (session, attempt, current status) it leaves (`claimId`) and only the claimant writes. A retry
 * makes a session FAILED again on a later attempt, hence the attempt in the claim.
 */
export class SessionRepository {
  private readonly model: Model<SessionDocument>;
  readonly claims: Model<TransitionClaimDocument>;
  /** Unfinished work mirrored by session id: what the sweeps read instead of every session. */
  readonly inFlight: InFlightSessions;
  private migrated = false;

  constructor(
    private readonly connection: Connection,
    readonly vault: PiiVault,
  ) {
    this.model = sessionModel(connection);
    this.claims = transitionClaimModel(connection);
    this.inFlight = new InFlightSessions(connection);
  }

  async init(): Promise<void> {
    await Promise.all([this.model.init(), this.claims.init(), this.vault.init(), this.inFlight.init()]);
  }

  /** Retried: the id is fixed, so a try that landed makes the next a duplicate key, which insertOnce reads as "created". */
  async insert(doc: SessionDocument): Promise<void> {
    const sealed = await this.seal(doc._id, doc);
    await retryTransient(() => this.inFlight.before(doc._id, doc));
    await retryTransient(() => this.model.create(sealed));
  }

  /**
   * Bulk import of sessions already shaped (benchmarks filling a store, a migration): sealed as
   * `insert` seals them, written in one unordered insertMany per call.
   */
  async importMany(docs: SessionDocument[]): Promise<void> {
    const sealed = await Promise.all(docs.map((doc) => this.seal(doc._id, doc)));
    await Promise.all(docs.map((doc) => this.inFlight.before(doc._id, doc)));
    await this.model.insertMany(sealed, { ordered: false, lean: true });
  }

  /** Personal fields as stored (sealed); every write of them goes through here. */
  seal<T extends object>(id: string, fields: T): Promise<T> {
    return this.vault.sealFields(id, fields, PERSONAL_SESSION_FIELDS);
  }

  /** A stored session with its personal fields opened (null stays null). */
  async open(doc: SessionDocument | null): Promise<SessionDocument | null> {
    return doc ? this.vault.openFields(doc._id, doc, PERSONAL_SESSION_FIELDS) : null;
  }

  private async findOpened(id: string): Promise<SessionDocument | null> {
    return this.open(await retryTransient(() => this.model.findById(id).lean<SessionDocument>().exec()));
  }

  forTenant(tenant: Tenant): TenantSessions {
    return new TenantSessions(this, tenant);
  }

  /** The hosted page: the unguessable session id in verification_url is the applicant's capability. */
  findForApplicant(id: string): Promise<SessionDocument | null> {
    return this.findOpened(id);
  }

  /** Token → session by _id; the filter on credential_token only until the one-time backfill has run. */
  async findByCredentialToken(token: string): Promise<SessionDocument | null> {
    const sessionId = await this.inFlight.tokens.sessionOf(token);
    if (sessionId) {
      const session = await this.findOpened(sessionId);
      return session?.credential_token === token ? session : null;
    }
    this.migrated ||= await inFlightMigrated(this.connection);
    if (this.migrated) return null;
    return this.open(await this.model.findOne({ credential_token: token }).lean<SessionDocument>().exec());
  }

  /**
   * Writes a redaction onto a decided or expired session, only while it still has the status and
   * attempt the caller read (a retry racing it is caught by the caller reading again). Not a
   * transition: the status stays, so there is no claim to take; writing it twice is harmless.
   */
  async redact(id: string, status: SessionStatus, attempt: number, update: SessionUpdate): Promise<boolean> {
    const sealed = await this.seal(id, update);
    const result = await this.model.updateOne({ _id: id, status, ...attemptIs(attempt) }, { $set: sealed }).exec();
    return result.matchedCount === 1;
  }

  /**
   * Redaction: the claims that decided the session's attempts carry the sealed result in their
   * update; it goes too. Those claims can never be rolled forward again (the session has left
   * the status they claim), so only the guard they provide remains, which is all that is needed.
   */
  async scrubClaims(id: string, lastAttempt: number): Promise<void> {
    const ids: string[] = [];
    for (let attempt = 1; attempt <= lastAttempt; attempt += 1)
      for (const from of OPEN_STATUSES) ids.push(claimId(id, attempt, from));
    await this.claims
      .updateMany({ _id: { $in: ids } }, { $unset: { 'update.result_body': 1, 'update.report_json': 1 } })
      .exec();
  }

  /**
   * Upgrade path: seals personal fields stored before encryption at rest existed (no seal
   * prefix). Each write is conditional on the plaintext still being there, so it can run beside
   * live traffic and be run again.
   */
  async sealLegacy(): Promise<number> {
    let sealed = 0;
    const projection = Object.fromEntries(PERSONAL_SESSION_FIELDS.map((f) => [f, 1]));
    for await (const doc of this.model.find({}, projection).lean<SessionDocument>().cursor()) {
      for (const field of PERSONAL_SESSION_FIELDS) {
        const value = doc[field];
        if (typeof value !== 'string' || isSealed(value)) continue;
        const result = await this.model
          .updateOne(
            { _id: doc._id, [field]: value },
            { $set: { [field]: await this.vault.seal(`${doc._id}|${field}`, value) } },
          )
          .exec();
        sealed += result.modifiedCount;
      }
    }
    return sealed;
  }

  /** Ended sessions not redacted yet whose end is at or before `cutoff`, a bounded page (retention sweep). */
  async endedBefore(
    cutoff: Date,
    limit: number,
    accountIds?: { in?: string[]; notIn?: string[] },
  ): Promise<Array<Pick<SessionDocument, '_id' | 'account_id' | 'status' | 'decided_at' | 'updated_at'>>> {
    const account = accountIds?.in
      ? { account_id: { $in: accountIds.in } }
      : accountIds?.notIn?.length
        ? { account_id: { $nin: accountIds.notIn } }
        : {};
    const projection = { _id: 1, account_id: 1, status: 1, decided_at: 1, updated_at: 1 };
    const decided = await this.model
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
      .lean<Array<Pick<SessionDocument, '_id' | 'account_id' | 'status' | 'decided_at' | 'updated_at'>>>()
      .exec();
    const expired = await this.model
      .find({ redacted_at: null, status: 'EXPIRED', updated_at: { $lte: cutoff }, ...account }, projection)
      .limit(Math.max(0, limit - decided.length))
      .lean<Array<Pick<SessionDocument, '_id' | 'account_id' | 'status' | 'decided_at' | 'updated_at'>>>()
      .exec();
    return [...decided, ...expired];
  }

  /** Billable decisions whose ledger entry is still owed (billing sweep). */
  ledgerPending(limit = 500): Promise<string[]> {
    return this.inFlight.ledger.owed(limit);
  }

  /** The ledger entry of that attempt is written: the session no longer owes one. */
  async ledgerWritten(id: string, attempt: number): Promise<void> {
    await this.model
      .updateOne({ _id: id, ledger_pending: true, ...attemptIs(attempt) }, { $unset: { ledger_pending: 1 } })
      .exec();
    await this.inFlight.ledger.written(id, attempt);
  }

  /**
   * The applicant submitted the capture of an open session: its decision is now owed, and the
   * expiry job and sweep leave it alone (a decision that waits on the service is not the
   * applicant's fault). Not a status change, so a plain conditional $set.
   */
  async requestDecision(id: string, now: Date): Promise<void> {
    await this.inFlight.open.markDecisionRequested(id, now);
    await this.model
      .updateOne({ _id: id, status: { $in: OPEN_STATUSES } }, { $set: { decision_requested_at: now, updated_at: now } })
      .exec();
  }

  /** Submitted sessions still open: decisions owed (the capture sweep re-enqueues them). */
  awaitingDecision(limit = 500): Promise<Array<Pick<SessionDocument, '_id' | 'attempt'>>> {
    return this.inFlight.open.awaitingDecision(limit);
  }

  exists(id: string): Promise<boolean> {
    return retryTransient(() => this.model.exists({ _id: id }).exec()).then(Boolean);
  }

  /** The status alone, read by _id (FerretDB answers that far cheaper than a filter on {_id, status}). */
  async statusOf(id: string): Promise<SessionStatus | null> {
    const doc = await this.model.collection.findOne<Pick<SessionDocument, 'status'>>(
      { _id: id as never },
      { projection: { status: 1 } },
    );
    return doc?.status ?? null;
  }

  /** Status and attempt, read by _id alone (claim recovery compares both with a claim). */
  async statusAndAttemptOf(id: string): Promise<{ status: SessionStatus; attempt: number } | null> {
    const doc = await this.model.collection.findOne<Pick<SessionDocument, 'status' | 'attempt'>>(
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
    const doc = await this.model.collection.findOne<
      Pick<SessionDocument, 'status' | 'expires_at' | 'decision_requested_at'>
    >({ _id: id as never }, { projection: { status: 1, expires_at: 1, decision_requested_at: 1 } });
    if (!doc || !OPEN_STATUSES.includes(doc.status) || doc.decision_requested_at) return null;
    return doc.expires_at;
  }

  /** Open, unsubmitted sessions whose deadline has passed, a bounded page. */
  dueForExpiry(now: Date, limit: number): Promise<string[]> {
    return this.inFlight.open.dueForExpiry(now, limit);
  }

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
    scope: Scope,
    id: string,
    from: SessionStatus[],
    plainUpdate: SessionUpdate,
    onAttempt?: number,
  ): Promise<SessionDocument | SessionStatus | 'missing'> {
    // Sealed before the claim: the claim stores the update, and it must hold no plaintext either.
    const update = await this.seal(id, plainUpdate);
    for (;;) {
      const current = await this.findSealedInScope(id, scope);
      if (!current) return 'missing';
      if (!from.includes(current.status)) return current.status;
      // The caller acted on what it read of one attempt: a session retried since then is another decision.
      if (onAttempt !== undefined && (current.attempt ?? 1) !== onAttempt) return current.status;
      const attempt = current.attempt ?? 1;
      const claimed = await this.claim(id, attempt, current.status, update);
      if (claimed) {
        // After the claim (losers write nothing), before the session: a roll-forward of the claim does the same.
        await this.inFlight.before(id, update, current);
        await this.model.updateOne({ _id: id, status: current.status, ...attemptIs(attempt) }, { $set: update }).exec();
        await this.inFlight.after(id, attempt, update.status);
        return (await this.findOpened(id)) as SessionDocument;
      }
      // Someone else is moving it on from this status: finish their write if they died, then look again.
      await this.rollForward(claimId(id, attempt, current.status));
    }
  }

  /**
   * Reads by _id alone and checks the scope here: FerretDB answers an _id lookup from its primary
   * key, while {_id, account_id, …} is filtered document by document (measured 10x slower as the
   * store grows). The scope is still enforced in this layer, on every read.
   */
  async findInScope(id: string, scope: Scope): Promise<SessionDocument | null> {
    return this.open(await this.findSealedInScope(id, scope));
  }

  /** As stored: transitions only compare status and attempt, so nothing needs opening. */
  private async findSealedInScope(id: string, scope: Scope): Promise<SessionDocument | null> {
    const doc = await retryTransient(() => this.model.findById(id).lean<SessionDocument>().exec());
    if (!doc) return null;
    if (scope.account_id !== undefined && doc.account_id !== scope.account_id) return null;
    if (scope.environment !== undefined && doc.environment !== scope.environment) return null;
    return doc;
  }

  private async claim(id: string, attempt: number, from: SessionStatus, update: SessionUpdate): Promise<boolean> {
    try {
      await this.claims.create({
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
    const claim = await this.claims.findById(id).lean<TransitionClaimDocument>().exec();
    if (!claim) return;
    const filter = {
      _id: claim.session_id,
      status: claim.from as SessionStatus,
      ...attemptIs(claim.attempt ?? 1),
    };
    await this.inFlight.before(claim.session_id, claim.update, { attempt: claim.attempt ?? 1 });
    const result = await this.model.updateOne(filter, { $set: claim.update }).exec();
    if (result.matchedCount === 1)
      await this.inFlight.after(claim.session_id, claim.attempt ?? 1, (claim.update as SessionUpdate).status);
  }
}

export class TenantSessions {
  constructor(
    private readonly repository: SessionRepository,
    private readonly tenant: Tenant,
  ) {}

  private get scope(): Scope {
    return { account_id: this.tenant.accountId, environment: this.tenant.environment };
  }

  async get(id: string): Promise<SessionDocument> {
    const doc = await this.repository.findInScope(id, this.scope);
    if (!doc) throw await this.missFor(id);
    return doc;
  }

  /** Of racing writers exactly one wins; the others get 409 (or 403/404 when it is not theirs / not there). */
  async transition(
    id: string,
    from: SessionStatus[],
    update: SessionUpdate,
    onAttempt?: number,
  ): Promise<SessionDocument> {
    const outcome = await this.repository.transition(this.scope, id, from, update, onAttempt);
    if (outcome === 'missing') throw await this.missFor(id);
    if (typeof outcome === 'string')
      throw AppError.conflict(`The session is ${outcome}; this action needs it to be ${from.join(' or ')}.`);
    return outcome;
  }

  /** Tells "not yours" (403) from "does not exist" (404) without revealing anything else. */
  private async missFor(id: string): Promise<AppError> {
    const exists = await this.repository.exists(id);
    return exists ? AppError.forbidden() : AppError.notFound('session');
  }
}
