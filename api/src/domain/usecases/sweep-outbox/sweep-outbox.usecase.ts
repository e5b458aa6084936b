import { webhookJobId } from '../../../jobs/job-names';
import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { ClaimRecovery } from '../../ports/session-transitions';
import { OutboxSweepStore } from '../../ports/webhook-outbox';
import { WebhookJobs } from '../../ports/webhook-queue';

export interface SweepOutboxDeps {
  outbox: OutboxSweepStore;
  /** Deliveries waiting for a worker: bookkeeping yields to them. */
  queue: WebhookJobs;
  /** Finishes transitions whose writer died between claiming them and writing the session. */
  claims: ClaimRecovery;
  /** How far back to look for such claims: a few sweep intervals, so each claim is seen a few times. */
  claimLookbackMs: number;
  clock: Clock;
  logger: Logger;
}

const PAGE = 1_000;
/** A claim is normally written through within milliseconds; older than this, its writer is gone. */
const STALE_CLAIM_MS = 10_000;
/** Copying settlements onto sessions is bookkeeping: bounded per run, and skipped while deliveries queue up. */
const BOOKKEEPING_BUDGET_MS = 2_000;
const BUSY_BACKLOG = 100;
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
export async function sweepOutbox(
  deps: SweepOutboxDeps,
): Promise<{ rolledForward: number; settled: number; enqueued: number; requeued: number }> {
  const started = deps.clock.now().getTime();
  const staleBefore = started - STALE_CLAIM_MS;
  const rolledForward = await deps.claims.rollForwardClaimedBetween(
    new Date(staleBefore - deps.claimLookbackMs),
    new Date(staleBefore),
  );
  const bookkeeping = (await deps.queue.deliveryBacklog()) < BUSY_BACKLOG;
  const withinBudget = () => bookkeeping && deps.clock.now().getTime() - started < BOOKKEEPING_BUDGET_MS;
  let settled = 0;
  let enqueued = 0;
  let requeued = 0;
  for (const entry of await deps.outbox.listPending(PAGE)) {
    if (entry.status !== 'VERIFIED' && entry.status !== 'FAILED') continue;
    const round = entry.webhook_redeliveries ?? 0;
    const attempt = entry.attempt ?? 1;
    const jobId = webhookJobId(entry._id, entry.status, round, attempt);
    const state = await deps.queue.webhookJobState(jobId);
    if (state && IN_FLIGHT.has(state)) continue;
    // A completed job settled its round before completing: only bookkeeping is left to do.
    if (state === 'completed' && !withinBudget()) continue;
    const settlement = await deps.outbox.settlementOf(entry._id, round, attempt);
    if (settlement) {
      if (withinBudget()) {
        await deps.outbox.applySettlement(entry._id, round, settlement, attempt);
        settled += 1;
      }
    } else if (state === null || state === 'unknown') {
      await deps.queue.enqueueDelivery(entry._id, entry.status, round, attempt);
      enqueued += 1;
    } else if (await deps.outbox.isStillPending(entry._id, round, attempt)) {
      await deps.queue.removeFinishedWebhookJob(jobId);
      await deps.queue.enqueueDelivery(entry._id, entry.status, round, attempt);
      requeued += 1;
    }
  }
  if (rolledForward + enqueued + requeued > 0) {
    deps.logger.warn(
      { rolled_forward: rolledForward, enqueued, requeued },
      'outbox sweep recovered deliveries the queue did not hold',
    );
  }
  return { rolledForward, settled, enqueued, requeued };
}
