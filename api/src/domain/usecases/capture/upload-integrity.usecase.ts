import { AppError } from '../../../shared/app-error';
import type { IntegritySignals } from '../../capture/capture-integrity';
import { openCaptureForWrite } from './capture-access';
import { CaptureDeps } from './capture-deps';

/** A page sends its signals once; a few more cover a reload or a camera opened again. */
export const INTEGRITY_UPLOADS_PER_CAPTURE = 5;

/**
 * Records the client's capture-integrity signals for the decision (the last sent stands). The
 * answer says nothing of how they will be judged: a client probing which labels pass learns nothing.
 * Nothing of them is logged: a camera label is no one's name, but it is the device's.
 */
export async function uploadIntegrity(
  deps: CaptureDeps,
  input: { id: string; token: string | null; signals: IntegritySignals },
): Promise<{ recorded: true }> {
  const { session, state, stateId } = await openCaptureForWrite(deps, input.id, input.token);
  const uploads = (state.integrity?.uploads ?? 0) + 1;
  if (uploads > INTEGRITY_UPLOADS_PER_CAPTURE)
    throw AppError.conflict(`The integrity signals were sent ${INTEGRITY_UPLOADS_PER_CAPTURE} times already.`);
  const now = deps.clock.now();
  await deps.states.setIntegrity(stateId, { signals: input.signals, received_at: now, uploads }, now);
  deps.logger.info({ session_id: session._id, client: input.signals.client }, 'capture integrity recorded');
  return { recorded: true };
}
