import { Connection, Model, Schema } from 'mongoose';
import { SessionAttempt } from '../domain/session/session';

/**
 * A decided attempt of a session that was retried, as stored (see domain/session/session.ts).
 * `_id` is `${session_id}:${attempt}`, so writing it twice (a retry that died and was retried)
 * stores it once.
 */
export type SessionAttemptDocument = SessionAttempt;

const attemptSchema = new Schema<SessionAttemptDocument>(
  {
    _id: { type: String, required: true },
    session_id: { type: String, required: true },
    attempt: { type: Number, required: true },
    account_id: { type: String, required: true },
    environment: { type: String, required: true },
    status: { type: String, required: true },
    failure_reason: { type: String, default: null },
    result_body: { type: String, default: null },
    decided_at: { type: Date, default: null },
    webhook_url: { type: String, required: true },
    webhook_state: { type: String, required: true },
    webhook_delivery_id: { type: String, default: null },
    webhook_redeliveries: { type: Number, default: 0 },
    archived_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// GET /v1/sessions/{id}/attempts: "the attempts of one session".
attemptSchema.index({ session_id: 1, attempt: 1 });

const MODEL_NAME = 'SessionAttempt';

export const attemptId = (sessionId: string, attempt: number) => `${sessionId}:${attempt}`;

export const sessionAttemptModel = (connection: Connection): Model<SessionAttemptDocument> =>
  (connection.models[MODEL_NAME] as Model<SessionAttemptDocument> | undefined) ??
  connection.model<SessionAttemptDocument>(MODEL_NAME, attemptSchema, 'session_attempts');
