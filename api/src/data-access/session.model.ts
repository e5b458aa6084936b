import { Connection, Schema } from 'mongoose';
import { DOCUMENT_CHIP_MODES } from '../domain/chip/chip-verification';
import { Session } from '../domain/session/session';
import { SESSION_STATUSES } from '../domain/session-status';

/** One document per session: the domain's session as stored (see domain/session/session.ts). */
export type SessionDocument = Session;

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
    document_chip: { type: String, enum: DOCUMENT_CHIP_MODES, default: undefined },
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
