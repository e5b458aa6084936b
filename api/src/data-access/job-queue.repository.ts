import { JobState, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DecisionQueue } from '../domain/ports/decision-queue';
import { WebhookJobs } from '../domain/ports/webhook-queue';
import { DECISION_BACKOFF, DECISION_MAX_ATTEMPTS } from '../jobs/decision-retry-policy';
import {
  DecideSessionPayload,
  decisionJobId,
  DeliverWebhookPayload,
  ExpireSessionPayload,
  expiryJobId,
  JOBS,
  QUEUES,
  SCHEDULES,
  SweepPayload,
  webhookJobId,
} from '../jobs/job-names';
import { LINEAR_BACKOFF, WEBHOOK_MAX_ATTEMPTS } from '../jobs/webhook-retry-policy';
import { AppError } from '../shared/app-error';
import { QueueHealth } from './queue-health';
import { withTimeout } from './with-timeout';

/** Finished jobs are kept for a bounded time and count so Redis memory stays flat. */
export const JOB_RETENTION = {
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
};

/**
 * The connection retries forever (BullMQ needs that), so a command sent while Redis is down would
 * wait for it to come back. Callers on a request path give up after this long instead; the outbox
 * sweep and the expiry sweep make up for anything not enqueued.
 */
const ENQUEUE_TIMEOUT_MS = 3_000;

export type WebhookStatus = 'VERIFIED' | 'FAILED';

/** The BullMQ producer side: what the API, the admin command and the sweeps enqueue. */
export class JobQueueRepository implements DecisionQueue, WebhookJobs {
  readonly webhooks: Queue<DeliverWebhookPayload>;
  readonly expiry: Queue<ExpireSessionPayload>;
  readonly maintenance: Queue<SweepPayload>;
  readonly decisions: Queue<DecideSessionPayload>;
  private readonly health: QueueHealth;

  /**
   * `onConnectionError` hears the connection's errors while Redis is away (BullMQ would print
   * them raw otherwise); the operations themselves still fail or wait as described below.
   */
  constructor(
    private readonly redis: Redis,
    prefix: string,
    onConnectionError: (error: Error) => void = () => undefined,
  ) {
    this.webhooks = new Queue(QUEUES.webhooks, { connection: redis, prefix });
    this.expiry = new Queue(QUEUES.expiry, { connection: redis, prefix });
    this.maintenance = new Queue(QUEUES.maintenance, { connection: redis, prefix });
    this.decisions = new Queue(QUEUES.decisions, { connection: redis, prefix });
    for (const queue of [this.webhooks, this.expiry, this.maintenance, this.decisions])
      queue.on('error', onConnectionError);
    this.health = new QueueHealth(redis);
  }

  /** Readiness: Redis answers and will never evict a job (maxmemory-policy noeviction). */
  checkReady(): Promise<void> {
    return this.health.check();
  }

  async assertWritable(): Promise<void> {
    try {
      await this.health.check();
    } catch (error) {
      throw AppError.unavailable(
        `The job queue is not usable (${(error as Error).message}); nothing was changed. Retry shortly.`,
      );
    }
  }

  async enqueueWebhook(sessionId: string, status: WebhookStatus, sessionAttempt = 1): Promise<void> {
    await this.enqueueDelivery(sessionId, status, 0, sessionAttempt);
  }

  /** Adding an id the queue already holds is a no-op, so this is safe to call from anywhere. */
  async enqueueDelivery(sessionId: string, status: WebhookStatus, round: number, sessionAttempt = 1): Promise<void> {
    const add = this.webhooks.add(
      JOBS.deliverWebhook,
      { session_id: sessionId, round, session_attempt: sessionAttempt },
      {
        jobId: webhookJobId(sessionId, status, round, sessionAttempt),
        attempts: WEBHOOK_MAX_ATTEMPTS,
        backoff: { type: LINEAR_BACKOFF },
        ...JOB_RETENTION,
      },
    );
    await withTimeout(add, ENQUEUE_TIMEOUT_MS, 'webhook enqueue');
  }

  /** Deliveries waiting for a worker (not counting scheduled retries). */
  deliveryBacklog(): Promise<number> {
    return this.webhooks.getWaitingCount();
  }

