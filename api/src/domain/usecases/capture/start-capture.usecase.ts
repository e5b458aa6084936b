import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../shared/app-error';
import { newCaptureToken } from '../../../shared/random-id';
import { blobIdsOf, captureStateId } from '../../capture/capture-state';
import { ChallengeStep, drawChallenge } from '../../capture/challenge';
import { DOCUMENT_TYPES as ALL_DOCUMENT_TYPES, DocumentType } from '../../session-status';
import { assertWritable, attemptOf, countWrite, hashToken, sessionForCapture } from './capture-access';
import { CaptureDeps } from './capture-deps';

export const DOCUMENT_TYPES: DocumentType[] = [...ALL_DOCUMENT_TYPES];
/** A device that wrote within this window still owns the capture; after it, another may take over. */
export const DEVICE_IDLE_MS = 5 * 60_000;

export interface StartCaptureAnswer {
  capture_token: string;
  challenge: ChallengeStep[];
  /** paced (production): steps are revealed one at a time by the paced routes; one_shot (sandbox): `challenge` is uploaded at once. */
  liveness_mode: 'paced' | 'one_shot';
  document_types: DocumentType[];
  expires_at: string;
  locale: 'en' | 'fr';
}

/**
 * Binds the session's capture to the device that calls it first (contract "Capture API", start):
 * a token (stored hashed) and a CSPRNG-drawn challenge (or the sandbox's pinned one). The same
 * device calling again gets the same; another device is refused while the first is active, and
 * after that takes over with a new token, a new challenge and none of the old captures.
 */
export async function startCapture(
  deps: CaptureDeps,
  id: string,
  presentedToken: string | null,
): Promise<StartCaptureAnswer> {
  let session = await sessionForCapture(deps, id);
  assertWritable(session);
  const attempt = attemptOf(session);
  const stateId = captureStateId(id, attempt);
  const now = deps.clock.now();
  const existing = await deps.states.find(id, attempt);
  let token = presentedToken;
  let challenge: ChallengeStep[];

  if (presentedToken) {
    if (
      !existing ||
      !timingSafeEqual(Buffer.from(hashToken(presentedToken), 'hex'), Buffer.from(existing.token_hash, 'hex'))
    ) {
      throw new AppError('UNAUTHORIZED', 'The capture token is not valid for this session.');
    }
    challenge = existing.challenge as ChallengeStep[];
  } else {
    await countWrite(deps, session);
    token = newCaptureToken();
    // Production sessions are paced: their steps are drawn one at a time when revealed, never here.
    challenge =
      session.environment === 'production'
        ? []
        : ((session.sandbox_challenge as ChallengeStep[] | null | undefined) ?? drawChallenge());
    if (!existing) {
      const created = await deps.states.create({
        _id: stateId,
        session_id: id,
        attempt,
        token_hash: hashToken(token),
        challenge,
        document_type: null,
        front: null,
        back: null,
        liveness: null,
        selfie: null,
        last_write_at: now,
        submitted_at: null,
        purge_after: null,
        purged_at: null,
        created_at: now,
      });
      if (!created) throw AppError.conflict('Capture has just started on another device.');
    } else {
      if (existing.submitted_at) throw AppError.conflict('The capture was submitted; the decision is pending.');
      if (now.getTime() - new Date(existing.last_write_at).getTime() < DEVICE_IDLE_MS) {
        throw AppError.conflict(
          'Capture is in progress on another device. Continue there, or try again in a few minutes.',
        );
      }
      await deps.states.takeOver(stateId, hashToken(token), challenge, now);
      await deps.blobs.delete(blobIdsOf(existing));
    }
  }

  const started = await deps.sessions.transitionBySystem(id, ['PENDING'], {
    status: 'IN_PROGRESS',
    started_at: now,
    updated_at: now,
  });
  session = started ?? session;
  return {
    capture_token: token as string,
    challenge,
    liveness_mode: session.environment === 'production' ? 'paced' : 'one_shot',
    document_types: DOCUMENT_TYPES,
    expires_at: new Date(session.expires_at).toISOString(),
    locale: session.locale,
  };
}
