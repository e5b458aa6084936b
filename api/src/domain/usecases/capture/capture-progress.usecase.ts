import { CaptureState } from '../../capture/capture-state';
import { Session } from '../../session/session';
import { attemptOf, sessionForCapture } from './capture-access';
import { CaptureDeps } from './capture-deps';
import { CaptureStatus, statusOf, steps } from './capture-status.usecase';

/**
 * Where the applicant stands, coarsely: `waiting` (no device has started), the step the capturing
 * device is on (`document`, both sides included, then `liveness`, then `selfie`), `submit` (all
 * captured, not yet handed over), `checking` (decision pending), `done` (decided, expired or
 * cancelled; `status` says which).
 */
export const PROGRESS_STEPS = ['waiting', 'document', 'liveness', 'selfie', 'submit', 'checking', 'done'] as const;
export type ProgressStep = (typeof PROGRESS_STEPS)[number];

/** The token-less status plus the step: nothing of the person, no read result, no score, no retake. */
export type CaptureProgress = Omit<CaptureStatus, 'steps'> & { step: ProgressStep };

export function progressOf(session: Session, state: CaptureState | null): CaptureProgress {
  const status = statusOf(session);
  const step = ((): ProgressStep => {
    if (status.decision === 'done' || session.status === 'EXPIRED') return 'done';
    if (status.decision === 'pending') return 'checking';
    if (!state || state.purged_at || session.status === 'PENDING') return 'waiting';
    const taken = steps(state);
    const done = (s: string) => s === 'captured' || s === 'not_required';
    if (!done(taken.document_front) || !done(taken.document_back)) return 'document';
    if (!done(taken.liveness)) return 'liveness';
    if (!done(taken.selfie)) return 'selfie';
    return 'submit';
  })();
  return { ...status, step };
}

/**
 * GET /v1/capture/{id}/progress: for the page that handed the session to a phone (it has the id,
 * not the capture token) to show which step the phone is on. The id is the capability, as for the
 * status; the per-capture states (`steps`, with their retakes) stay behind the token.
 */
export async function captureProgress(deps: CaptureDeps, id: string): Promise<CaptureProgress> {
  const session = await sessionForCapture(deps, id);
  const open = session.status === 'IN_PROGRESS' && !session.decision_requested_at;
  const state = open ? await deps.states.find(session._id, attemptOf(session)) : null;
  return progressOf(session, state);
}
