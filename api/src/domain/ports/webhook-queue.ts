/** What the webhook use cases need from the job queue (the decision side is DecisionQueue). */
export interface WebhookDeliveryQueue {
  /** De-duplicated by session, status, round and attempt: the same round enqueued twice is one job. */
  enqueueDelivery(sessionId: string, status: 'VERIFIED' | 'FAILED', round: number, attempt?: number): Promise<void>;
}

/** The outbox sweep's view of the delivery jobs. */
export interface WebhookJobs extends WebhookDeliveryQueue {
  /** Deliveries waiting for a worker. */
  deliveryBacklog(): Promise<number>;
  /** The job's state in the queue ('active', 'completed', …), or null when the queue does not hold it. */
  webhookJobState(jobId: string): Promise<string | null>;
  removeFinishedWebhookJob(jobId: string): Promise<void>;
}
