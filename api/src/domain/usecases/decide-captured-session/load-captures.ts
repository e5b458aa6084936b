import { documentReadWhere, selfieEmbeddingWhere, TextSealer } from '../../../shared/sealer';
import { CapturedChip, CapturedSide, CaptureState, PacedStepSpec } from '../../capture/capture-state';
import { ChallengeStep } from '../../capture/challenge';
import { livenessFramesOf } from '../../capture/liveness-frames';
import { CaptureBlobStore } from '../../ports/capture-stores';
import { CheckRun, DocumentRead, FaceMatchRun, LivenessRun } from '../../checks/check-results';
import { DocumentType } from '../../session-status';

export interface LoadedCaptures {
  read: DocumentRead;
  declaredType: DocumentType;
  hasPortrait: boolean;
  challenge: ChallengeStep[];
  /** The server-paced steps the frames must follow instead of `challenge`, when paced. */
  paced: PacedStepSpec[] | null;
  /** The antispoof run made at selfie upload over these very frames, if any. */
  antispoof: CheckRun | null;
  /** The liveness run made at selfie upload over these very frames, if any. */
  liveness: LivenessRun | null;
  /** The face match made at selfie upload against this very portrait, if any. */
  faceMatch: FaceMatchRun | null;
  /** Images, fetched only for the runs that were not made at upload (null when not needed). */
  portrait: Buffer | null;
  frames: Buffer[] | null;
  selfie: Buffer | null;
  /** The chip files as uploaded (JSON of base64 members) and what the upload recorded; null when none was sent. */
  chip: { stored: CapturedChip; body: Buffer } | null;
}

/**
 * What the decision needs from one attempt's captures: the document read made at upload (the side
 * that carries the machine-readable zone, so the back of a card), whether a side showed a portrait,
 * the runs made at selfie upload that still score the captures as they are now, and the images
 * only for the runs that must be made again (a capture retaken after the selfie).
 */
export async function loadCaptures(
  blobs: Pick<CaptureBlobStore, 'get'>,
  sealer: TextSealer,
  state: CaptureState,
): Promise<LoadedCaptures> {
  if (!state.front || !state.liveness || !state.selfie) throw new Error(`capture ${state._id} is incomplete`);
  const readOf = async (side: CapturedSide): Promise<DocumentRead> =>
    JSON.parse(await sealer.open(documentReadWhere(state.session_id), side.read_sealed)) as DocumentRead;
  const sides = [state.back, state.front].filter((side): side is CapturedSide => side !== null);
  const reads = await Promise.all(sides.map(async (side) => ({ side, read: await readOf(side) })));
  const chosen = reads.find((r) => r.read.person !== null) ?? reads[0];
  const portraitBlob = [state.front, state.back].find((side) => side?.portrait_blob_id)?.portrait_blob_id ?? null;
  const { selfie } = state;
  const liveness =
    selfie.liveness_json && selfie.liveness_blob_id === state.liveness.blob_ids[0]
      ? (JSON.parse(selfie.liveness_json) as LivenessRun)
      : null;
  const faceMatch =
    selfie.face_match_json && portraitBlob && selfie.face_match_portrait_blob_id === portraitBlob
      ? (JSON.parse(selfie.face_match_json) as FaceMatchRun)
      : null;
  if (faceMatch && selfie.face_embedding_sealed)
    faceMatch.selfie_embedding = await sealer.open(
      selfieEmbeddingWhere(state.session_id),
      selfie.face_embedding_sealed,
    );
  const antispoof =
    (selfie.antispoof_frames_blob_id ?? null) === (state.liveness.blob_ids[0] ?? null)
      ? (JSON.parse(selfie.antispoof_json) as CheckRun)
      : null;
  const needFaceMatch = faceMatch === null && portraitBlob !== null;
  const chip = state.chip ?? null;
  const needFrames = liveness === null || antispoof === null;
  // The selfie is also needed to match a chip's portrait.
  const [portrait, frames, selfieImage, chipBody] = await Promise.all([
    needFaceMatch ? blobs.get(state.session_id, portraitBlob) : Promise.resolve(null),
    needFrames ? livenessFramesOf(blobs, state.session_id, state.liveness) : Promise.resolve(null),
    needFrames || needFaceMatch || chip ? blobs.get(state.session_id, selfie.blob_id) : Promise.resolve(null),
    chip ? blobs.get(state.session_id, chip.blob_id) : Promise.resolve(null),
  ]);
  return {
    read: chosen.read,
    declaredType: (state.document_type ?? 'passport') as DocumentType,
    hasPortrait: portraitBlob !== null,
    challenge: state.challenge as ChallengeStep[],
    paced: state.liveness.paced ?? null,
    antispoof,
    liveness,
    faceMatch,
    portrait,
    frames,
    selfie: selfieImage,
    chip: chip && chipBody ? { stored: chip, body: chipBody } : null,
  };
}
