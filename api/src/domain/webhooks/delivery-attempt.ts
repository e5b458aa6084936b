import { Environment } from '../environment';

export type AttemptResult = 'delivered' | 'retry_scheduled' | 'failed';

/** One webhook attempt: what was tried, when, and how it ended. Never the body or the URL. */
export interface DeliveryAttemptRecord {
  _id: string;
  session_id: string;
  account_id: string;
  environment: Environment;
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

/** An attempt to record: the log gives it its id. */
export type NewDeliveryAttempt = Omit<DeliveryAttemptRecord, '_id'>;
