import { CaptureBlobStore } from '../ports/capture-stores';
import { CapturedLiveness } from './capture-state';
import { unpackFrames } from './frame-pack';

/** Every liveness frame, in order: the one-shot upload packs them in one blob, the paced challenge one blob a step. */
export async function livenessFramesOf(
  blobs: Pick<CaptureBlobStore, 'get'>,
  sessionId: string,
  liveness: Pick<CapturedLiveness, 'blob_ids'>,
): Promise<Buffer[]> {
  const packs = await Promise.all(liveness.blob_ids.map((blobId) => blobs.get(sessionId, blobId)));
  return packs.flatMap((pack) => unpackFrames(pack));
}
