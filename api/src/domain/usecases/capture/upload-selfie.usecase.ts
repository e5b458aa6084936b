import { AppError } from '../../../shared/app-error';
import { PHOTO_LIMITS, probeImage } from '../../../shared/image-probe';
import { selfieEmbeddingWhere } from '../../../shared/sealer';
import { CaptureState } from '../../capture/capture-state';
import { ChallengeStep } from '../../capture/challenge';
import { livenessFramesOf } from '../../capture/liveness-frames';
import { openCaptureForWrite, runUploadCheck } from './capture-access';
import { SelfieAnswer, selfieAnswerOf } from './selfie-answer';
import { CaptureDeps } from './capture-deps';
import { UPLOADS_PER_CAPTURE } from './upload-document.usecase';

/** The portrait the decision would match against: whichever captured side showed one. */
function portraitBlobOf(state: CaptureState): string | null {
  return [state.front, state.back].find((side) => side?.portrait_blob_id)?.portrait_blob_id ?? null;
}

/**
 * Takes the selfie and says only whether a face was found. Every check that needs the selfie runs
 * here, side by side (antispoof on it, liveness over the frames with it, face match of the document
 * portrait against it), so that after submit the decision only reads what was scored: the applicant
 * waits on the selfie upload, not on a queue behind it. Each run is kept with the blob it scored; a
 * capture retaken afterwards is checked again at decision. No verdict is revealed before the
 * decision. A retake is asked for when no face was found, or when the face fills the frame so the
 * antispoof crop has no room around it (FACE_TOO_CLOSE: move back), a framing problem the
 * applicant can fix, never a spoof verdict.
 */
export async function uploadSelfie(
  deps: CaptureDeps,
  input: { id: string; token: string | null; image: Buffer },
): Promise<SelfieAnswer> {
  const { session, state, stateId } = await openCaptureForWrite(deps, input.id, input.token);
  const uploads = (state.selfie?.uploads ?? 0) + 1;
  if (uploads > UPLOADS_PER_CAPTURE) throw AppError.conflict(`The selfie has had its ${UPLOADS_PER_CAPTURE} attempts.`);
  await probeImage(input.image, PHOTO_LIMITS, 'body');
  const framesBlob = state.liveness?.blob_ids[0] ?? null;
  const portraitBlob = portraitBlobOf(state);
  const frames = state.liveness && framesBlob ? await livenessFramesOf(deps.blobs, input.id, state.liveness) : null;
  const [antispoof, liveness, faceMatch] = await Promise.all([
    runUploadCheck(deps, 'body', (inference) => inference.checkAntispoof(input.image, frames ?? [])),
    frames
      ? runUploadCheck(deps, 'body', (inference) =>
          inference.checkLiveness(frames, state.challenge as ChallengeStep[], input.image, state.liveness?.paced),
        )
      : Promise.resolve(null),
    portraitBlob
      ? deps.blobs
          .get(input.id, portraitBlob)
          .then((portrait) => runUploadCheck(deps, 'body', (inference) => inference.matchFaces(portrait, input.image)))
      : Promise.resolve(null),
  ]);
  const faceFound = antispoof.reason !== 'FACE_NOT_DETECTED';
  // Without a face in the selfie the decision runs liveness without it and skips face match.
  const keepLiveness = faceFound && liveness !== null;
  const keepFaceMatch = faceFound && faceMatch !== null;
  const attemptsLeft = UPLOADS_PER_CAPTURE - uploads;
  const embedding = keepFaceMatch ? (faceMatch.selfie_embedding ?? null) : null;
  const blobId = await deps.blobs.put(input.id, input.image);
  await deps.states.setSelfie(
    stateId,
    {
      blob_id: blobId,
      uploads,
      face_found: faceFound,
      antispoof_json: JSON.stringify(antispoof),
      antispoof_frames_blob_id: framesBlob,
      liveness_json: keepLiveness ? JSON.stringify(liveness) : null,
      liveness_blob_id: keepLiveness ? framesBlob : null,
      face_match_json: keepFaceMatch ? JSON.stringify({ ...faceMatch, selfie_embedding: null }) : null,
      face_match_portrait_blob_id: keepFaceMatch ? portraitBlob : null,
      face_embedding_sealed: embedding ? await deps.sealer.seal(selfieEmbeddingWhere(session._id), embedding) : null,
    },
    deps.clock.now(),
  );
  if (state.selfie) await deps.blobs.delete([state.selfie.blob_id]);
  deps.logger.info({ session_id: session._id, face_found: faceFound }, 'selfie captured');
  return selfieAnswerOf(antispoof, attemptsLeft);
}
