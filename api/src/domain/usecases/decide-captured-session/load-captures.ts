import { CaptureBlobRepository } from '../../../data-access/capture-blob.repository';
import { CapturedSide, CaptureStateDocument } from '../../../data-access/capture-state.model';
import { SecretBox } from '../../../shared/secret-box';
import { ChallengeStep } from '../../capture/challenge';
import { unpackFrames } from '../../capture/frame-pack';
import { CheckRun, DocumentRead, LivenessRun } from '../../checks/check-results';
import { DocumentType } from '../../session-status';

export interface LoadedCaptures {
  read: DocumentRead;
  declaredType: DocumentType;
  portrait: Buffer | null;
  frames: Buffer[];
  challenge: ChallengeStep[];
  selfie: Buffer;
  antispoof: CheckRun;
  /** The liveness run made at selfie upload over these very frames, if any. */
  liveness: LivenessRun | null;
}

/**
 * What the decision needs from one attempt's captures: the document read made at upload (the side
 * that carries the machine-readable zone, so the back of a card), the portrait from whichever side
 * showed one, the frames, and the selfie with its antispoof run.
 */
export async function loadCaptures(blobs: CaptureBlobRepository, sealer: SecretBox, state: CaptureStateDocument): Promise<LoadedCaptures> {
  if (!state.front || !state.liveness || !state.selfie) throw new Error(`capture ${state._id} is incomplete`);
  const readOf = (side: CapturedSide): DocumentRead => JSON.parse(sealer.open(side.read_sealed)) as DocumentRead;
  const sides = [state.back, state.front].filter((side): side is CapturedSide => side !== null);
  const reads = sides.map((side) => ({ side, read: readOf(side) }));
  const chosen = reads.find((r) => r.read.person !== null) ?? reads[0]!;
  const portraitSide = [state.front, state.back].find((side) => side?.portrait_blob_id) ?? null;
  const [portrait, packed, selfie] = await Promise.all([
    portraitSide ? blobs.get(state.session_id, portraitSide.portrait_blob_id as string) : Promise.resolve(null),
    blobs.get(state.session_id, state.liveness.blob_ids[0] as string),
    blobs.get(state.session_id, state.selfie.blob_id),
  ]);
  return {
    read: chosen.read,
    declaredType: (state.document_type ?? 'passport') as DocumentType,
    portrait,
    frames: unpackFrames(packed),
    challenge: state.challenge as ChallengeStep[],
    selfie,
    antispoof: JSON.parse(state.selfie.antispoof_json) as CheckRun,
    liveness:
      state.selfie.liveness_json && state.selfie.liveness_blob_id === state.liveness.blob_ids[0] ? (JSON.parse(state.selfie.liveness_json) as LivenessRun) : null,
  };
}
