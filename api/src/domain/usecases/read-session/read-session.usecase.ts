import { AppError } from '../../../shared/app-error';
import { recordRead, ReadContext } from '../../audit/record-read';
import { Tenant } from '../../environment';
import { TenantSessionStore } from '../../ports/tenant-sessions';

export async function getSessionStatus(sessions: TenantSessionStore, tenant: Tenant, id: string) {
  const doc = await sessions.forTenant(tenant).get(id);
  return {
    session_id: doc._id,
    status: doc.status,
    confidence: doc.confidence,
    environment: doc.environment,
  };
}

/** The stored result bytes, exactly as the webhook carries them. */
export async function getSessionResult(
  sessions: TenantSessionStore,
  tenant: Tenant,
  id: string,
  who: ReadContext,
): Promise<string> {
  const doc = await sessions.forTenant(tenant).get(id);
  if (!doc.result_body || (doc.status !== 'VERIFIED' && doc.status !== 'FAILED')) {
    throw AppError.conflict(`The session is ${doc.status}; a result exists once it is VERIFIED or FAILED.`);
  }
  await recordRead(who, 'result.read', tenant, id);
  return doc.result_body;
}

/**
 * The evidence report (contract "Evidence report"): every score with its line, the model behind
 * it and timings, serialized at decision time, no personal data and no images. A cancelled
 * session ran no check, so its report says each was skipped.
 */
export async function getSessionReport(
  sessions: TenantSessionStore,
  tenant: Tenant,
  id: string,
  who: ReadContext,
): Promise<string> {
  const doc = await sessions.forTenant(tenant).get(id);
  if (doc.status !== 'VERIFIED' && doc.status !== 'FAILED') {
    throw AppError.conflict(`The session is ${doc.status}; a report exists once it is VERIFIED or FAILED.`);
  }
  await recordRead(who, 'report.read', tenant, id);
  if (doc.report_json) return doc.report_json;
  const skipped = { verdict: 'SKIPPED', reason: doc.failure_reason, scores: [], model: null, duration_ms: 0 };
  const checks = (JSON.parse(doc.result_body ?? '{}') as { checks?: Record<string, string> }).checks ?? {};
  return JSON.stringify({
    session_id: doc._id,
    decided_at: doc.decided_at ? new Date(doc.decided_at).toISOString() : null,
    checks: Object.fromEntries(Object.entries(checks).map(([name, verdict]) => [name, { ...skipped, verdict }])),
    document: null,
    ...(doc.redacted_at ? { redacted_at: new Date(doc.redacted_at).toISOString() } : {}),
  });
}
