import { CaptureState } from '../../capture/capture-state';
import { Session } from '../../session/session';
import { DECIDED_STATUSES } from '../../session-status';
import { authorizedState, sessionForCapture } from './capture-access';
import { CaptureDeps } from './capture-deps';
import { needsBack } from './upload-document.usecase';

type StepState = 'missing' | 'retake' | 'captured' | 'not_required';

export interface CaptureStatus {
  status: Session['status'];
  decision: 'none' | 'pending' | 'done';
  redirect_url: string | null;
  steps?: { document_front: StepState; document_back: StepState; liveness: StepState; selfie: StepState };
}

/** return_url with session_id and status appended, keeping the integrator's own query. */
export function redirectUrl(session: Pick<Session, '_id' | 'return_url' | 'status'>): string {
  const url = new URL(session.return_url);
  url.searchParams.set('session_id', session._id);
  url.searchParams.set('status', session.status);
  return url.toString();
}

export function steps(state: CaptureState): NonNullable<CaptureStatus['steps']> {
  const side = (captured: { readable: boolean; uploads: number } | null): StepState =>
    !captured ? 'missing' : !captured.readable && captured.uploads < 3 ? 'retake' : 'captured';
  return {
    document_front: side(state.front),
    document_back: needsBack(state.document_type) ? side(state.back) : 'not_required',
    liveness: state.liveness ? 'captured' : 'missing',
    selfie: !state.selfie ? 'missing' : !state.selfie.face_found && state.selfie.uploads < 3 ? 'retake' : 'captured',
  };
}

export function statusOf(session: Session): CaptureStatus {
  const decided = DECIDED_STATUSES.includes(session.status);
  return {
    status: session.status,
    decision: decided ? 'done' : session.decision_requested_at && session.status === 'IN_PROGRESS' ? 'pending' : 'none',
    redirect_url: decided ? redirectUrl(session) : null,
  };
}

/** GET /v1/capture/{id}: anyone with the id sees the status; the token's holder also sees the steps. */
export async function captureStatus(deps: CaptureDeps, id: string, token: string | null): Promise<CaptureStatus> {
  const session = await sessionForCapture(deps, id);
  const status = statusOf(session);
  // Once decided, the captures are purged and the steps mean nothing: the device that held the
  // token polls on until it sees `done`, so it gets the status, not a 401 for a capture that ended.
  if (!token || status.decision === 'done') return status;
  const state = await authorizedState(deps, session, token);
  return { ...status, steps: steps(state) };
}
