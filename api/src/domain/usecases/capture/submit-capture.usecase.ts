import { AppError, ErrorDetail } from '../../../shared/app-error';
import { captureStateId } from '../../capture/capture-state';
import { assertWritable, attemptOf, authorizedState, countWrite, sessionForCapture } from './capture-access';
import { CaptureDeps } from './capture-deps';
import { needsBack } from './upload-document.usecase';

export const SUBMITTED = { status: 'IN_PROGRESS', decision: 'pending' } as const;

/**
 * Hands the capture to the decision: marks the decision owed (so expiry leaves the session alone)
 * and enqueues one job per attempt (ids only). Submitting again answers the same and changes
 * nothing; a lost enqueue is made good by the capture sweep.
 */
export async function submitCapture(deps: CaptureDeps, id: string, token: string | null): Promise<typeof SUBMITTED> {
  const session = await sessionForCapture(deps, id);
  assertWritable(session);
  const state = await authorizedState(deps, session, token, 'write');
  const attempt = attemptOf(session);
  if (!session.decision_requested_at && !state.submitted_at) {
    await countWrite(deps, session);
    const missing: ErrorDetail[] = [];
    if (!state.front) missing.push({ field: 'document.front', message: 'not captured' });
    if (needsBack(state.document_type) && !state.back)
      missing.push({ field: 'document.back', message: 'not captured' });
    if (!state.liveness) missing.push({ field: 'liveness', message: 'not captured' });
    if (!state.selfie) missing.push({ field: 'selfie', message: 'not captured' });
    if (missing.length > 0) throw new AppError('CONFLICT', 'Some captures are missing.', missing);
    const now = deps.clock.now();
    await deps.states.markSubmitted(captureStateId(id, attempt), now);
    // The session's deadline may pass while this runs: then expiry won and nothing was submitted.
    if (!(await deps.sessions.requestDecision(id, now)))
      throw AppError.conflict('The session is no longer open; create a new session.');
  }
  try {
    await deps.queue.enqueueDecision(id, attempt);
  } catch (error) {
    deps.logger.warn(
      { session_id: id, err: (error as Error).message },
      'decision enqueue failed; the capture sweep will retry',
    );
  }
  return SUBMITTED;
}
