import { Clock } from '../../../shared/clock';
import { ApplicantSessions } from '../../ports/session-reads';
import { SessionTransitions } from '../../ports/session-transitions';
import { Session } from '../../session/session';

/**
 * The applicant opened verification_url: PENDING becomes IN_PROGRESS (one conditional write; a
 * second tab or a reload simply finds it IN_PROGRESS). Returns null for an unknown id.
 */
export async function openSession(
  deps: { sessions: ApplicantSessions & SessionTransitions; clock: Clock },
  id: string,
): Promise<Session | null> {
  const now = deps.clock.now();
  const started = await deps.sessions.transitionBySystem(id, ['PENDING'], {
    status: 'IN_PROGRESS',
    started_at: now,
    updated_at: now,
  });
  return started ?? deps.sessions.findForApplicant(id);
}
