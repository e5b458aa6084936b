import type { Session } from '../../session/session';
import { loadCaptures } from './load-captures';
import { knownFaceRecord } from './known-face';
import type { TextSealer } from '../../../shared/sealer';
import type { CaptureBlobStore, CaptureStateStore } from '../../ports/capture-stores';
import type { InferenceChecks } from '../../ports/inference-checks';
import type { KnownFaces } from '../../ports/known-faces';

interface Deps {
  knownFaces: KnownFaces;
  states: Pick<CaptureStateStore, 'find'>;
  blobs: Pick<CaptureBlobStore, 'get'>;
  sealer: TextSealer;
  inference: Pick<InferenceChecks, 'matchFaces'>;
}

/**
 * A worker that died between writing a verified decision and remembering its face left the
 * account's gallery without it, and the job's retry finds the session already decided. The retry
 * remembers the face then, from the captures still held (they are deleted after the face is
 * remembered, never before), so a later applicant with that face under another identity is still
 * flagged. True when it remembered one.
 */
export async function rememberDecidedFace(
  deps: Deps,
  session: Pick<Session, '_id' | 'account_id' | 'environment' | 'status' | 'failure_reason'>,
  attempt: number,
): Promise<boolean> {
  if (session.status !== 'VERIFIED' && session.failure_reason !== 'KNOWN_FACE') return false;
  if (await deps.knownFaces.stillKnown(session.account_id, session._id)) return false;
  const state = await deps.states.find(session._id, attempt);
  // Purged captures mean the decision finished its clean-up, or the session was redacted: nothing to add.
  if (!state?.submitted_at || state.purged_at || !state.front || !state.liveness || !state.selfie) return false;
  const captures = await loadCaptures(deps.blobs, deps.sealer, state);
  const faceMatch =
    captures.faceMatch ??
    (captures.portrait && captures.selfie ? await deps.inference.matchFaces(captures.portrait, captures.selfie) : null);
  const record = knownFaceRecord(deps, session, faceMatch, captures.read.person);
  if (!record) return false;
  await deps.knownFaces.remember(record.gallery, record.face);
  return true;
}
