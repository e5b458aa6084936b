import { Tenant } from '../../environment';
import { DeliveryLogReader } from '../../ports/delivery-log';
import { TenantSessionStore } from '../../ports/tenant-sessions';
import { WebhookStateView } from '../../ports/webhook-outbox';

export interface ListDeliveriesDeps {
  sessions: TenantSessionStore;
  deliveryLog: DeliveryLogReader;
  outbox: WebhookStateView;
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
