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
  /**
   * The running request's lease: another request with the key answers 409 until then. The holder
   * renews it while it runs, so it lapses only when the holder has died (or answered 5xx); then the
   * next request with the key takes it over and re-runs.
   */
  locked_until: Date;
  /** Which claim holds the lease (a random id per run): only it may renew. Absent on records from before leases. */
  holder?: string;
  reserved_session_id: string;
  created_at: Date;
  expires_at: Date;
}

/**
 * The stored response of a key's request, under the record's `_id`. An insert rather than an
 * update of the record: on FerretDB an update costs tens of ms of its CPU and updates serialise,
 * while an insert is cheap (measured in benchmarks/results/api-layers.md).
 */
export interface IdempotentResponseDocument {
  _id: string;
  status: number;
  content_type: string | null;
  /** The first response's body, exactly as sent (ids and URLs only: no personal data). */
  body: string;
  expires_at: Date;
}

const recordSchema = new Schema<IdempotencyRecordDocument>(
  {
    _id: { type: String, required: true },
    request_hash: { type: String, required: true },
    locked_until: { type: Date, required: true },
    holder: { type: String, required: false },
    reserved_session_id: { type: String, required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// The expiry sweep's purge: "records whose 24 hours have passed". Not a TTL index: FerretDB 1.24
// refuses expireAfterSeconds. Reads treat an expired record as absent whether or not it is purged yet.
recordSchema.index({ expires_at: 1 });

const responseSchema = new Schema<IdempotentResponseDocument>(
  {
    _id: { type: String, required: true },
    status: { type: Number, required: true },
    content_type: { type: String, default: null },
    body: { type: String, required: true },
    expires_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// The expiry sweep's purge, as for the records.
responseSchema.index({ expires_at: 1 });

/**
 * One takeover of one lapsed lease, `_id` = record id + the lapsed lease's holder and end. Inserting it is the
 * atomic "one request takes the key over": FerretDB's conditional update is not atomic under
 * concurrency (ten racing updates on the same condition all report a match), its unique insert is.
 */
export interface IdempotencyTakeoverDocument {
  _id: string;
  expires_at: Date;
}

const takeoverSchema = new Schema<IdempotencyTakeoverDocument>(
  { _id: { type: String, required: true }, expires_at: { type: Date, required: true } },
  { versionKey: false },
);
takeoverSchema.index({ expires_at: 1 });

const modelOf = <T>(connection: Connection, name: string, schema: Schema<T>, collection: string): Model<T> =>
  (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema, collection);

export const idempotencyRecordModel = (connection: Connection) =>
  modelOf(connection, 'IdempotencyRecord', recordSchema, 'idempotency_keys');
export const idempotentResponseModel = (connection: Connection) =>
  modelOf(connection, 'IdempotentResponse', responseSchema, 'idempotency_responses');
export const idempotencyTakeoverModel = (connection: Connection) =>
  modelOf(connection, 'IdempotencyTakeover', takeoverSchema, 'idempotency_takeovers');
