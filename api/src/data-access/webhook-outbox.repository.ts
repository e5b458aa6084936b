import { Model } from 'mongoose';
import {
  DeliverableSession,
  OutboxEntry,
  OutboxSweepStore,
  SettledState,
  WebhookDeliveries,
  WebhookRedelivery,
} from '../domain/ports/webhook-outbox';
import { WebhookState } from '../domain/session/session';
import { DECIDED_STATUSES } from '../domain/session-status';
import { BatchWriter } from './batch-writer';
import { PendingWebhookIndex } from './pending-webhook-index.repository';
import { PiiVault } from './pii-vault';
import { SessionAttemptDocument, sessionAttemptModel } from './session-attempt.model';
import { SessionDocument } from './session.model';
import { attemptIs } from './session-store';
import {
  settlementId,
  WebhookRoundDocument,
  webhookRoundModel,
  WebhookSettlementDocument,
  webhookSettlementModel,
} from './webhook-settlement.model';

export type { DeliverableSession, OutboxEntry, SettledState, WebhookState };

const DELIVERABLE_FIELDS = {
  account_id: 1,
  environment: 1,
  status: 1,
  webhook_url: 1,
  result_body: 1,
  webhook_state: 1,
  webhook_delivery_id: 1,
  webhook_redeliveries: 1,
  attempt: 1,
};
const DUPLICATE_KEY = 11000;

/** Sessions written before redelivery rounds existed have no counter: that is round 0. */
const roundIs = (round: number) =>
  round === 0 ? { webhook_redeliveries: { $in: [0, null] } } : { webhook_redeliveries: round };

/**
 * The outbox: decide-session sets webhook_state='pending' in the same write as the decision. The
 * delivery worker records how each round ended as a settlement (insert-only, batched); the outbox
 * sweep copies settlements onto the session document and enqueues what is owed and not queued.
 * System-side (no tenant): workers act on ids taken from jobs the service itself enqueued.
 */
export class WebhookOutboxRepository implements WebhookDeliveries, WebhookRedelivery, OutboxSweepStore {
  private readonly settlements: Model<WebhookSettlementDocument>;
  private readonly attempts: Model<SessionAttemptDocument>;
  private readonly rounds: Model<WebhookRoundDocument>;
  private readonly settlementWriter: BatchWriter<WebhookSettlementDocument>;
  /** The sessions with a round owed, by session id: the sweep's list instead of a filter on every session. */
  readonly pendingIndex: PendingWebhookIndex;

  /** Takes the session model the SessionRepository compiled (a connection compiles a model once). */
  constructor(
    private readonly sessions: Model<SessionDocument>,
    private readonly vault: PiiVault,
  ) {
    this.settlements = webhookSettlementModel(sessions.db);
    this.attempts = sessionAttemptModel(sessions.db);
    this.rounds = webhookRoundModel(sessions.db);
    this.pendingIndex = new PendingWebhookIndex(sessions.db);
    this.settlementWriter = new BatchWriter((docs) => this.insertSettlements(docs));
  }

  /**
   * The delivery worker's one read per attempt: the driver directly, as mongoose adds nothing to a
   * projection by _id. A job for an attempt the session has since been retried past reads that
   * attempt's archived copy instead, so its decision is still delivered.
   */
  async findDeliverable(id: string, sessionAttempt?: number): Promise<DeliverableSession | null> {
    const current = await this.sessions.collection.findOne<DeliverableSession>(
      { _id: id as never },
      { projection: DELIVERABLE_FIELDS },
    );
    if (!current || sessionAttempt === undefined || (current.attempt ?? 1) === sessionAttempt)
      return current ? this.opened(current) : null;
    const archived = await this.attempts.findById(`${id}:${sessionAttempt}`).lean<SessionAttemptDocument>().exec();
    if (!archived) return null;
    const deliverable: DeliverableSession = {
      ...archived,
      _id: id,
      status: archived.status,
      attempt: sessionAttempt,
    };
    return this.opened({ ...deliverable, webhook_state: await this.effectiveState(deliverable) });
  }

  /** The stored result is sealed at rest; what is signed and sent is the plaintext decided. */
  private opened(session: DeliverableSession): Promise<DeliverableSession> {
    return this.vault.openFields(session._id, session, ['result_body']);
  }

  /**
   * Decided sessions whose webhook is still owed (entries of the pending-webhook collection). A
   * round settled by a worker but not yet copied here by the outbox sweep still counts, for at
   * most one sweep interval.
   */
  countPending(): Promise<number> {
    return this.pendingIndex.count();
  }

  async settlementOf(id: string, round: number, attempt = 1): Promise<SettledState | null> {
    const doc = await this.settlements
      .findById(settlementId(id, round, attempt), { state: 1 })
      .lean<WebhookSettlementDocument>()
      .exec();
    return doc?.state ?? null;
  }

