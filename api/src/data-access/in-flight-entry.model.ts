import { Connection, Model, Schema } from 'mongoose';

/**
 * One session's in-flight work of one kind (open, webhook owed, ledger entry owed, redaction
 * begun), keyed by the session id. The sweeps read these small collections instead of `sessions`:
 * on FerretDB (SQLite) any filter but {_id} reads a whole collection, and a whole `sessions` is the
 * store's history, while these hold only what is not finished. The session document stays the truth: a sweep reads
 * it by _id before acting, so an entry that outlived its work is dropped, never acted on.
 */
export interface InFlightEntryDocument {
  _id: string;
  /** The session attempt the work belongs to (a retry starts another). */
  attempt: number;
  /** Webhooks: the delivery round (0, then one per admin redelivery). */
  round?: number;
  /** Open sessions: the deadline, so the expiry sweep reads only the entries that are due. */
  due_at?: Date | null;
  /** Open sessions: the applicant submitted, a decision is owed (the decision sweep's list). */
  decision_requested_at?: Date | null;
  /** When the entry was last written: a sweep drops a stale entry only when it is this old and unchanged. */
  since: Date;
}

const entrySchema = new Schema<InFlightEntryDocument>(
  {
    _id: { type: String, required: true },
    attempt: { type: Number, required: true },
    round: { type: Number, default: undefined },
    due_at: { type: Date, default: undefined },
    decision_requested_at: { type: Date, default: undefined },
    since: { type: Date, required: true },
  },
  { versionKey: false },
);
// The expiry sweep on MongoDB: "open sessions whose deadline has passed".
entrySchema.index({ due_at: 1 });
// The decision sweep on MongoDB: "submitted sessions still open" .
entrySchema.index({ decision_requested_at: 1 });
// The outbox and billing sweeps, oldest first.
entrySchema.index({ since: 1 });

export const IN_FLIGHT_COLLECTIONS = {
  open: 'open_sessions',
  webhooks: 'pending_webhooks',
  ledger: 'pending_ledger_entries',
  redactions: 'unfinished_redactions',
} as const;
export type InFlightKind = keyof typeof IN_FLIGHT_COLLECTIONS;

const MODEL_NAMES: Record<InFlightKind, string> = {
  open: 'OpenSession',
  webhooks: 'PendingWebhook',
  ledger: 'PendingLedgerEntry',
  redactions: 'UnfinishedRedaction',
};

/** The API and the worker each build these; a connection registers a model once. */
export function inFlightModel(connection: Connection, kind: InFlightKind): Model<InFlightEntryDocument> {
  const name = MODEL_NAMES[kind];
  return (
    (connection.models[name] as Model<InFlightEntryDocument> | undefined) ??
    connection.model<InFlightEntryDocument>(name, entrySchema, IN_FLIGHT_COLLECTIONS[kind])
  );
}
