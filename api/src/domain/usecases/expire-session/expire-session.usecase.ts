import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { SessionExpiry } from '../../ports/session-expiry';

export interface ExpireSessionDeps {
  expiry: Pick<SessionExpiry, 'openDeadline' | 'expire'>;
  clock: Clock;
  logger: Logger;
  /** The session's captured images are deleted (or their retention starts) once it has expired. */
  endCapture(sessionId: string): Promise<void>;
}

export type ExpiryOutcome = { kind: 'expired' } | { kind: 'not-open' } | { kind: 'not-due'; dueAt: Date };

/**
 * The delayed job created with the session: PENDING or IN_PROGRESS becomes EXPIRED once
 * expires_at (creation + SESSION_EXPIRY_MINUTES) has passed. A decided session is left alone, and
 * no webhook is sent (Events rule 7). A job that fires early (clock skew between hosts) reports
 * when the session is due so the caller can put it back on the queue rather than wait for the sweep.
 */
export async function expireSession(deps: ExpireSessionDeps, sessionId: string): Promise<ExpiryOutcome> {
  const dueAt = await deps.expiry.openDeadline(sessionId);
  if (!dueAt) return { kind: 'not-open' };
  const now = deps.clock.now();
  if (dueAt > now) return { kind: 'not-due', dueAt };
  if (!(await deps.expiry.expire(sessionId, now))) return { kind: 'not-open' };
  await deps.endCapture(sessionId);
  deps.logger.info({ session_id: sessionId }, 'session expired');
  return { kind: 'expired' };
}
