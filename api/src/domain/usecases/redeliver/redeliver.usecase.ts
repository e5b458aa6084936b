import { AppError } from '../../../shared/app-error';
import { Logger } from '../../../shared/logger';
import { WebhookRedelivery } from '../../ports/webhook-outbox';
import { WebhookDeliveryQueue } from '../../ports/webhook-queue';

export interface RedeliverDeps {
  outbox: WebhookRedelivery;
  queue: WebhookDeliveryQueue;
  logger: Logger;
}

/**
 * Admin: send a decided session's result again (a receiver lost it, or was down past the last
 * retry). The store is marked first, so if the enqueue fails the outbox sweep still sends it. The
 * webhook-id stays the same, so an idempotent receiver stores it once.
 */
export async function redeliverSession(deps: RedeliverDeps, sessionId: string) {
  const session = await deps.outbox.startRedelivery(sessionId);
  if (!session) {
    const current = await deps.outbox.findDeliverable(sessionId);
    if (!current) throw AppError.notFound('session');
    if ((await deps.outbox.effectiveState(current)) === 'pending') {
      throw AppError.conflict(
        'A delivery of this session is still in progress (pending); redeliver once it is delivered or failed.',
      );
    }
    throw AppError.conflict(
      `The session is ${current.status}${current.webhook_delivery_id ? '' : ' without a webhook'}; only a VERIFIED or FAILED session that had a webhook (not a cancellation) can be redelivered.`,
    );
  }
  const status = session.status as 'VERIFIED' | 'FAILED';
  const round = session.webhook_redeliveries ?? 0;
  let enqueued = true;
  try {
    await deps.queue.enqueueDelivery(session._id, status, round, session.attempt ?? 1);
  } catch (error) {
    enqueued = false;
    deps.logger.warn(
      { session_id: session._id, err: (error as Error).message },
      'redelivery enqueue failed; the outbox sweep will send it',
    );
  }
  return { session_id: session._id, status, delivery_id: session.webhook_delivery_id, round, enqueued };
}
