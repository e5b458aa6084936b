import { SessionDocument } from '../../../data-access/session.model';
import { SessionRepository } from '../../../data-access/session.repository';
import { Clock } from '../../../shared/clock';

/**
 * The applicant opened verification_url: PENDING becomes IN_PROGRESS (one conditional write; a
 * second tab or a reload simply finds it IN_PROGRESS). Returns null for an unknown id.
 */
export async function openSession(
  deps: { sessions: SessionRepository; clock: Clock },
  id: string,
): Promise<SessionDocument | null> {
  const now = deps.clock.now();
  const started = await deps.sessions.transitionBySystem(id, ['PENDING'], {
    status: 'IN_PROGRESS',
    started_at: now,
    updated_at: now,
  });
  return started ?? deps.sessions.findForApplicant(id);
}
