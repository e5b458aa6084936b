import { Connection, Model, Schema } from 'mongoose';

/**
 * How a delivery round ended. `_id` is `${session_id}.${round}`: inserting it is atomic and
 * idempotent on MongoDB and FerretDB alike, and cheap to batch, so the delivery worker records
 * the end of a round without updating the session document on its hot path (FerretDB updates
 * cost ~10-30 ms each here and serialise). The outbox sweep later copies it onto the session.
 */
export interface WebhookSettlementDocument {
  _id: string;
  session_id: string;
  round: number;
  state: 'delivered' | 'failed';
  settled_at: Date;
}

const settlementSchema = new Schema<WebhookSettlementDocument>(
  {
    _id: { type: String, required: true },
    session_id: { type: String, required: true },
    round: { type: Number, required: true },
    state: { type: String, required: true, enum: ['delivered', 'failed'] },
    settled_at: { type: Date, required: true },
  },
  { versionKey: false },
);

const MODEL_NAME = 'WebhookSettlement';

export const settlementId = (sessionId: string, round: number) => `${sessionId}.${round}`;

export const webhookSettlementModel = (connection: Connection): Model<WebhookSettlementDocument> =>
  (connection.models[MODEL_NAME] as Model<WebhookSettlementDocument> | undefined) ??
  connection.model<WebhookSettlementDocument>(MODEL_NAME, settlementSchema, 'webhook_settlements');
