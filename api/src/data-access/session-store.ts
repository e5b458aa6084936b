import { Connection, Model } from 'mongoose';
import { GroupedInserts } from './grouped-inserts';
import { InFlightSessions } from './in-flight-sessions';
import { PiiVault } from './pii-vault';
import { retryTransient } from './store-retry';
import { PERSONAL_SESSION_FIELDS, SessionDocument, sessionModel } from './session.model';
import { TransitionClaimDocument, transitionClaimModel } from './transition-claim.model';

/** Who may see a session: the tenant-facing reads give both, system paths neither. */
export type SessionScope = Partial<Pick<SessionDocument, 'account_id' | 'environment'>>;

/** Attempt 1 keeps the id claims had before retries existed, so claims already stored still guard. */
export const claimId = (id: string, attempt: number, from: string) =>
  attempt <= 1 ? `${id}:${from}` : `${id}:${attempt}:${from}`;

/** The session is still at `attempt` (documents written before retries existed have no field: attempt 1). */
export const attemptIs = (attempt: number) => (attempt <= 1 ? { attempt: { $in: [1, null] } } : { attempt });

/**
 * What every part of the session store stands on: the sessions collection, the transition claims,
 * the in-flight mirror the sweeps read, and the vault that seals personal fields. The parts
 * (transitions, sweeps, redaction, tenant reads) share one instance per connection.
 */
export class SessionStore {
  readonly model: Model<SessionDocument>;
  readonly claims: Model<TransitionClaimDocument>;
  /** Unfinished work mirrored by session id: what the sweeps read instead of every session. */
  readonly inFlight: InFlightSessions;
  /** New sessions, committed together when they arrive together (see GroupedInserts). */
  private readonly inserts: GroupedInserts<SessionDocument>;

  constructor(
    readonly connection: Connection,
    readonly vault: PiiVault,
  ) {
    this.model = sessionModel(connection);
    this.claims = transitionClaimModel(connection);
    this.inFlight = new InFlightSessions(connection);
    this.inserts = new GroupedInserts<SessionDocument>(connection, this.model.collection.collectionName);
  }

  /**
   * A new session, stored as the model's `create` would store it (schema defaults applied, every
   * field validated) but through the grouped insert; a duplicate _id rejects with code 11000.
   */
  async insertNew(sealed: SessionDocument): Promise<void> {
    const doc = new this.model(sealed);
    await doc.validate();
    await this.inserts.insert(doc.toObject());
  }

  async init(): Promise<void> {
    await Promise.all([this.model.init(), this.claims.init(), this.vault.init(), this.inFlight.init()]);
  }

  /** Personal fields as stored (sealed); every write of them goes through here. */
  seal<T extends object>(id: string, fields: T): Promise<T> {
    return this.vault.sealFields(id, fields, PERSONAL_SESSION_FIELDS);
  }

  /** A stored session with its personal fields opened (null stays null). */
  async open(doc: SessionDocument | null): Promise<SessionDocument | null> {
    return doc ? this.vault.openFields(doc._id, doc, PERSONAL_SESSION_FIELDS) : null;
  }

  async findOpened(id: string): Promise<SessionDocument | null> {
    return this.open(await retryTransient(() => this.model.findById(id).lean<SessionDocument>().exec()));
  }

  /**
   * As stored, read by _id alone with the scope checked here: FerretDB answers an _id lookup from
   * its primary key, while {_id, account_id, …} is filtered document by document (measured 10x
   * slower as the store grows). The scope is still enforced in this layer, on every read.
   */
  async findSealedInScope(id: string, scope: SessionScope): Promise<SessionDocument | null> {
    const doc = await retryTransient(() => this.model.findById(id).lean<SessionDocument>().exec());
    if (!doc) return null;
    if (scope.account_id !== undefined && doc.account_id !== scope.account_id) return null;
    if (scope.environment !== undefined && doc.environment !== scope.environment) return null;
    return doc;
  }

  exists(id: string): Promise<boolean> {
    return retryTransient(() => this.model.exists({ _id: id }).exec()).then(Boolean);
  }
}
