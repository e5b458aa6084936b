import { Connection, Model } from 'mongoose';
import { Tenant } from '../domain/environment';
import { ApplicantSessions, CredentialSessions } from '../domain/ports/session-reads';
import { RedactionMark, SessionRedaction } from '../domain/ports/session-redaction';
import { DecisionBacklog, LedgerOutbox, RetentionCandidates } from '../domain/ports/session-sweeps';
import { DecisionRequests, SessionTransitions, TransitionGuard } from '../domain/ports/session-transitions';
import { SessionCreation, TenantSessionStore } from '../domain/ports/tenant-sessions';
import { SessionUpdate } from '../domain/session/session';
import { SessionStatus } from '../domain/session-status';
import { inFlightMigrated } from './in-flight-backfill';
import { InFlightSessions } from './in-flight-sessions';
import { PiiVault } from './pii-vault';
import { retryTransient } from './store-retry';
import { SessionRedactionRepository } from './session-redaction.repository';
import { SessionScope, SessionStore } from './session-store';
import { SessionSweepRepository } from './session-sweeps.repository';
import { SessionTransitionRepository } from './session-transitions.repository';
import { SessionDocument } from './session.model';
import { TenantSessions } from './tenant-sessions.repository';
import { TransitionClaimDocument } from './transition-claim.model';

export { attemptIs, claimId } from './session-store';
export type { SessionUpdate };
export { TenantSessions };

const DUPLICATE_KEY = 11000;

/**
 * The session store, one per connection. Integrator-facing reads and writes go through
 * `forTenant`, whose every query carries the account and environment; the few tenant-less paths
 * are named for the capability that justifies them (the applicant's session id, a credential
 * token, a system job). Its concerns live in their own classes over one SessionStore (transitions
 * with their claims, the sweeps' reads, redaction, tenant scoping); this class creates and reads
 * sessions and answers for every session port, so the composition root wires one object.
 */
