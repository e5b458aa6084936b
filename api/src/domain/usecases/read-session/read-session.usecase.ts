import { SessionRepository } from '../../../data-access/session.repository';
import { AppError } from '../../../shared/app-error';
import { Tenant } from '../../environment';

export async function getSessionStatus(sessions: SessionRepository, tenant: Tenant, id: string) {
  const doc = await sessions.forTenant(tenant).get(id);
  return { session_id: doc._id, status: doc.status, confidence: doc.confidence, environment: doc.environment };
}

/** The stored result bytes, exactly as the webhook carries them. */
export async function getSessionResult(sessions: SessionRepository, tenant: Tenant, id: string): Promise<string> {
  const doc = await sessions.forTenant(tenant).get(id);
  if (!doc.result_body || (doc.status !== 'VERIFIED' && doc.status !== 'FAILED')) {
    throw AppError.conflict(`The session is ${doc.status}; a result exists once it is VERIFIED or FAILED.`);
  }
  return doc.result_body;
}
