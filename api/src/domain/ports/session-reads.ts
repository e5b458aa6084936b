import { Session } from '../session/session';

/** The hosted page and the jobs: the unguessable session id is the applicant's capability. */
export interface ApplicantSessions {
  /** The session with its personal fields opened; null when there is none. */
  findForApplicant(id: string): Promise<Session | null>;
}

/** The public credential check: the token is the holder's capability. */
export interface CredentialSessions {
  findByCredentialToken(token: string): Promise<Session | null>;
}
