import { DelayedError, Job } from 'bullmq';
import { deliverWebhook, DeliveryAttemptFailed } from '../../domain/usecases/deliver-webhook/deliver-webhook.usecase';
import { expireSession } from '../../domain/usecases/expire-session/expire-session.usecase';
import { sweepExpiry } from '../../domain/usecases/sweep-expiry/sweep-expiry.usecase';
import { sweepOutbox } from '../../domain/usecases/sweep-outbox/sweep-outbox.usecase';
import { endCapture } from '../../domain/usecases/capture/end-capture';
import { purgeDueCaptures } from '../../domain/usecases/capture/end-capture';
import { decideCapturedSession } from '../../domain/usecases/decide-captured-session/decide-captured-session.usecase';
import { sweepCaptures } from '../../domain/usecases/sweep-captures/sweep-captures.usecase';
import { redactSession } from '../../domain/usecases/redact-session/redact-session.usecase';
import { sweepBilling } from '../../domain/usecases/sweep-billing/sweep-billing.usecase';
import { sweepRetention } from '../../domain/usecases/sweep-retention/sweep-retention.usecase';
import { AppError } from '../../shared/app-error';
import { JobHandler } from '../../jobs/job-handlers';
import { DecideSessionPayload, DeliverWebhookPayload, ExpireSessionPayload, JOBS } from '../../jobs/job-names';
import { WEBHOOK_MAX_ATTEMPTS } from '../../jobs/webhook-retry-policy';
import { WorkerContext } from '../../compose-worker';
import { DeliveryOutcome, WorkerMetrics } from './worker-metrics';

/** An attempt that throws is retried by the queue unless it was the last one. */
function failedDeliveryOutcome(error: unknown, attempt: number, maxAttempts: number): DeliveryOutcome {
  if (!(error instanceof DeliveryAttemptFailed)) return 'error';
  return attempt >= maxAttempts ? 'failed' : 'retry_scheduled';
}

/** Job name → use case. Adding a job to job-names.ts without a line here stops the worker at start. */
export function workerJobHandlers(ctx: WorkerContext, metrics: WorkerMetrics): Record<string, JobHandler> {
  const captureDeps = {
    states: ctx.states,
    blobs: ctx.blobs,
    clock: ctx.clock,
    retentionHours: ctx.retentionHours,
  };
  const billing = { ledger: ctx.ledger, accounts: ctx.accounts, sessions: ctx.sessions, clock: ctx.clock };
  const readAny = async (id: string) => {
    const session = await ctx.sessions.findForApplicant(id);
    if (!session) throw AppError.notFound('session');
    return session;
  };
  const redactForRetention = (id: string) =>
    redactSession({ ...ctx, capture: captureDeps, billing }, readAny, id, {
      actor: { type: 'system', id: 'retention-sweep' },
      requestId: null,
    });
  // Expiry ends the current attempt's capture: a session's attempt is read when it ends.
  const endCurrentCapture = async (sessionId: string) => {
    const session = await ctx.sessions.findForApplicant(sessionId);
    if (session) await endCapture(captureDeps, sessionId, session.attempt ?? 1);
  };
  return {
    [JOBS.deliverWebhook]: async (job: Job<DeliverWebhookPayload>) => {
      const attempt = {
        sessionId: job.data.session_id,
        round: job.data.round ?? 0,
        sessionAttempt: job.data.session_attempt,
        attempt: job.attemptsMade + 1,
        maxAttempts: job.opts.attempts ?? WEBHOOK_MAX_ATTEMPTS,
      };
      const deps = {
        outbox: ctx.outbox,
        secrets: ctx.secrets,
        sender: ctx.sender,
        log: ctx.deliveryLog,
        clock: ctx.clock,
        logger: ctx.logger,
      };
      try {
        const outcome = await deliverWebhook(deps, attempt);
        metrics.webhookDelivery(outcome);
        return outcome;
      } catch (error) {
        metrics.webhookDelivery(failedDeliveryOutcome(error, attempt.attempt, attempt.maxAttempts));
        throw error;
      }
    },

    [JOBS.expireSession]: async (job: Job<ExpireSessionPayload>, token?: string) => {
      const outcome = await expireSession({ ...ctx, endCapture: endCurrentCapture }, job.data.session_id);
      if (outcome.kind === 'not-due') {
        // Fired early (clock skew, or expires_at moved): back onto the queue until it is due.
        await job.moveToDelayed(outcome.dueAt.getTime(), token);
        throw new DelayedError();
      }
      return outcome.kind;
    },

    [JOBS.sweepOutbox]: () =>
      sweepOutbox({ ...ctx, claimLookbackMs: 4 * ctx.config.OUTBOX_SWEEP_INTERVAL_SECONDS * 1000 }),
    [JOBS.sweepExpiry]: () => sweepExpiry({ ...ctx, endCapture: endCurrentCapture }),

    [JOBS.decideSession]: (job: Job<DecideSessionPayload>) => {
      // Without an inference service the job waits on its backoff, exactly as during an outage.
      if (!ctx.inference) throw new Error('no INFERENCE_URL configured: the decision waits');
      return decideCapturedSession(
        { ...ctx, ...captureDeps, inference: ctx.inference, metrics, billing },
        job.data.session_id,
        job.data.attempt,
      );
    },

    [JOBS.sweepCaptures]: () =>
      sweepCaptures({
        sessions: ctx.sessions,
        queue: ctx.queue,
        logger: ctx.logger,
        purgeDue: () => purgeDueCaptures(captureDeps),
      }),

    [JOBS.sweepRetention]: () =>
      sweepRetention({
        sessions: ctx.sessions,
        accounts: ctx.accounts,
        defaultDays: ctx.config.PII_RETENTION_DAYS,
        clock: ctx.clock,
        logger: ctx.logger,
        redact: redactForRetention,
      }),

    [JOBS.sweepBilling]: () => sweepBilling({ ...billing, logger: ctx.logger }),
  };
}
