import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DecisionQueue } from '../domain/ports/decision-queue';
import { DeliverWebhookPayload, ExpireSessionPayload, expiryJobId, JOBS, QUEUES, webhookJobId } from '../jobs/job-names';
import { AppError } from '../shared/app-error';

/** Finished jobs are kept for a bounded time and count so Redis memory stays flat. */
export const JOB_RETENTION = {
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
};

/** The BullMQ producer side: what the API enqueues. */
export class JobQueueRepository implements DecisionQueue {
  readonly webhooks: Queue<DeliverWebhookPayload>;
  readonly expiry: Queue<ExpireSessionPayload>;

  constructor(private readonly redis: Redis, prefix: string) {
    this.webhooks = new Queue(QUEUES.webhooks, { connection: redis, prefix });
    this.expiry = new Queue(QUEUES.expiry, { connection: redis, prefix });
  }

  async assertWritable(): Promise<void> {
    if (this.redis.status !== 'ready') {
      throw AppError.unavailable('The job queue is unreachable; nothing was changed. Retry shortly.');
    }
  }

  async enqueueWebhook(sessionId: string, status: 'VERIFIED' | 'FAILED'): Promise<void> {
    await this.webhooks.add(JOBS.deliverWebhook, { session_id: sessionId }, { jobId: webhookJobId(sessionId, status), ...JOB_RETENTION });
  }

  async scheduleExpiry(sessionId: string, at: Date): Promise<void> {
    const delay = Math.max(0, at.getTime() - Date.now());
    await this.expiry.add(JOBS.expireSession, { session_id: sessionId }, { jobId: expiryJobId(sessionId), delay, ...JOB_RETENTION });
  }

  async close(): Promise<void> {
    await Promise.all([this.webhooks.close(), this.expiry.close()]);
  }
}
