import { OutboxEntry } from '../../../data-access/webhook-outbox.repository';
import { webhookJobId } from '../../../jobs/job-names';
import { Clock } from '../../../shared/clock';
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
  /** Finishes transitions whose writer died between claiming them and writing the session. */
  transitions: { rollForwardStaleClaims(olderThan: Date): Promise<number> };
  clock: Clock;
  logger: Logger;
}

const PAGE = 500;
/** A claim is normally written through within milliseconds; older than this, its writer is gone. */
const STALE_CLAIM_MS = 10_000;

/**
 * Enqueues every delivery the store says is owed and the queue does not hold: the decision was
 * written but the process died (or Redis was away) before the enqueue, or Redis lost the job.
 * A job the queue finished while the store still says pending (its last write failed, or it
 * stalled too often) is replaced by a fresh one. Enqueueing is keyed by the job id, so racing the
 * normal enqueue at worst does nothing.
 */
export async function sweepOutbox(deps: SweepOutboxDeps): Promise<{ rolledForward: number; enqueued: number; requeued: number }> {
  const rolledForward = await deps.transitions.rollForwardStaleClaims(new Date(deps.clock.now().getTime() - STALE_CLAIM_MS));
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
  if (rolledForward + enqueued + requeued > 0) {
    deps.logger.warn({ rolled_forward: rolledForward, enqueued, requeued }, 'outbox sweep recovered deliveries the queue did not hold');
  }
  return { rolledForward, enqueued, requeued };
}
