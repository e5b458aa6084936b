import { Connection, Model, Schema } from 'mongoose';
import { DeliveryAttemptRecord } from '../domain/webhooks/delivery-attempt';

export type { AttemptResult } from '../domain/webhooks/delivery-attempt';

/** One webhook attempt as stored (see domain/webhooks/delivery-attempt.ts). */
export type DeliveryAttemptDocument = DeliveryAttemptRecord;

const deliveryAttemptSchema = new Schema<DeliveryAttemptDocument>(
  {
    _id: { type: String, required: true },
    session_id: { type: String, required: true },
    account_id: { type: String, required: true },
    environment: { type: String, required: true, enum: ['sandbox', 'production'] },
    delivery_id: { type: String, required: true },
    round: { type: Number, required: true },
    attempt: { type: Number, required: true },
    attempted_at: { type: Date, required: true },
    status_code: { type: Number, default: null },
    latency_ms: { type: Number, required: true },
    error: { type: String, default: null },
    result: { type: String, required: true, enum: ['delivered', 'retry_scheduled', 'failed'] },
  },
  { versionKey: false },
);
// GET /v1/sessions/{id}/webhooks: "the attempts of this session, oldest first".
deliveryAttemptSchema.index({ session_id: 1, attempted_at: 1 });

const MODEL_NAME = 'WebhookDeliveryAttempt';

/** The API and the worker may each build the repository; a connection registers the model once. */
export const deliveryAttemptModel = (connection: Connection): Model<DeliveryAttemptDocument> =>
  (connection.models[MODEL_NAME] as Model<DeliveryAttemptDocument> | undefined) ??
  connection.model<DeliveryAttemptDocument>(MODEL_NAME, deliveryAttemptSchema, 'webhook_delivery_attempts');
