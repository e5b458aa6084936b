import { AppError } from '../../../shared/app-error';
import { Clock } from '../../../shared/clock';
import { AuditLog } from '../../audit/audit-event';
import { CredentialSessions } from '../../ports/session-reads';
import { Person } from '../../session-status';

export interface CredentialView {
  valid: boolean;
  status: string;
  name: string;
  document_type: string;
  document_country: string;
  verified_until: string;
}

/** Public: anyone holding the token sees the verified name and document, as the spec warns. */
export async function checkCredential(
  deps: { sessions: CredentialSessions; clock: Clock; audit: AuditLog },
  token: string,
  requestId: string | null,
): Promise<CredentialView> {
  const doc = await deps.sessions.findByCredentialToken(token);
  const person = doc?.result_body ? ((JSON.parse(doc.result_body) as { person?: Person | null }).person ?? null) : null;
  // A redacted session has no credential: its token is gone, and a token read before that finds no person.
  if (!doc || !person || !doc.verified_until || doc.redacted_at) throw AppError.notFound('credential');
  await recordCredentialRead(deps, doc._id, doc.account_id, requestId);
  return credentialView(person, doc.status, doc.verified_until, deps.clock.now());
}

/** The public credential check and /c/{id} page: the reader is whoever holds the link. */
export function recordCredentialRead(
  deps: { audit: AuditLog; clock: Clock },
  sessionId: string,
  accountId: string,
  requestId: string | null,
): Promise<void> {
  return deps.audit.record({
    action: 'credential.read',
    actor: { type: 'credential_holder', id: null },
    at: deps.clock.now(),
    session_id: sessionId,
    account_id: accountId,
    request_id: requestId,
    detail: null,
  });
}

export function credentialView(person: Person, status: string, verifiedUntil: Date, now: Date): CredentialView {
  return {
    valid: status === 'VERIFIED' && verifiedUntil > now,
    status,
    name: person.name,
    document_type: person.document_type,
    document_country: person.document_country,
    verified_until: verifiedUntil.toISOString(),
  };
}
