/**
 * Every queue and job the service uses, declared once. Workers refuse to start if a job here has
 * no handler; producers can only name what is listed.
 */
export const QUEUES = {
  webhooks: 'webhook-delivery',
  expiry: 'session-expiry',
  /** Submitted captures waiting for the checks and the decision. */
  decisions: 'decisions',
  /** Periodic safety nets (outbox and expiry sweeps), driven by one job scheduler each. */
  maintenance: 'maintenance',
} as const;

export const JOBS = {
  deliverWebhook: 'deliver-webhook',
  expireSession: 'expire-session',
  sweepOutbox: 'sweep-outbox',
  sweepExpiry: 'sweep-expiry',
  decideSession: 'decide-session',
  /** Re-enqueues decisions the queue lost and purges captures whose retention ran out. */
  sweepCaptures: 'sweep-captures',
  /** Redacts sessions past their personal-data retention (PII_RETENTION_DAYS or the account's). */
  sweepRetention: 'sweep-retention',
  /** Writes ledger entries owed for production decisions. */
  sweepBilling: 'sweep-billing',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
export type JobName = (typeof JOBS)[keyof typeof JOBS];

/** Which queue carries which job: a worker per queue dispatches on the job name. */
export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JOBS.deliverWebhook]: QUEUES.webhooks,
  [JOBS.expireSession]: QUEUES.expiry,
  [JOBS.sweepOutbox]: QUEUES.maintenance,
  [JOBS.sweepExpiry]: QUEUES.maintenance,
  [JOBS.decideSession]: QUEUES.decisions,
  [JOBS.sweepCaptures]: QUEUES.maintenance,
  [JOBS.sweepRetention]: QUEUES.maintenance,
  [JOBS.sweepBilling]: QUEUES.maintenance,
};

/** Payloads carry ids only: no personal data ever sits in Redis. */
export interface DeliverWebhookPayload {
  session_id: string;
  /** 0 for the delivery the decision triggered; n for the n-th admin redelivery. */
  round?: number;
  /** Which attempt's decision this delivers (absent: jobs queued before retries existed, attempt 1). */
  session_attempt?: number;
}
export interface ExpireSessionPayload {
  session_id: string;
}
export interface DecideSessionPayload {
  session_id: string;
  attempt: number;
}
export type SweepPayload = Record<string, never>;

/**
 * Attempt 1 keeps the ids jobs had before retries existed, so jobs already queued keep their
 * de-duplication; a later attempt is a new decision and a new timer, so it needs ids of its own
 * (the first attempt's finished jobs stay retained under theirs).
 */
const attemptPart = (attempt: number) => (attempt <= 1 ? '' : `.a${attempt}`);

/**
 * One delivery per decision: the job id is derived from what it delivers (BullMQ ids cannot
 * contain ':'). A redelivery is a new round with its own id, since the first job id stays taken
 * while BullMQ retains the finished job.
 */
export const webhookJobId = (sessionId: string, status: string, round = 0, attempt = 1) =>
  round === 0
    ? `${sessionId}${attemptPart(attempt)}.${status}`
    : `${sessionId}${attemptPart(attempt)}.${status}.r${round}`;
export const expiryJobId = (sessionId: string, attempt = 1) => `${sessionId}${attemptPart(attempt)}.expire`;
/** One decision per attempt, however many submits, sweeps or workers ask for it. */
export const decisionJobId = (sessionId: string, attempt: number) => `${sessionId}.decide.${attempt}`;

/** Scheduler ids: upserting the same id from every worker keeps exactly one schedule. */
export const SCHEDULES = {
  outboxSweep: 'outbox-sweep',
  expirySweep: 'expiry-sweep',
  captureSweep: 'capture-sweep',
  retentionSweep: 'retention-sweep',
  billingSweep: 'billing-sweep',
} as const;
