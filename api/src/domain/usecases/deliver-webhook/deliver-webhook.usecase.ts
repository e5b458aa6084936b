import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { DeliveryLog } from '../../ports/delivery-log';
import { WebhookDeliveries } from '../../ports/webhook-outbox';
import { AttemptOutcome, WebhookSecrets, WebhookSender } from '../../ports/webhook-sender';
import { AttemptResult } from '../../webhooks/delivery-attempt';
import { signWebhook } from './sign-webhook';

export interface DeliverWebhookDeps {
  outbox: WebhookDeliveries;
  secrets: WebhookSecrets;
  sender: WebhookSender;
  log: DeliveryLog;
  clock: Clock;
  logger: Logger;
}

export interface DeliveryAttempt {
  sessionId: string;
  round: number;
  /** The session's attempt whose decision this delivers (undefined: whichever is current). */
  sessionAttempt?: number;
  /** 1-based number of this attempt, and how many the job is allowed in all. */
  attempt: number;
  maxAttempts: number;
}

/** Thrown to have the queue retry the attempt later (or give up after the last one). */
export class DeliveryAttemptFailed extends Error {}

const is2xx = (code: number | null) => code !== null && code >= 200 && code < 300;

/**
 * One attempt to deliver a decided session's stored result. The body is `result_body` as written
 * at decision time, byte for byte, and it is what both signatures cover. Every attempt is logged;
 * a 2xx settles the round as delivered, the last failed attempt as failed. Both records are
 * written before this returns, so the queue never acknowledges a job whose outcome is not stored.
 */
export async function deliverWebhook(deps: DeliverWebhookDeps, job: DeliveryAttempt): Promise<'delivered' | 'skipped'> {
  const session = await deps.outbox.findDeliverable(job.sessionId, job.sessionAttempt);
  // Already settled, or a newer redelivery round superseded this job: nothing is owed by it. (A
  // round settled moments ago may still read as pending until the sweep copies it over; the job
  // id makes such a second run rare, and receivers key on webhook-id for exactly this.)
  if (!session || session.webhook_state !== 'pending' || (session.webhook_redeliveries ?? 0) !== job.round)
    return 'skipped';
  if (!session.result_body || !session.webhook_delivery_id) {
    throw new Error(`session ${session._id} is pending delivery but has no result or delivery id`);
  }
  const now = deps.clock.now();
  const secret = await deps.secrets.webhookSecret(session.account_id);
  const outcome: AttemptOutcome = secret
    ? await deps.sender.send({
        url: session.webhook_url,
        body: session.result_body,
        headers: signWebhook(
          secret,
          session.webhook_delivery_id,
          Math.floor(now.getTime() / 1000),
          session.result_body,
        ),
      })
    : { statusCode: null, latencyMs: 0, error: 'the account has no webhook secret' };
  const delivered = is2xx(outcome.statusCode);
  const last = job.attempt >= job.maxAttempts;
  const result: AttemptResult = delivered ? 'delivered' : last ? 'failed' : 'retry_scheduled';
  await deps.log.record({
    session_id: session._id,
    account_id: session.account_id,
    environment: session.environment,
    delivery_id: session.webhook_delivery_id,
    round: job.round,
    attempt: job.attempt,
    attempted_at: now,
    status_code: outcome.statusCode,
    latency_ms: outcome.latencyMs,
    error: outcome.error,
    result,
  });
  const sessionAttempt = session.attempt ?? 1;
  const logFields = {
    session_id: session._id,
    session_attempt: sessionAttempt,
    delivery_id: session.webhook_delivery_id,
    attempt: job.attempt,
    round: job.round,
    status_code: outcome.statusCode,
  };
  if (delivered) {
    await deps.outbox.settle(session._id, job.round, 'delivered', now, sessionAttempt);
    deps.logger.debug(logFields, 'webhook delivered');
    return 'delivered';
  }
  if (last) await deps.outbox.settle(session._id, job.round, 'failed', now, sessionAttempt);
  deps.logger.warn(
    { ...logFields, err: outcome.error, result },
    last ? 'webhook delivery failed for good' : 'webhook attempt failed; will retry',
  );
  throw new DeliveryAttemptFailed(
    `attempt ${job.attempt}/${job.maxAttempts}: ${outcome.error ?? `HTTP ${outcome.statusCode}`}`,
  );
}