  /** The state of a delivery job, or null when the queue does not hold it (never added, or removed). One round trip. */
  async webhookJobState(jobId: string): Promise<JobState | null> {
    const state = await this.webhooks.getJobState(jobId);
    return state === 'unknown' ? null : state;
  }

  /** Drops a finished job so its id can carry a fresh delivery (used when the store says it is still owed). */
  async removeFinishedWebhookJob(jobId: string): Promise<void> {
    const job = await this.webhooks.getJob(jobId);
    if (job && ((await job.isCompleted()) || (await job.isFailed()))) await job.remove();
  }

  /** One job per session attempt (ids only); adding it again while the queue holds it is a no-op. */
  async enqueueDecision(sessionId: string, attempt: number): Promise<void> {
    const add = this.decisions.add(
      JOBS.decideSession,
      { session_id: sessionId, attempt },
      {
        jobId: decisionJobId(sessionId, attempt),
        attempts: DECISION_MAX_ATTEMPTS,
        backoff: { type: DECISION_BACKOFF },
        ...JOB_RETENTION,
      },
    );
    await withTimeout(add, ENQUEUE_TIMEOUT_MS, 'decision enqueue');
  }

  /** Decisions not yet made: waiting, retrying after an inference outage, or running. */
  async pendingDecisions(): Promise<number> {
    const counts = await this.decisions.getJobCounts('waiting', 'delayed', 'active', 'prioritized', 'waiting-children');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  /** Jobs per queue and state, for the queue-depth gauge (one round trip per queue). */
  async queueDepths(): Promise<Array<{ queue: string; state: string; jobs: number }>> {
    const states = ['waiting', 'delayed', 'active', 'prioritized', 'failed'] as const;
    const perQueue = await Promise.all(
      [this.webhooks, this.expiry, this.maintenance, this.decisions].map(async (queue) => {
        const counts = await queue.getJobCounts(...states);
        return states.map((state) => ({ queue: queue.name, state, jobs: counts[state] ?? 0 }));
      }),
    );
    return perQueue.flat();
  }

  async scheduleExpiry(sessionId: string, at: Date, sessionAttempt = 1): Promise<void> {
    const delay = Math.max(0, at.getTime() - Date.now());
    const add = this.expiry.add(
      JOBS.expireSession,
      { session_id: sessionId },
      { jobId: expiryJobId(sessionId, sessionAttempt), delay, ...JOB_RETENTION },
    );
    await withTimeout(add, ENQUEUE_TIMEOUT_MS, 'expiry scheduling');
  }

  /**
   * One scheduler per sweep, keyed by a fixed id: every worker upserts the same two, so however
   * many run there is exactly one schedule of each (and a changed interval replaces the old one).
   */
  async scheduleSweeps(outboxEveryMs: number, expiryEveryMs: number, lifecycleEveryMs = 60_000): Promise<void> {
    const retention = { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } };
    // Captures ride on the outbox's interval: both are "something owed that a crash may have dropped".
    await this.maintenance.upsertJobScheduler(
      SCHEDULES.captureSweep,
      { every: outboxEveryMs },
      { name: JOBS.sweepCaptures, data: {}, opts: retention },
    );
    await this.maintenance.upsertJobScheduler(
      SCHEDULES.outboxSweep,
      { every: outboxEveryMs },
      { name: JOBS.sweepOutbox, data: {}, opts: retention },
    );
    await this.maintenance.upsertJobScheduler(
      SCHEDULES.expirySweep,
      { every: expiryEveryMs },
      { name: JOBS.sweepExpiry, data: {}, opts: retention },
    );
    await this.maintenance.upsertJobScheduler(
      SCHEDULES.retentionSweep,
      { every: lifecycleEveryMs },
      { name: JOBS.sweepRetention, data: {}, opts: retention },
    );
    await this.maintenance.upsertJobScheduler(
      SCHEDULES.billingSweep,
      { every: lifecycleEveryMs },
      { name: JOBS.sweepBilling, data: {}, opts: retention },
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.webhooks.close(), this.expiry.close(), this.maintenance.close(), this.decisions.close()]);
  }
}
