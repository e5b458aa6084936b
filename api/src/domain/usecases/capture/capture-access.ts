import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../shared/app-error';
import { CaptureState, captureStateId } from '../../capture/capture-state';
import { InferenceInputRejectedError, InferenceUnavailableError } from '../../checks/check-results';
import { InferenceChecks } from '../../ports/inference-checks';
import { Session } from '../../session/session';
import { OPEN_STATUSES } from '../../session-status';
import { CaptureDeps } from './capture-deps';

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export const attemptOf = (session: Pick<Session, 'attempt'>): number => session.attempt ?? 1;

export async function sessionForCapture(deps: CaptureDeps, id: string): Promise<Session> {
  const session = await deps.sessions.findForApplicant(id);
  if (!session) throw AppError.notFound('session');
  return session;
}

/** Every capture write: the session must still be open and not yet submitted for decision. */
export function assertWritable(session: Session): void {
  if (!OPEN_STATUSES.includes(session.status))
    throw AppError.conflict(`The session is ${session.status}; it takes no more captures.`);
}

/** The bearer token must be the one issued to this attempt's device (compared in constant time). */
export async function authorizedState(
  deps: CaptureDeps,
  session: Session,
  token: string | null,
  purpose: 'read' | 'write' = 'read',
): Promise<CaptureState> {
  if (!token)
    throw new AppError('UNAUTHORIZED', 'Send the capture token from start as `Authorization: Bearer <token>`.');
  const state = await deps.states.find(session._id, attemptOf(session));
  // The session ended between its read and this one (a decision landing mid-request purges the
  // capture): a write then gets the contract's 409 for an ended session, not a token error.
  if (purpose === 'write' && state?.purged_at) throw AppError.conflict('The session has ended; its capture is closed.');
  const presented = Buffer.from(hashToken(token), 'hex');
  if (!state || state.purged_at || !timingSafeEqual(presented, Buffer.from(state.token_hash, 'hex'))) {
    throw new AppError('UNAUTHORIZED', 'The capture token is not valid for this session.');
  }
  return state;
}

/** Counts the write against the session's limit (contract: 60 per session). */
export async function countWrite(deps: CaptureDeps, session: Session): Promise<void> {
  if (!(await deps.writes.allow(session._id, attemptOf(session)))) {
    throw new AppError('RATE_LIMITED', `A session takes at most ${deps.writes.limit} capture writes.`);
  }
}

/**
 * Who may write to this capture: the session exists, is open and not submitted, and the token is
 * its device's. Uploads run it before a byte of their body is read, and again (with the count)
 * once it is in, since the session may have moved on meanwhile.
 */
export async function authorizeCaptureWrite(deps: CaptureDeps, id: string, token: string | null) {
  const session = await sessionForCapture(deps, id);
  assertWritable(session);
  const state = await authorizedState(deps, session, token, 'write');
  if (session.decision_requested_at || state.submitted_at)
    throw AppError.conflict('The capture was submitted; the decision is pending.');
  return { session, state };
}

/**
 * The gate every capture write passes: authorized as above, and within the session's write limit.
 * `refuse` throws for a write this route does not take on that session, before the write is counted.
 */
export async function openCaptureForWrite(
  deps: CaptureDeps,
  id: string,
  token: string | null,
  refuse?: (session: Awaited<ReturnType<typeof authorizeCaptureWrite>>['session']) => void,
) {
  const { session, state } = await authorizeCaptureWrite(deps, id, token);
  refuse?.(session);
  await countWrite(deps, session);
  return { session, state, stateId: captureStateId(session._id, attemptOf(session)) };
}

/**
 * Runs an upload-time check. The service's own trouble is a 503 the device retries (nothing is
 * stored, no attempt is used); an input the service refuses is the client's 422.
 */
export async function runUploadCheck<T>(
  deps: CaptureDeps,
  field: string,
  check: (inference: InferenceChecks) => Promise<T>,
): Promise<T> {
  if (!deps.inference)
    throw AppError.unavailable('The checks are not available right now; nothing was stored. Retry shortly.');
  try {
    return await check(deps.inference);
  } catch (error) {
    if (error instanceof InferenceInputRejectedError)
      throw new AppError('VALIDATION_ERROR', 'The image could not be decoded.', [{ field, message: error.message }]);
    if (error instanceof InferenceUnavailableError)
      throw AppError.unavailable('The checks are not available right now; nothing was stored. Retry shortly.');
    throw error;
  }
}
