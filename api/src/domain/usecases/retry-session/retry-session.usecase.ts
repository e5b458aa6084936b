import { AppError } from '../../../shared/app-error';
import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { Tenant } from '../../environment';
import { DecisionQueue } from '../../ports/decision-queue';
import { SessionAttemptArchive } from '../../ports/session-attempts';
import { TenantSessionStore } from '../../ports/tenant-sessions';
import { billDecision, BillDecisionDeps } from '../bill-decision/bill-decision.usecase';

/** contract.md, "Retry of a FAILED session": the first attempt and two retries. */
export const MAX_ATTEMPTS = 3;

export interface RetrySessionDeps {
  sessions: TenantSessionStore;
  attempts: Pick<SessionAttemptArchive, 'archive'>;
  queue: DecisionQueue;
  clock: Clock;
  logger: Logger;
  publicBaseUrl: string;
  expiryMinutes: number;
  billing: BillDecisionDeps;
}

/**
 * POST /v1/sessions/{id}/retry: a FAILED session (not a cancelled one) starts its next attempt
 * under the same id and URL. The steps are ordered so a crash between any two leaves nothing lost:
 * 1. the decided attempt is archived (idempotent), so its result stays readable;
 * 2. its webhook, if still owed, is put on the queue under the attempt's own job id, since the
 *    session will no longer show it as pending to the outbox sweep;
 * 3. one claimed transition FAILED → PENDING on this attempt resets the decision fields: of racing
 *    retries exactly one wins, the others get 409;
 * 4. the new attempt's expiry timer (the sweep covers a failed enqueue, as at creation).
 * Captures and the challenge are keyed by session and attempt, so the new attempt starts fresh.
 */
export async function retrySession(deps: RetrySessionDeps, tenant: Tenant, id: string) {
  const scoped = deps.sessions.forTenant(tenant);
  const current = await scoped.get(id);
  const attempt = current.attempt ?? 1;
  if (current.status !== 'FAILED')
    throw AppError.conflict(`The session is ${current.status}; only a FAILED session can be retried.`);
  if (current.failure_reason === 'CANCELLED_BY_API')
    throw AppError.conflict('A cancelled session cannot be retried; create a new session.');
  if (attempt >= MAX_ATTEMPTS)
    throw AppError.conflict(`The session has used all ${MAX_ATTEMPTS} attempts; create a new session.`);
  if (current.redacted_at) throw AppError.conflict('The session was redacted; create a new session.');
  await deps.queue.assertWritable();
  // The decided attempt's ledger entry, if still owed, is written before the reset moves past it.
  if (current.ledger_pending) await billDecision(deps.billing, current);
  const now = deps.clock.now();
  await deps.attempts.archive(current, now);
  if (current.webhook_state === 'pending') await deps.queue.enqueueWebhook(id, 'FAILED', attempt);
  const expiresAt = new Date(now.getTime() + deps.expiryMinutes * 60_000);
  const next = attempt + 1;
  await scoped.transition(
    id,
    ['FAILED'],
    {
      status: 'PENDING',
      attempt: next,
      failure_reason: null,
      confidence: null,
      verified_until: null,
      credential_token: null,
      result_body: null,
      decided_at: null,
      started_at: null,
      webhook_state: 'none',
      webhook_delivery_id: null,
      webhook_redeliveries: 0,
      decision_requested_at: null,
      report_json: null,
      expires_at: expiresAt,
      updated_at: now,
    },
    attempt,
  );
  try {
    await deps.queue.scheduleExpiry(id, expiresAt, next);
  } catch (error) {
    deps.logger.warn(
      { session_id: id, err: (error as Error).message },
      'expiry scheduling failed; the sweep will expire it',
    );
  }
  return {
    session_id: id,
    status: 'PENDING' as const,
    verification_url: `${deps.publicBaseUrl}/v/${id}`,
    attempt: next,
  };
}
