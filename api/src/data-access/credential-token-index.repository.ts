import { Connection, Model, Schema } from 'mongoose';
import { upsertById } from './in-flight-index.repository';

/**
 * Credential token → session id, keyed by the token, so GET /v1/credentials/{token} is two reads
 * by _id (pushed down to FerretDB's _id index) instead of a filter on `sessions.credential_token`,
 * which FerretDB (SQLite) answers by reading every session. Written before the decision that
 * issues the token; the session stays the truth (a token it no longer holds finds nothing).
 */
export interface CredentialTokenDocument {
  _id: string;
  session_id: string;
}

const schema = new Schema<CredentialTokenDocument>(
  { _id: { type: String, required: true }, session_id: { type: String, required: true } },
  { versionKey: false },
);
// A session's tokens (redaction, support): rare, and served by an index on MongoDB.
schema.index({ session_id: 1 });

const MODEL_NAME = 'CredentialToken';

export class CredentialTokenIndex {
  readonly model: Model<CredentialTokenDocument>;

  constructor(connection: Connection) {
    this.model =
      (connection.models[MODEL_NAME] as Model<CredentialTokenDocument> | undefined) ??
      connection.model<CredentialTokenDocument>(MODEL_NAME, schema, 'credential_tokens');
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  /** Idempotent: a token is random and issued to one session, so a repeat writes the same pair. */
  async record(token: string, sessionId: string): Promise<void> {
    await upsertById(this.model, token, { $set: { session_id: sessionId } });
  }

  async sessionOf(token: string): Promise<string | null> {
    const doc = await this.model.findById(token).lean<CredentialTokenDocument>().exec();
    return doc?.session_id ?? null;
  }
}
