import { AppError, ErrorDetail } from '../../../shared/app-error';
import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { newSessionId } from '../../../shared/random-id';
import { DocumentChipMode } from '../../chip/chip-verification';
import { Tenant } from '../../environment';
import { CreationCounter } from '../../ports/creation-counter';
import { DecisionQueue } from '../../ports/decision-queue';
import { SessionCreation, TenantSessionStore } from '../../ports/tenant-sessions';
import { WebhookTargetPolicy } from '../../ports/webhook-target-policy';

export interface CreateSessionCommand {
  return_url: string;
  webhook_url: string;
  expected_name: string;
  expected_dob?: string;
  expected_address?: string;
  locale?: 'en' | 'fr';
  document_chip?: DocumentChipMode;
  /** Raw JSON text of the metadata member exactly as received, or null when absent. */
  metadataJson: string | null;
  /** Set by an Idempotency-Key: the id to create under; if it already exists, this is a re-run of that creation. */
  reservedSessionId?: string;
  /** Sandbox only: a pinned liveness challenge. */
  sandbox?: { liveness_challenge: string[] };
}

export interface CreateSessionDeps {
  sessions: SessionCreation & TenantSessionStore;
  queue: Pick<DecisionQueue, 'assertWritable' | 'scheduleExpiry'>;
  usage: CreationCounter;
  webhookPolicy: WebhookTargetPolicy;
  clock: Clock;
  logger: Logger;
  publicBaseUrl: string;
  expiryMinutes: number;
}

export async function createSession(deps: CreateSessionDeps, tenant: Tenant, command: CreateSessionCommand) {
  if (command.sandbox && tenant.environment !== 'sandbox') {
    throw new AppError('VALIDATION_ERROR', 'The request has invalid fields.', [
      { field: 'sandbox', message: 'is accepted from sandbox keys only' },
    ]);
  }
  await assertWebhookTargetAllowed(deps.webhookPolicy, tenant, command.webhook_url);
  // Expiry is scheduled on the queue; refuse now rather than create a session that would never expire.
  await deps.queue.assertWritable();
  const now = deps.clock.now();
  const id = command.reservedSessionId ?? newSessionId();
  const expiresAt = new Date(now.getTime() + deps.expiryMinutes * 60_000);
  // A fresh id cannot name a session that exists already, so its timer goes out beside the store
  // writes rather than after them: a timer whose session never got written finds nothing open
  // when it fires and ends. An Idempotency-Key's id may be a re-run's, whose timer must follow
  // the deadline already stored, so it is scheduled once the insert has said which.
  const timerAhead = command.reservedSessionId === undefined ? scheduleExpiry(deps, id, expiresAt) : null;
  const inserted = await deps.sessions.insertOnce({
    _id: id,
    account_id: tenant.accountId,
    environment: tenant.environment,
    status: 'PENDING',
    failure_reason: null,
    return_url: command.return_url,
    webhook_url: command.webhook_url,
    expected_name: command.expected_name,
    expected_dob: command.expected_dob ?? null,
    expected_address: command.expected_address ?? null,
    locale: command.locale ?? 'en',
    document_chip: command.document_chip ?? 'optional',
    metadata_json: command.metadataJson,
    created_at: now,
    updated_at: now,
    expires_at: expiresAt,
    started_at: null,
    decided_at: null,
    confidence: null,
    verified_until: null,
    credential_token: null,
    result_body: null,
    webhook_state: 'none',
    webhook_delivery_id: null,
    sandbox_challenge: command.sandbox?.liveness_challenge ?? null,
    billed: tenant.environment === 'production',
  });
  // A re-run under an Idempotency-Key whose first run died after the insert answers for that
  // session, and makes sure of its timer (the job id makes a second schedule a no-op).
  const timer =
    inserted && timerAhead
      ? timerAhead
      : scheduleExpiry(deps, id, inserted ? expiresAt : (await deps.sessions.forTenant(tenant).get(id)).expires_at);
  // Counted once the session exists; the count and the timer are independent Redis writes.
  await Promise.all([timer, deps.usage.recordSessionCreation(tenant.keyId, now)]);
  return creationResponse(deps.publicBaseUrl, id, tenant.environment);
}

const creationResponse = (publicBaseUrl: string, id: string, environment: Tenant['environment']) => ({
  session_id: id,
  verification_url: `${publicBaseUrl}/v/${id}`,
  status: 'PENDING' as const,
  environment,
});

/** Never rejects: a session is complete without its timer, and the periodic expiry sweep is the safety net. */
async function scheduleExpiry(deps: CreateSessionDeps, id: string, deadline: Date): Promise<void> {
  try {
    await deps.queue.scheduleExpiry(id, deadline);
  } catch (error) {
    deps.logger.warn(
      { session_id: id, err: (error as Error).message },
      'expiry scheduling failed; the sweep will expire it',
    );
  }
}

async function assertWebhookTargetAllowed(policy: WebhookTargetPolicy, tenant: Tenant, webhookUrl: string) {
  const url = new URL(webhookUrl);
  const problems: ErrorDetail[] = [];
  if (tenant.environment === 'production' && url.protocol !== 'https:') {
    problems.push({ field: 'webhook_url', message: 'must be an https URL for production keys' });
  } else {
    const refusal = await policy.refuse(url, tenant.environment);
    if (refusal) problems.push({ field: 'webhook_url', message: refusal });
  }
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 'The request has invalid fields.', problems);
}
