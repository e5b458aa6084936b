import { Session, WebhookState } from '../session/session';

export type SettledState = 'delivered' | 'failed';
export type OutboxEntry = Pick<Session, '_id' | 'status' | 'webhook_redeliveries' | 'attempt'>;
/** What delivering a session's result reads: no personal field but the result it sends. */
export type DeliverableSession = Pick<
  Session,
  | '_id'
  | 'account_id'
  | 'environment'
  | 'status'
  | 'webhook_url'
  | 'result_body'
  | 'webhook_state'
  | 'webhook_delivery_id'
  | 'webhook_redeliveries'
  | 'attempt'
>;

/**
 * The webhook outbox: a decision marks its webhook pending in the same write; each delivery round
 * is settled apart from the session (insert-only, the first record wins) and copied onto it later.
 */
export interface WebhookDeliveries {
  /** The session, or the archived attempt `sessionAttempt` when the session has been retried since. */
  findDeliverable(id: string, sessionAttempt?: number): Promise<DeliverableSession | null>;
  settle(id: string, round: number, state: SettledState, at: Date, sessionAttempt?: number): Promise<void>;
}

/** The state as integrators see it: a pending session whose round has settled is settled. */
export interface WebhookStateView {
  effectiveState(
    session: Pick<Session, '_id' | 'webhook_state' | 'webhook_redeliveries' | 'attempt'>,
  ): Promise<WebhookState>;
}

export interface WebhookRedelivery extends WebhookStateView {
  /** Opens a new round for a decided session whose last round settled; null when it may not. */
  startRedelivery(id: string): Promise<DeliverableSession | null>;
  findDeliverable(id: string): Promise<DeliverableSession | null>;
}

/** The outbox sweep's reads and bookkeeping. */
export interface OutboxSweepStore {
  /** Oldest first, a bounded page. */
  listPending(limit: number): Promise<OutboxEntry[]>;
  settlementOf(id: string, round: number, attempt?: number): Promise<SettledState | null>;
  applySettlement(id: string, round: number, state: SettledState, attempt?: number): Promise<void>;
  isStillPending(id: string, round: number, attempt?: number): Promise<boolean>;
}
