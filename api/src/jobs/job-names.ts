/**
 * Every queue and job the service uses, declared once. Workers refuse to start if a job here has
 * no handler; producers can only name what is listed.
 */
export const QUEUES = {
  webhooks: 'webhook-delivery',
  expiry: 'session-expiry',
} as const;

export const JOBS = {
  deliverWebhook: 'deliver-webhook',
  expireSession: 'expire-session',
} as const;

export type JobName = (typeof JOBS)[keyof typeof JOBS];

/** Payloads carry ids only: no personal data ever sits in Redis. */
export interface DeliverWebhookPayload {
  session_id: string;
}
export interface ExpireSessionPayload {
  session_id: string;
}

/** One delivery per decision: the job id is derived from what it delivers. */
export const webhookJobId = (sessionId: string, status: string) => `${sessionId}.${status}`;
export const expiryJobId = (sessionId: string) => `${sessionId}.expire`;