  /** Records how a round ended; the first record wins (a duplicate delivery cannot change it). */
  settle(id: string, round: number, state: SettledState, at: Date, attempt = 1): Promise<void> {
    return this.settlementWriter.write({
      _id: settlementId(id, round, attempt),
      session_id: id,
      round,
      attempt,
      state,
      settled_at: at,
    });
  }

  /** The state as integrators see it: a pending session whose round has settled is settled. */
  async effectiveState(
    session: Pick<SessionDocument, '_id' | 'webhook_state' | 'webhook_redeliveries' | 'attempt'>,
  ): Promise<WebhookState> {
    if (session.webhook_state !== 'pending') return session.webhook_state;
    return (await this.settlementOf(session._id, session.webhook_redeliveries ?? 0, session.attempt ?? 1)) ?? 'pending';
  }

  /** Copies a settlement onto the session (the sweep's bookkeeping, off the delivery path). */
  async applySettlement(id: string, round: number, state: SettledState, attempt = 1): Promise<void> {
    await this.sessions
      .updateOne(
        { _id: id, webhook_state: 'pending', ...roundIs(round), ...attemptIs(attempt) },
        { $set: { webhook_state: state } },
      )
      .exec();
    await this.pendingIndex.settled(id, attempt, round);
  }

  /** Oldest first: the sweeper works through a bounded page per run. */
  listPending(limit: number): Promise<OutboxEntry[]> {
    return this.pendingIndex.listPending(limit);
  }

  /** A read, so by _id alone with the rest compared here (FerretDB pushes down only {_id}). */
  async isStillPending(id: string, round: number, attempt = 1): Promise<boolean> {
    const session = await this.sessions.collection.findOne<OutboxEntry & { webhook_state: WebhookState }>(
      { _id: id as never },
      { projection: { webhook_state: 1, webhook_redeliveries: 1, attempt: 1 } },
    );
    const pending =
      session?.webhook_state === 'pending' &&
      (session.webhook_redeliveries ?? 0) === round &&
      (session.attempt ?? 1) === attempt;
    return pending && (await this.settlementOf(id, round, attempt)) === null;
  }

  /**
   * Opens a new delivery round for a decided session that had a webhook (cancelled ones never do)
   * and whose last round has settled; not while one is in flight. The delivery id stays: a
   * receiver that stored the first copy recognises this one. Of racing callers, the one whose
   * round marker is inserted first opens the round; the others answer null.
   */
  async startRedelivery(id: string): Promise<DeliverableSession | null> {
    const current = await this.findDeliverable(id);
    if (!current || !DECIDED_STATUSES.includes(current.status) || !current.webhook_delivery_id) return null;
    const round = current.webhook_redeliveries ?? 0;
    const attempt = current.attempt ?? 1;
    const state = await this.effectiveState(current);
    if (state !== 'delivered' && state !== 'failed') return null;
    const won = await this.markRound(id, attempt, round + 1);
    // A loser still writes the round onto the session (the same write as the winner's, so
    // harmless): that rolls forward a winner that died between its marker and its write, and the
    // outbox sweep then delivers the round.
    await this.pendingIndex.track(id, attempt, round + 1);
    // The round has settled, so the session reads either 'pending' (the sweep has not copied the
    // settlement yet) or the settled state (it has, perhaps since our read): both mean "this
    // round, over". Round and attempt in the filter keep a settled round from being reopened.
    await this.sessions
      .updateOne(
        { _id: id, webhook_state: { $in: ['pending', state] }, ...roundIs(round), ...attemptIs(attempt) },
        { $set: { webhook_state: 'pending', webhook_redeliveries: round + 1 } },
      )
      .exec();
    if (!won) return null;
    const opened = await this.findDeliverable(id);
    return opened && (opened.webhook_redeliveries ?? 0) === round + 1 && (opened.attempt ?? 1) === attempt
      ? opened
      : null;
  }

  private async markRound(id: string, attempt: number, round: number): Promise<boolean> {
    try {
      await this.rounds.create({
        _id: settlementId(id, round, attempt),
        session_id: id,
        round,
        attempt,
        opened_at: new Date(),
      });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  flush(): Promise<void> {
    return this.settlementWriter.flush();
  }

  private async insertSettlements(docs: WebhookSettlementDocument[]): Promise<void> {
    try {
      await this.settlements.insertMany(docs, { ordered: false });
    } catch (error) {
      const writeErrors = (error as { writeErrors?: Array<{ code?: number; err?: { code?: number } }> }).writeErrors;
      const onlyDuplicates = writeErrors?.every((e) => (e.code ?? e.err?.code) === DUPLICATE_KEY);
      if (!onlyDuplicates) throw error;
    }
  }
}
