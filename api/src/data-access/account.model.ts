import { Connection, Schema } from 'mongoose';
import type { CaptureIntegrityPolicy } from '../domain/capture/capture-integrity';

export interface AccountDocument {
  _id: string;
  name: string;
  plan: string;
  watchlist: boolean;
  /** Sealed by the vault (account id bound in): the worker must be able to sign with it, so it cannot be a one-way hash. */
  webhook_secret_sealed: string;
  created_at: Date;
  /** Plan changes, each from its effective instant; `plan` applies before the first (absent = none). */
  plan_changes?: Array<{ plan: string; effective_from: Date }>;
  /** Billing country when a document's country cannot be read (ISO 3166-1 alpha-2; absent = plans.json's fallback). */
  default_country?: string | null;
  /** Overrides PII_RETENTION_DAYS for this account (absent = the deployment's). */
  pii_retention_days?: number | null;
  /** known_face: 'report' (the default) or 'fail'. */
  known_face_policy?: 'report' | 'fail' | null;
  /** What a flagged capture-integrity signal does (absent = report). */
  capture_integrity_policy?: CaptureIntegrityPolicy | null;
}

/** API keys live in their own collection keyed by their SHA-256, so authentication is one _id read. */
export interface ApiKeyDocument {
  _id: string; // sha256(key), hex
  account_id: string;
  environment: 'sandbox' | 'production';
  /** First characters after the prefix, to tell keys apart in admin output without storing them. */
  hint: string;
  created_at: Date;
  /** Set on rotation; the key stops authenticating at this instant. */
  expires_at: Date | null;
}

const accountSchema = new Schema<AccountDocument>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    plan: { type: String, required: true },
    watchlist: { type: Boolean, required: true },
    webhook_secret_sealed: { type: String, required: true },
    created_at: { type: Date, required: true },
    plan_changes: { type: [{ _id: false, plan: String, effective_from: Date }], default: undefined },
    default_country: { type: String, default: null },
    pii_retention_days: { type: Number, default: null },
    known_face_policy: { type: String, enum: ['report', 'fail', null], default: null },
    capture_integrity_policy: { type: String, default: null },
  },
  { versionKey: false },
);

// Retention sweep: "accounts that override the deployment's retention".
accountSchema.index({ pii_retention_days: 1 });

const apiKeySchema = new Schema<ApiKeyDocument>(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    environment: { type: String, required: true, enum: ['sandbox', 'production'] },
    hint: { type: String, required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, default: null },
  },
  { versionKey: false },
);
// Rotation: "the live keys of this account in this environment".
apiKeySchema.index({ account_id: 1, environment: 1 });

export function accountModels(connection: Connection) {
  return {
    Account: connection.model<AccountDocument>('Account', accountSchema, 'accounts'),
    ApiKey: connection.model<ApiKeyDocument>('ApiKey', apiKeySchema, 'api_keys'),
  };
}
