import { OutboxEntry } from '../../../data-access/webhook-outbox.repository';
import { webhookJobId } from '../../../jobs/job-names';
import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';

export interface SweepOutboxDeps {
  outbox: {
    listPending(limit: number): Promise<OutboxEntry[]>;
    settlementOf(id: string, round: number): Promise<'delivered' | 'failed' | null>;
    applySettlement(id: string, round: number, state: 'delivered' | 'failed'): Promise<void>;
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

const PAGE = 1_000;
/** A claim is normally written through within milliseconds; older than this, its writer is gone. */
const STALE_CLAIM_MS = 10_000;
/** Copying settlements onto sessions is bookkeeping: bounded per run so it never crowds out deliveries. */
const BOOKKEEPING_BUDGET_MS = 2_000;
const IN_FLIGHT = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * The outbox's safety net and bookkeeping, for each session still marked pending (oldest first):
 * - its job is queued or running: nothing to do;
 * - its round has settled (the worker records that apart from the session): copy it over, within
 *   a time budget (the rest waits for the next run);
 * - otherwise the delivery is owed: enqueue it if the queue does not hold it (the process died, or
 *   Redis was away, before the enqueue, or Redis lost it), or replace a job the queue finished
 *   without a settlement (it stalled too often, or its last write failed). Enqueueing is keyed by
 *   the job id, so racing the normal enqueue at worst does nothing.
 */
export async function sweepOutbox(deps: SweepOutboxDeps): Promise<{ rolledForward: number; settled: number; enqueued: number; requeued: number }> {
  const started = deps.clock.now().getTime();
  const rolledForward = await deps.transitions.rollForwardStaleClaims(new Date(started - STALE_CLAIM_MS));
  let settled = 0;
  let enqueued = 0;
  let requeued = 0;
  for (const entry of await deps.outbox.listPending(PAGE)) {
    if (entry.status !== 'VERIFIED' && entry.status !== 'FAILED') continue;
    const round = entry.webhook_redeliveries ?? 0;
    const jobId = webhookJobId(entry._id, entry.status, round);
    const state = await deps.queue.webhookJobState(jobId);
    if (state && IN_FLIGHT.has(state)) continue;
    const settlement = await deps.outbox.settlementOf(entry._id, round);
    if (settlement) {
      if (deps.clock.now().getTime() - started < BOOKKEEPING_BUDGET_MS) {
        await deps.outbox.applySettlement(entry._id, round, settlement);
        settled += 1;
      }
    } else if (state === null || state === 'unknown') {
      await deps.queue.enqueueDelivery(entry._id, entry.status, round);
      enqueued += 1;
    } else if (await deps.outbox.isStillPending(entry._id, round)) {
      await deps.queue.removeFinishedWebhookJob(jobId);
      await deps.queue.enqueueDelivery(entry._id, entry.status, round);
      requeued += 1;
    }
  }
  if (rolledForward + enqueued + requeued > 0) {
    deps.logger.warn({ rolled_forward: rolledForward, enqueued, requeued }, 'outbox sweep recovered deliveries the queue did not hold');
  }
  return { rolledForward, settled, enqueued, requeued };
}
