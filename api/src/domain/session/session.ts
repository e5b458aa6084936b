import { DocumentChipMode } from '../chip/chip-verification';
import { Environment } from '../environment';
import { SessionStatus } from '../session-status';

/**
 * One session as the domain reads and writes it. Everything a transition changes lives in this
 * one record so each transition is a single conditional write (the store has no multi-document
 * transactions, and we would not want them on this path anyway). The store's schema is declared
 * over this type, so the two stay one definition.
 */
export interface Session {
  _id: string;
  account_id: string;
  environment: Environment;
  status: SessionStatus;
  failure_reason: string | null;
  return_url: string;
  webhook_url: string;
  /** Sealed at rest; null once redacted. */
  expected_name: string | null;
  expected_dob: string | null;
  expected_address: string | null;
  locale: 'en' | 'fr';
  /** Whether a passport chip reading is ignored, optional or required (absent = optional, sessions from before it). */
  document_chip?: DocumentChipMode;
  /** The metadata exactly as the client sent it (raw JSON text), so it is echoed byte for byte. */
  metadata_json: string | null;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
  started_at: Date | null;
  decided_at: Date | null;
  confidence: number | null;
  verified_until: Date | null;
  credential_token: string | null;
  /** The result resource serialized once at decision time: the API serves it and webhooks sign it. */
  result_body: string | null;
  /** Outbox: set in the same write as the decision; the webhook worker moves it on. */
  webhook_state: WebhookState;
  webhook_delivery_id: string | null;
  /** Admin redeliveries so far; each is a new delivery round with its own job id (absent = 0). */
  webhook_redeliveries?: number;
  /** The applicant submitted the capture: the decision is pending (expiry leaves such sessions alone). */
  decision_requested_at?: Date | null;
  /** Sandbox only: the liveness challenge pinned at creation (contract "Sandbox"). */
  sandbox_challenge?: string[] | null;
  /** The evidence report (scores, models, timings; no personal data), serialized at decision time. */
  report_json?: string | null;
  /** 1-based attempt number: a retry of a FAILED session starts the next one (absent = 1). */
  attempt?: number;
  billed: boolean;
  /** Personal data erased (POST /redact or the retention sweep); the result keeps its verdicts. */
  redacted_at?: Date | null;
  /** Billing outbox: set with a billable decision, cleared once its ledger entry is written. */
  ledger_pending?: boolean;
}

export type WebhookState = 'none' | 'pending' | 'delivered' | 'failed';

/** What a write may change: never the id, the owner or the creation time. */
export type SessionUpdate = Partial<Omit<Session, '_id' | 'account_id' | 'environment' | 'created_at'>> & {
  status?: SessionStatus;
};

/**
 * A decided attempt of a session that was retried: what the session held when the retry reset
 * it. Its result bytes are what GET /attempts serves, and its delivery fields let a webhook still
 * owed for it be delivered after the session has moved on.
 */
export type SessionAttempt = Pick<
  Session,
  | 'account_id'
  | 'environment'
  | 'status'
  | 'failure_reason'
  | 'result_body'
  | 'decided_at'
  | 'webhook_url'
  | 'webhook_state'
  | 'webhook_delivery_id'
  | 'webhook_redeliveries'
> & {
  _id: string;
  session_id: string;
  attempt: number;
  archived_at: Date;
};
