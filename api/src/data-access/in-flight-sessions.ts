import { Connection } from 'mongoose';
import { OPEN_STATUSES, SessionStatus } from '../domain/session-status';
import { CredentialTokenIndex } from './credential-token-index.repository';
import { OpenSessionIndex } from './open-session-index.repository';
import { PendingLedgerIndex } from './pending-ledger-index.repository';
import { PendingWebhookIndex } from './pending-webhook-index.repository';
import { SessionDocument } from './session.model';
import { UnfinishedRedactionIndex } from './unfinished-redaction-index.repository';

type Written = Partial<
  Pick<
    SessionDocument,
    | 'status'
    | 'attempt'
    | 'expires_at'
    | 'webhook_state'
    | 'webhook_redeliveries'
    | 'ledger_pending'
    | 'credential_token'
  >
>;

/**
 * The keyed collections that mirror a session's unfinished work, kept in step with the session
 * writes: `before` runs ahead of a write (insert, transition, claim roll-forward) and records what
 * the write will leave owed; `after` removes the open entry of a session the write closed. A crash
 * between the two leaves an entry the sweeps re-check against the session, never work unseen.
 */
export class InFlightSessions {
  readonly open: OpenSessionIndex;
  readonly webhooks: PendingWebhookIndex;
  readonly ledger: PendingLedgerIndex;
  readonly tokens: CredentialTokenIndex;
  readonly redactions: UnfinishedRedactionIndex;

  constructor(connection: Connection) {
    this.open = new OpenSessionIndex(connection);
    this.webhooks = new PendingWebhookIndex(connection);
    this.ledger = new PendingLedgerIndex(connection);
    this.tokens = new CredentialTokenIndex(connection);
    this.redactions = new UnfinishedRedactionIndex(connection);
  }

  async init(): Promise<void> {
    await Promise.all([
      this.open.index.init(),
      this.webhooks.index.init(),
      this.ledger.index.init(),
      this.tokens.init(),
      this.redactions.index.init(),
    ]);
  }

  /**
   * Ahead of a write of `update` onto session `id` (as `current` was read; absent for a new
   * session or a roll-forward): opening or reopening tracks the deadline, a pending webhook or
   * ledger entry is tracked, an issued credential token is recorded.
   */
  async before(id: string, update: Written, current?: Written): Promise<void> {
    const attempt = update.attempt ?? current?.attempt ?? 1;
    const writes: Array<Promise<void>> = [];
    const opens =
      update.status !== undefined &&
      OPEN_STATUSES.includes(update.status) &&
      !(current?.status && OPEN_STATUSES.includes(current.status));
    const deadline = update.expires_at ?? current?.expires_at;
    if (
      (opens || update.expires_at) &&
      deadline &&
      (update.status === undefined || OPEN_STATUSES.includes(update.status))
    )
      writes.push(this.open.track(id, attempt, new Date(deadline)));
    if (update.webhook_state === 'pending')
      writes.push(this.webhooks.track(id, attempt, update.webhook_redeliveries ?? current?.webhook_redeliveries ?? 0));
    if (update.ledger_pending) writes.push(this.ledger.track(id, attempt));
    if (update.credential_token) writes.push(this.tokens.record(update.credential_token, id));
    await Promise.all(writes);
  }

  /**
   * Ahead of the insert of a new session: an open session owes only its deadline, written with
   * one insert; anything else it would owe goes the way of `before`.
   */
  async beforeInsert(id: string, session: Written): Promise<void> {
    const { status, expires_at: deadline } = session;
    const owesMore = session.webhook_state === 'pending' || session.ledger_pending || session.credential_token;
    if (status && OPEN_STATUSES.includes(status) && deadline && !owesMore)
      await this.open.opened(id, session.attempt ?? 1, new Date(deadline));
    else await this.before(id, session);
  }

  /** After a write that moved the session out of the open statuses: its open entry goes. */
  async after(id: string, attempt: number, status: SessionStatus | undefined): Promise<void> {
    if (status !== undefined && !OPEN_STATUSES.includes(status)) await this.open.closed(id, attempt);
  }
}
