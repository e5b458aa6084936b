import { SessionRepository } from '../../../data-access/session.repository';
import { AppError } from '../../../shared/app-error';
import { Clock } from '../../../shared/clock';
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
export async function checkCredential(deps: { sessions: SessionRepository; clock: Clock }, token: string): Promise<CredentialView> {
  const doc = await deps.sessions.findByCredentialToken(token);
  if (!doc || !doc.result_body || !doc.verified_until) throw AppError.notFound('credential');
  return credentialView(JSON.parse(doc.result_body).person as Person, doc.status, doc.verified_until, deps.clock.now());
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
