import { Logger } from '../../../shared/logger';
import { DecisionQueue } from '../../ports/decision-queue';
import { DecisionBacklog } from '../../ports/session-sweeps';

export interface SweepCapturesDeps {
  sessions: DecisionBacklog;
  queue: Pick<DecisionQueue, 'enqueueDecision'>;
  logger: Logger;
  purgeDue(): Promise<number>;
}

/**
 * The capture side's safety net: a submit whose enqueue was lost (Redis down at that moment) still
 * gets its decision, since every submitted, undecided session is enqueued again (the job id makes
 * that a no-op when the queue holds it); and captures whose retention ran out lose their images.
 */
export async function sweepCaptures(deps: SweepCapturesDeps): Promise<{ enqueued: number; purged: number }> {
  const owed = await deps.sessions.awaitingDecision();
  for (const session of owed) await deps.queue.enqueueDecision(session._id, session.attempt ?? 1);
  const purged = await deps.purgeDue();
  if (purged > 0) deps.logger.info({ purged }, 'capture sweep deleted captures past their retention');
  return { enqueued: owed.length, purged };
}
