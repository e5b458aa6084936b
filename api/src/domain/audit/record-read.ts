import { Tenant } from '../environment';
import { AuditAction, AuditLog } from './audit-event';

/** Who asked, for the audit log: the request id ties the record to the access log line. */
export interface ReadContext {
  audit: AuditLog;
  requestId: string | null;
}

/**
 * Records that an integrator's key read a session's personal data. Awaited before the data is
 * served: a read the log could not record is not served (the store being down fails both anyway).
 */
export function recordRead(who: ReadContext, action: AuditAction, tenant: Tenant, sessionId: string): Promise<void> {
  return who.audit.record({
    action,
    actor: { type: 'api_key', id: tenant.keyId },
    at: new Date(),
    session_id: sessionId,
    account_id: tenant.accountId,
    request_id: who.requestId,
    detail: null,
  });
}
