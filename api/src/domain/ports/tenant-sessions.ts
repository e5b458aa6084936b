import { Tenant } from '../environment';
import { Session, SessionUpdate } from '../session/session';
import { SessionStatus } from '../session-status';

/**
 * One tenant's sessions: every read and write carries the account and environment of the key that
 * asked, so an integrator-facing use case cannot reach another tenant's session.
 */
export interface TenantSessions {
  /** Rejects with 403 when the session is another tenant's, 404 when there is none. */
  get(id: string): Promise<Session>;
  /**
   * Moves the session from one of `from` (on attempt `onAttempt` when given) with `update`. Of
   * racing writers exactly one wins; the others get 409 (or 403/404 as `get`).
   */
  transition(id: string, from: SessionStatus[], update: SessionUpdate, onAttempt?: number): Promise<Session>;
}

export interface TenantSessionStore {
  forTenant(tenant: Tenant): TenantSessions;
}

export interface SessionCreation {
  /** False when a session with that id exists already (a re-run under the same Idempotency-Key). */
  insertOnce(session: Session): Promise<boolean>;
}