export class SessionRepository
  implements
    TenantSessionStore,
    SessionCreation,
    ApplicantSessions,
    CredentialSessions,
    SessionTransitions,
    DecisionRequests,
    DecisionBacklog,
    LedgerOutbox,
    RetentionCandidates,
    SessionRedaction
{
  private readonly store: SessionStore;
  readonly transitions: SessionTransitionRepository;
  readonly sweeps: SessionSweepRepository;
  readonly redaction: SessionRedactionRepository;
  private migrated = false;

  constructor(connection: Connection, vault: PiiVault) {
    this.store = new SessionStore(connection, vault);
    this.transitions = new SessionTransitionRepository(this.store);
    this.sweeps = new SessionSweepRepository(this.store);
    this.redaction = new SessionRedactionRepository(this.store);
  }

  get vault(): PiiVault {
    return this.store.vault;
  }

  get claims(): Model<TransitionClaimDocument> {
    return this.store.claims;
  }

  /** Unfinished work mirrored by session id: what the sweeps read instead of every session. */
  get inFlight(): InFlightSessions {
    return this.store.inFlight;
  }

  init(): Promise<void> {
    return this.store.init();
  }

  /** Retried: the id is fixed, so a try that landed makes the next a duplicate key, which insertOnce reads as "created". */
  async insert(doc: SessionDocument): Promise<void> {
    const sealed = await this.seal(doc._id, doc);
    await retryTransient(() => this.store.inFlight.beforeInsert(doc._id, doc));
    await retryTransient(() => this.store.insertNew(sealed));
  }

  /** False when a session with that id exists already (a re-run of the same creation). */
  async insertOnce(doc: SessionDocument): Promise<boolean> {
    try {
      await this.insert(doc);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  /**
   * Bulk import of sessions already shaped (benchmarks filling a store, a migration): sealed as
   * `insert` seals them, written in one unordered insertMany per call.
   */
  async importMany(docs: SessionDocument[]): Promise<void> {
    const sealed = await Promise.all(docs.map((doc) => this.seal(doc._id, doc)));
    await Promise.all(docs.map((doc) => this.store.inFlight.before(doc._id, doc)));
    await this.store.model.insertMany(sealed, { ordered: false, lean: true });
  }

  /** Personal fields as stored (sealed); every write of them goes through here. */
  seal<T extends object>(id: string, fields: T): Promise<T> {
    return this.store.seal(id, fields);
  }

  /** A stored session with its personal fields opened (null stays null). */
  open(doc: SessionDocument | null): Promise<SessionDocument | null> {
    return this.store.open(doc);
  }

  forTenant(tenant: Tenant): TenantSessions {
    return new TenantSessions(this.store, this.transitions, tenant);
  }

  /** The hosted page: the unguessable session id in verification_url is the applicant's capability. */
  findForApplicant(id: string): Promise<SessionDocument | null> {
    return this.store.findOpened(id);
  }

  /** Token → session by _id; the filter on credential_token only until the one-time backfill has run. */
  async findByCredentialToken(token: string): Promise<SessionDocument | null> {
    const sessionId = await this.store.inFlight.tokens.sessionOf(token);
    if (sessionId) {
      const session = await this.store.findOpened(sessionId);
      return session?.credential_token === token ? session : null;
    }
    this.migrated ||= await inFlightMigrated(this.store.connection);
    if (this.migrated) return null;
    return this.open(await this.store.model.findOne({ credential_token: token }).lean<SessionDocument>().exec());
  }

  /** By _id, the scope checked on the document read (see SessionStore.findSealedInScope). */
  async findInScope(id: string, scope: SessionScope): Promise<SessionDocument | null> {
    return this.open(await this.store.findSealedInScope(id, scope));
  }

  exists(id: string): Promise<boolean> {
    return this.store.exists(id);
  }

  transitionBySystem(
    id: string,
    from: SessionStatus[],
    update: SessionUpdate,
    guard?: TransitionGuard,
  ): Promise<SessionDocument | null> {
    return this.transitions.transitionBySystem(id, from, update, guard);
  }

  transition(scope: SessionScope, id: string, from: SessionStatus[], update: SessionUpdate, onAttempt?: number) {
    return this.transitions.transition(scope, id, from, update, onAttempt);
  }

  rollForward(claimId: string): Promise<void> {
    return this.transitions.rollForward(claimId);
  }

  redact(id: string, status: SessionStatus, attempt: number, update: SessionUpdate): Promise<boolean> {
    return this.redaction.redact(id, status, attempt, update);
  }

  scrubClaims(id: string, lastAttempt: number): Promise<void> {
    return this.redaction.scrubClaims(id, lastAttempt);
  }

  redactionStarted(id: string, attempt: number): Promise<RedactionMark> {
    return this.redaction.redactionStarted(id, attempt);
  }

  redactionFinished(mark: RedactionMark): Promise<void> {
    return this.redaction.redactionFinished(mark);
  }

  sealLegacy(): Promise<number> {
    return this.redaction.sealLegacy();
  }

  endedBefore(cutoff: Date, limit: number, accountIds?: { in?: string[]; notIn?: string[] }) {
    return this.sweeps.endedBefore(cutoff, limit, accountIds);
  }

  unfinishedRedactions(limit: number, now: Date): Promise<string[]> {
    return this.sweeps.unfinishedRedactions(limit, now);
  }

  ledgerPending(limit?: number): Promise<string[]> {
    return this.sweeps.ledgerPending(limit);
  }

  ledgerWritten(id: string, attempt: number): Promise<void> {
    return this.sweeps.ledgerWritten(id, attempt);
  }

  requestDecision(id: string, now: Date): Promise<boolean> {
    return this.transitions.requestDecision(id, now);
  }

  awaitingDecision(limit?: number) {
    return this.sweeps.awaitingDecision(limit);
  }

  statusOf(id: string): Promise<SessionStatus | null> {
    return this.sweeps.statusOf(id);
  }

  statusAndAttemptOf(id: string) {
    return this.sweeps.statusAndAttemptOf(id);
  }

  expiryDeadline(id: string): Promise<Date | null> {
    return this.sweeps.expiryDeadline(id);
  }

  dueForExpiry(now: Date, limit: number): Promise<string[]> {
    return this.sweeps.dueForExpiry(now, limit);
  }
}
