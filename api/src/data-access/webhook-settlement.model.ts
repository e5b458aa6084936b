import { Connection, Model, Schema } from 'mongoose';

/**
 * How a delivery round ended. `_id` is `${session_id}.${round}` (`${session_id}.a${attempt}.${round}`
 * for a retried session's later attempts): inserting it is atomic and
 * idempotent on MongoDB and FerretDB alike, and cheap to batch, so the delivery worker records
 * the end of a round without updating the session document on its hot path (FerretDB updates
 * cost ~10-30 ms each here and serialise). The outbox sweep later copies it onto the session.
 */
export interface WebhookSettlementDocument {
  _id: string;
  session_id: string;
  round: number;
  attempt?: number;
  state: 'delivered' | 'failed';
  settled_at: Date;
}

const settlementSchema = new Schema<WebhookSettlementDocument>(
  {
    _id: { type: String, required: true },
    session_id: { type: String, required: true },
    round: { type: Number, required: true },
    attempt: { type: Number, default: 1 },
    state: { type: String, required: true, enum: ['delivered', 'failed'] },
    settled_at: { type: Date, required: true },
  },
  { versionKey: false },
);

const MODEL_NAME = 'WebhookSettlement';

export const settlementId = (sessionId: string, round: number, attempt = 1) =>
  attempt <= 1 ? `${sessionId}.${round}` : `${sessionId}.a${attempt}.${round}`;

export const webhookSettlementModel = (connection: Connection): Model<WebhookSettlementDocument> =>
  (connection.models[MODEL_NAME] as Model<WebhookSettlementDocument> | undefined) ??
  connection.model<WebhookSettlementDocument>(MODEL_NAME, settlementSchema, 'webhook_settlements');

/**
 * A redelivery round opened by an operator: inserted under the round's settlement id before the
 * session is moved to it. FerretDB applies a filtered update as read-then-write, so two racing
 * redeliveries could both match the session's settled round; the unique insert lets one win.
 */
export interface WebhookRoundDocument {
  _id: string;
  session_id: string;
  round: number;
  attempt: number;
  opened_at: Date;
}

const roundSchema = new Schema<WebhookRoundDocument>(
  {
    _id: { type: String, required: true },
    session_id: { type: String, required: true },
    round: { type: Number, required: true },
    attempt: { type: Number, required: true },
    opened_at: { type: Date, required: true },
  },
  { versionKey: false },
);

const ROUND_MODEL_NAME = 'WebhookRound';

export const webhookRoundModel = (connection: Connection): Model<WebhookRoundDocument> =>
  (connection.models[ROUND_MODEL_NAME] as Model<WebhookRoundDocument> | undefined) ??
  connection.model<WebhookRoundDocument>(ROUND_MODEL_NAME, roundSchema, 'webhook_rounds');
