import { Connection, Model, Schema } from 'mongoose';

export type AttemptResult = 'delivered' | 'retry_scheduled' | 'failed';

/** One webhook attempt: what was tried, when, and how it ended. Never the body or the URL. */
export interface DeliveryAttemptDocument {
  _id: string;
  session_id: string;
  account_id: string;
  environment: 'sandbox' | 'production';
  /** The Standard Webhooks `webhook-id`, the same on every attempt and redelivery of one result. */
  delivery_id: string;
  /** 0 for the delivery the decision triggered, n for the n-th admin redelivery. */
  round: number;
  /** 1 for the first try, then one more per retry. */
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  result: AttemptResult;
}

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
