import { Connection, Schema } from 'mongoose';
import { SESSION_STATUSES } from '../domain/session-status';

/**
 * One document per session. Everything a transition changes lives in this one document so each
 * transition is a single conditional write (FerretDB has no multi-document transactions, and we
 * would not want them on this path anyway).
 */
export interface SessionDocument {
  _id: string;
  account_id: string;
  environment: 'sandbox' | 'production';
  status: (typeof SESSION_STATUSES)[number];
  failure_reason: string | null;
  return_url: string;
  webhook_url: string;
  /** Sealed at rest (see PERSONAL_SESSION_FIELDS); null once redacted. */
  expected_name: string | null;
  expected_dob: string | null;
  expected_address: string | null;
  locale: 'en' | 'fr';
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
  webhook_state: 'none' | 'pending' | 'delivered' | 'failed';
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

/**
 * The fields that hold personal data (or may: metadata is the client's), stored sealed by the
 * PII vault with `<session id>|<field>` bound in; the repositories open them on read.
 */
export const PERSONAL_SESSION_FIELDS = [
  'expected_name',
  'expected_dob',
  'expected_address',
  'metadata_json',
  'result_body',
  'report_json',
] as const;

const sessionSchema = new Schema<SessionDocument>(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    environment: { type: String, required: true, enum: ['sandbox', 'production'] },
    status: { type: String, required: true, enum: SESSION_STATUSES },
    failure_reason: { type: String, default: null },
    return_url: { type: String, required: true },
    webhook_url: { type: String, required: true },
    expected_name: { type: String, default: null },
    expected_dob: { type: String, default: null },
    expected_address: { type: String, default: null },
    locale: { type: String, required: true, enum: ['en', 'fr'] },
    metadata_json: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    started_at: { type: Date, default: null },
    decided_at: { type: Date, default: null },
    confidence: { type: Number, default: null },
    verified_until: { type: Date, default: null },
    credential_token: { type: String, default: null },
    result_body: { type: String, default: null },
    webhook_state: { type: String, required: true, enum: ['none', 'pending', 'delivered', 'failed'] },
    webhook_delivery_id: { type: String, default: null },
    webhook_redeliveries: { type: Number, default: 0 },
    attempt: { type: Number, default: 1 },
    decision_requested_at: { type: Date, default: null },
    sandbox_challenge: { type: [String], default: undefined },
    report_json: { type: String, default: null },
    billed: { type: Boolean, required: true },
    redacted_at: { type: Date, default: null },
    ledger_pending: { type: Boolean, default: undefined },
  },
  { versionKey: false },
);
// GET /v1/credentials/{token} and /c/{session_id}'s token lookup.
sessionSchema.index({ credential_token: 1 });
// Expiry sweep: "open sessions whose expires_at has passed".
sessionSchema.index({ status: 1, expires_at: 1 });
// Outbox sweep: "decided sessions whose webhook is still pending".
sessionSchema.index({ webhook_state: 1, decided_at: 1 });
// Decision sweep: "submitted sessions still waiting for their decision".
sessionSchema.index({ decision_requested_at: 1, status: 1 });
// Retention sweep: "ended sessions of this status, not redacted yet, ended before the cutoff".
sessionSchema.index({ redacted_at: 1, status: 1, decided_at: 1 });
// Billing sweep: "billable decisions whose ledger entry is not written yet".
sessionSchema.index({ ledger_pending: 1 });
// Per-account listings and usage reports.
sessionSchema.index({ account_id: 1, environment: 1, created_at: -1 });

export const sessionModel = (connection: Connection) =>
  connection.model<SessionDocument>('Session', sessionSchema, 'sessions');
