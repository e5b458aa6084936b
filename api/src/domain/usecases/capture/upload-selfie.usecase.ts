import { AppError } from '../../../shared/app-error';
import { PHOTO_RULES, probeImage } from '../../../shared/image-probe';
import { ChallengeStep } from '../../capture/challenge';
import { unpackFrames } from '../../capture/frame-pack';
import { openCaptureForWrite, runUploadCheck } from './capture-access';
import { CaptureDeps } from './capture-deps';
import { UPLOADS_PER_CAPTURE } from './upload-document.usecase';

export interface SelfieAnswer {
  face_found: boolean;
  retake: boolean;
  attempts_left: number;
}

/**
 * Takes the selfie and says only whether a face was found. The antispoof run made here is kept for
 * the decision (it scores this very image); its verdict is not revealed before the decision.
 */
export async function uploadSelfie(deps: CaptureDeps, input: { id: string; token: string | null; image: Buffer }): Promise<SelfieAnswer> {
  const { session, state, stateId } = await openCaptureForWrite(deps, input.id, input.token);
  const uploads = (state.selfie?.uploads ?? 0) + 1;
  if (uploads > UPLOADS_PER_CAPTURE) throw AppError.conflict(`The selfie has had its ${UPLOADS_PER_CAPTURE} attempts.`);
  await probeImage(input.image, PHOTO_RULES, 'body');
  // The liveness check needs the selfie (it must show who performed the challenge); running it now,
  // beside antispoof, takes it off the path from submit to decision. Its verdict stays hidden.
  const framesBlob = state.liveness?.blob_ids[0] ?? null;
  const [antispoof, liveness] = await Promise.all([
    runUploadCheck(deps, 'body', (inference) => inference.checkAntispoof(input.image)),
    framesBlob
      ? deps.blobs.get(input.id, framesBlob).then((packed) =>
          runUploadCheck(deps, 'body', (inference) => inference.checkLiveness(unpackFrames(packed), state.challenge as ChallengeStep[], input.image)),
        )
      : Promise.resolve(null),
  ]);
  const faceFound = antispoof.reason !== 'FACE_NOT_DETECTED';
  const keepLiveness = faceFound && liveness !== null;
  const attemptsLeft = UPLOADS_PER_CAPTURE - uploads;
  const blobId = await deps.blobs.put(input.id, input.image);
  await deps.states.setSelfie(
    stateId,
    {
      blob_id: blobId, uploads, face_found: faceFound, antispoof_json: JSON.stringify(antispoof),
      liveness_json: keepLiveness ? JSON.stringify(liveness) : null, liveness_blob_id: keepLiveness ? framesBlob : null,
    },
    deps.clock.now(),
  );
  if (state.selfie) await deps.blobs.delete([state.selfie.blob_id]);
  deps.logger.info({ session_id: session._id, face_found: faceFound }, 'selfie captured');
  return { face_found: faceFound, retake: attemptsLeft > 0 && !faceFound, attempts_left: attemptsLeft };
}
