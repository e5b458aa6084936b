import { unpackFrames } from '../../capture/frame-pack';
import type { CaptureState } from '../../capture/capture-state';
import type { CaptureBlobStore } from '../../ports/capture-stores';
import type { CaptureFingerprint, CaptureFingerprints, ReusedCapture } from '../../ports/capture-fingerprints';
import type { Session } from '../../session/session';

export interface CaptureReuseDeps {
  blobs: Pick<CaptureBlobStore, 'get'>;
  fingerprints: CaptureFingerprints;
}

/**
 * The captures of this submission that another session of the account submitted first: the
 * document photos, every liveness frame and the selfie, byte for byte. A script that lifts a
 * capture from one session and posts it into another is caught here whatever the models say.
 * Production sessions only: sandbox integrators replay the same recordings in their own tests.
 */
export async function reusedCaptures(
  deps: CaptureReuseDeps,
  session: Pick<Session, '_id' | 'account_id' | 'environment'>,
  state: Pick<CaptureState, 'front' | 'back' | 'liveness' | 'selfie'>,
): Promise<ReusedCapture[]> {
  if (session.environment !== 'production') return [];
  const get = (blobId: string) => deps.blobs.get(session._id, blobId);
  const sides = [state.front, state.back].flatMap((side) => (side ? [side.blob_id] : []));
  const [documents, packs, selfie] = await Promise.all([
    Promise.all(sides.map(get)),
    Promise.all((state.liveness?.blob_ids ?? []).map(get)),
    state.selfie ? get(state.selfie.blob_id) : Promise.resolve(null),
  ]);
  const print = (kind: CaptureFingerprint['kind']) => (bytes: Buffer) => ({ kind, value: deps.fingerprints.of(bytes) });
  const prints = [
    ...documents.map(print('document')),
    ...packs.flatMap((pack) => unpackFrames(pack)).map(print('liveness')),
    ...(selfie ? [print('selfie')(selfie)] : []),
  ];
  return deps.fingerprints.claim(session.account_id, session._id, prints);
}
