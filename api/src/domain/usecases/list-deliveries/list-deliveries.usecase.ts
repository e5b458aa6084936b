import { DeliveryAttemptDocument } from '../../../data-access/delivery-log.model';
import { SessionDocument } from '../../../data-access/session.model';
import { SessionRepository } from '../../../data-access/session.repository';
import { Tenant } from '../../environment';

export interface ListDeliveriesDeps {
  sessions: SessionRepository;
  deliveryLog: { listForSession(sessionId: string): Promise<DeliveryAttemptDocument[]> };
  outbox: {
    effectiveState(
      session: Pick<SessionDocument, '_id' | 'webhook_state' | 'webhook_redeliveries'>,
    ): Promise<SessionDocument['webhook_state']>;
  };
}

/**
 * GET /v1/sessions/{id}/webhooks: the session's delivery attempts, oldest first. The tenant-scoped
 * read comes first, so another account's session answers 403 and an unknown one 404.
 */
export async function listDeliveries(deps: ListDeliveriesDeps, tenant: Tenant, sessionId: string) {
  const session = await deps.sessions.forTenant(tenant).get(sessionId);
  const attempts = session.webhook_delivery_id ? await deps.deliveryLog.listForSession(sessionId) : [];
  return {
    session_id: session._id,
    webhook_state: await deps.outbox.effectiveState(session),
    delivery_id: session.webhook_delivery_id,
    attempts: attempts.map((a) => ({
      delivery_id: a.delivery_id,
      round: a.round,
      attempt: a.attempt,
      attempted_at: a.attempted_at.toISOString(),
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      error: a.error,
      result: a.result,
    })),
  };
}
