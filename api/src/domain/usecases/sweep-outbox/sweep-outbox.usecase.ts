import { OutboxEntry } from '../../../data-access/webhook-outbox.repository';
import { webhookJobId } from '../../../jobs/job-names';
import { Logger } from '../../../shared/logger';

export interface SweepOutboxDeps {
  outbox: {
    listPending(limit: number): Promise<OutboxEntry[]>;
    isStillPending(id: string, round: number): Promise<boolean>;
  };
  queue: {
    webhookJobState(jobId: string): Promise<string | null>;
    removeFinishedWebhookJob(jobId: string): Promise<void>;
    enqueueDelivery(sessionId: string, status: 'VERIFIED' | 'FAILED', round: number): Promise<void>;
  };
  logger: Logger;
}

const PAGE = 500;

/**
 * Enqueues every delivery the store says is owed and the queue does not hold: the decision was
 * written but the process died (or Redis was away) before the enqueue, or Redis lost the job.
 * A job the queue finished while the store still says pending (its last write failed, or it
 * stalled too often) is replaced by a fresh one. Enqueueing is keyed by the job id, so racing the
 * normal enqueue at worst does nothing.
 */
export async function sweepOutbox(deps: SweepOutboxDeps): Promise<{ enqueued: number; requeued: number }> {
  let enqueued = 0;
  let requeued = 0;
  for (const entry of await deps.outbox.listPending(PAGE)) {
    if (entry.status !== 'VERIFIED' && entry.status !== 'FAILED') continue;
    const round = entry.webhook_redeliveries ?? 0;
    const jobId = webhookJobId(entry._id, entry.status, round);
    const state = await deps.queue.webhookJobState(jobId);
    if (state === null || state === 'unknown') {
      await deps.queue.enqueueDelivery(entry._id, entry.status, round);
      enqueued += 1;
    } else if ((state === 'completed' || state === 'failed') && (await deps.outbox.isStillPending(entry._id, round))) {
      await deps.queue.removeFinishedWebhookJob(jobId);
      await deps.queue.enqueueDelivery(entry._id, entry.status, round);
      requeued += 1;
    }
  }
  if (enqueued + requeued > 0) deps.logger.warn({ enqueued, requeued }, 'outbox sweep enqueued deliveries the queue did not hold');
  return { enqueued, requeued };
}
