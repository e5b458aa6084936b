import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { newCredentialToken, newDeliveryId } from '../../../shared/random-id';
import { DecisionQueue } from '../../ports/decision-queue';
import { serializeResult } from '../../results/result-resource';
import { Session, SessionUpdate } from '../../session/session';
import { OPEN_STATUSES, SessionStatus } from '../../session-status';
import { billDecision, BillDecisionDeps } from '../bill-decision/bill-decision.usecase';
import { Decision, verifiedUntil } from './decision';

export interface DecideDeps {
  queue: Pick<DecisionQueue, 'assertWritable' | 'enqueueWebhook'>;
  clock: Clock;
  logger: Logger;
  /** Where production decisions are billed (absent: the sweep writes owed entries on its next run). */
  billing?: BillDecisionDeps;
}

/** A conditional write on the session's status, scoped however the caller is entitled to. */
export type ConditionalWrite = (from: SessionStatus[], update: SessionUpdate) => Promise<Session>;

/**
 * Moves an open session to VERIFIED or FAILED. The result, the credential and the pending webhook
 * (the outbox) are written in one conditional write, so a crash after it still delivers: the
 * outbox sweeper enqueues whatever the queue does not hold.
 */
export async function decideSession(
  deps: DecideDeps,
  session: Pick<Session, '_id' | 'environment' | 'metadata_json' | 'attempt'>,
  decision: Decision,
  write: ConditionalWrite,
): Promise<Session> {
  await deps.queue.assertWritable();
  const now = deps.clock.now();
  const verified = decision.status === 'VERIFIED';
  const until = verified ? verifiedUntil(now, decision.document_expiry) : null;
  const credentialToken = verified ? newCredentialToken() : null;
  const attempt = session.attempt ?? 1;
  const resultBody = serializeResult(
    {
      session_id: session._id,
      status: decision.status,
      environment: session.environment,
      person: decision.person,
      checks: decision.checks,
      confidence: decision.confidence,
      verified_until: until,
      failure_reason: decision.failure_reason,
      credential_token: credentialToken,
      attempt,
    },
    session.metadata_json,
  );
  const updated = await write(OPEN_STATUSES, {
    status: decision.status,
    failure_reason: decision.failure_reason,
    confidence: decision.confidence,
    verified_until: until,
    credential_token: credentialToken,
    result_body: resultBody,
    decided_at: now,
    updated_at: now,
    webhook_state: 'pending',
    webhook_delivery_id: newDeliveryId(attempt),
    report_json: decision.report
      ? JSON.stringify({ session_id: session._id, decided_at: now.toISOString(), ...decision.report })
      : null,
    // Billing outbox: owed in the same write as the decision, so a crash before the entry loses nothing.
    ...(session.environment === 'production' ? { ledger_pending: true } : {}),
  });
  try {
    await deps.queue.enqueueWebhook(updated._id, decision.status, updated.attempt ?? 1);
  } catch (error) {
    deps.logger.warn(
      { session_id: updated._id, err: (error as Error).message },
      'webhook enqueue failed; outbox sweep will retry',
    );
  }
  // After the webhook is on its way: billing is bookkeeping, and the sweep covers a failure here.
  if (deps.billing && updated.ledger_pending) {
    await billDecision(deps.billing, updated).catch((error: Error) =>
      deps.logger.warn(
        { session_id: updated._id, err: error.message },
        'ledger entry not written; the billing sweep will write it',
      ),
    );
  }
  return updated;
}
