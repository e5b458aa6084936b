import { Connection, Model, Schema } from 'mongoose';

/**
 * One Idempotency-Key as used by one API key. `_id` is a SHA-256 of both, so neither is stored;
 * inserting it is the atomic "first request wins" on MongoDB and FerretDB alike. The reserved
 * session id is drawn at that insert: whichever process runs (or, after a crash, re-runs) the
 * creation inserts the session under it, so one key can never make two sessions.
 */
export interface IdempotencyRecordDocument {
  _id: string;
  /** SHA-256 of method, path and the raw body: the same key with another request is refused. */
  request_hash: string;
  state: 'running' | 'done';
  /** While running: another request with the key answers 409 until then; after it, a re-run may take over. */
  locked_until: Date;
  reserved_session_id: string;
  status: number | null;
  content_type: string | null;
  /** The first response's body, exactly as sent (ids and URLs only: no personal data). */
  body: string | null;
  created_at: Date;
  expires_at: Date;
}

const recordSchema = new Schema<IdempotencyRecordDocument>(
  {
    _id: { type: String, required: true },
    request_hash: { type: String, required: true },
    state: { type: String, required: true, enum: ['running', 'done'] },
    locked_until: { type: Date, required: true },
    reserved_session_id: { type: String, required: true },
    status: { type: Number, default: null },
    content_type: { type: String, default: null },
    body: { type: String, default: null },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// The expiry sweep's purge: "records whose 24 hours have passed". Not a TTL index: FerretDB 1.24
// refuses expireAfterSeconds. Reads treat an expired record as absent whether or not it is purged yet.
recordSchema.index({ expires_at: 1 });

const MODEL_NAME = 'IdempotencyRecord';

export const idempotencyRecordModel = (connection: Connection): Model<IdempotencyRecordDocument> =>
  (connection.models[MODEL_NAME] as Model<IdempotencyRecordDocument> | undefined) ??
  connection.model<IdempotencyRecordDocument>(MODEL_NAME, recordSchema, 'idempotency_keys');
