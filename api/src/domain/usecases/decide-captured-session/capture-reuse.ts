import { unpackFrames } from '../../capture/frame-pack';
import type { CaptureState } from '../../capture/capture-state';
import type { CaptureBlobStore } from '../../ports/capture-stores';
import type {
  CaptureFingerprints,
  CaptureKind,
  CaptureSighting,
  ReusedCapture,
} from '../../ports/capture-fingerprints';
import type { Session } from '../../session/session';

export interface CaptureReuseDeps {
  blobs: Pick<CaptureBlobStore, 'get'>;
  fingerprints: CaptureFingerprints;
}

/**
 * The captures of this submission that another session of the account submitted first: the
 * document photos byte for byte; the selfie and the liveness frames byte for byte or as a
 * perceptual copy (re-encoded, resized, slightly cropped, re-lit). A script that lifts a capture
 * from one session and posts it into another is caught here whatever the models say.
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
  const frames = packs.flatMap((pack) => unpackFrames(pack));
  const sampled = perceptualSample(frames.length);
  const print = (kind: CaptureKind) => (bytes: Buffer) => deps.fingerprints.of(kind, bytes);
  const prints = await Promise.all([
    ...documents.map(print('document')),
    ...frames.map((bytes, i) => deps.fingerprints.of('liveness', bytes, { perceptual: sampled.has(i) })),
    ...(selfie ? [print('selfie')(selfie)] : []),
  ]);
  const sightings = await deps.fingerprints.claim(session.account_id, session._id, prints);
  return reusedFrom(sightings, sampled.size);
}

/**
 * Liveness frames hashed perceptually per session. Every frame keeps its byte-for-byte digest, but
 * a paced challenge keeps up to 60 frames, and each perceptual hash costs a decode (about 4 ms) and
 * 8 band writes at decision, with band lists that grow with the account. A replayed recording
 * copies the whole sequence, so frames spread evenly over it find it as well as all of them would:
 * the same count of frames picks the same places in it.
 */
export const PERCEPTUAL_FRAMES = 8;

export function perceptualSample(frameCount: number): Set<number> {
  if (frameCount <= PERCEPTUAL_FRAMES) return new Set(Array.from({ length: frameCount }, (_, i) => i));
  return new Set(
    Array.from({ length: PERCEPTUAL_FRAMES }, (_, i) => Math.round((i * (frameCount - 1)) / (PERCEPTUAL_FRAMES - 1))),
  );
}

/**
 * Which sightings amount to reuse, one entry per capture of this session (its report counts
 * captures, however many earlier sessions presented them), naming the session it was seen in
 * (byte for byte first). A document photo or selfie seen before is reused; so is any frame seen
 * byte for byte. A frame that is only a perceptual copy counts when half the session's hashed frames
 * (two at least; `frameCount` is how many were hashed) are copies of ONE other session's: a face held still before a plain wall looks
 * alike from one session to the next, a recording replayed looks alike throughout.
 */
export function reusedFrom(sightings: CaptureSighting[], frameCount: number): ReusedCapture[] {
  const reused = new Map<number, CaptureSighting>();
  const keep = (s: CaptureSighting) => {
    const seen = reused.get(s.index);
    if (!seen || (s.exact && !seen.exact)) reused.set(s.index, s);
  };
  const copiedFrames = new Map<string, Set<number>>();
  for (const s of sightings) {
    if (s.kind !== 'liveness' || s.exact) keep(s);
    else copiedFrames.set(s.session_id, (copiedFrames.get(s.session_id) ?? new Set()).add(s.index));
  }
  const enough = Math.max(2, Math.ceil(frameCount / 2));
  for (const [session_id, frames] of copiedFrames) {
    if (frames.size < enough) continue;
    for (const index of frames) keep({ kind: 'liveness', index, session_id, exact: false });
  }
  return [...reused.values()].sort((a, b) => a.index - b.index).map(({ kind, session_id }) => ({ kind, session_id }));
}
