import { Connection, Schema } from 'mongoose';

export interface AccountDocument {
  _id: string;
  name: string;
  plan: string;
  watchlist: boolean;
  /** AES-256-GCM sealed: the worker must be able to sign with it, so it cannot be a one-way hash. */
  webhook_secret_sealed: string;
  created_at: Date;
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
  },
  { versionKey: false },
);

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
