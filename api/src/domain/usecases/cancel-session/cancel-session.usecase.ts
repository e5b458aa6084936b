import { Clock } from '../../../shared/clock';
import { Tenant } from '../../environment';
import { TenantSessionStore } from '../../ports/tenant-sessions';
import { serializeResult } from '../../results/result-resource';
import { OPEN_STATUSES } from '../../session-status';

/**
 * DELETE /v1/sessions/{id}: an open session becomes FAILED / CANCELLED_BY_API. No webhook (the
 * spec's Events rule 7), so the outbox stays empty.
 */
export async function cancelSession(
  deps: {
    sessions: TenantSessionStore;
    clock: Clock;
    endCapture(sessionId: string, attempt: number): Promise<void>;
  },
  tenant: Tenant,
  id: string,
) {
  const scoped = deps.sessions.forTenant(tenant);
  const current = await scoped.get(id);
  const now = deps.clock.now();
  const body = serializeResult(
    {
      session_id: id,
      status: 'FAILED',
      environment: current.environment,
      person: null,
      checks: {
        document: 'SKIPPED',
        liveness: 'SKIPPED',
        antispoof: 'SKIPPED',
        face_match: 'SKIPPED',
        document_chip: 'NOT_PERFORMED',
        ...(tenant.watchlist ? { sanctions: 'SKIPPED' } : {}),
      },
      confidence: 0,
      verified_until: null,
      failure_reason: 'CANCELLED_BY_API',
      credential_token: null,
      attempt: current.attempt ?? 1,
    },
    current.metadata_json,
  );
  const updated = await scoped.transition(id, OPEN_STATUSES, {
    status: 'FAILED',
    failure_reason: 'CANCELLED_BY_API',
    confidence: 0,
    result_body: body,
    decided_at: now,
    updated_at: now,
  });
  // The applicant's captured images go with the cancellation (or start their retention period).
  await deps.endCapture(id, updated.attempt ?? 1);
  return { session_id: updated._id, status: updated.status, failure_reason: updated.failure_reason };
}
