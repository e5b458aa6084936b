import { AppError, ErrorDetail } from '../../../shared/app-error';
import { FRAME_LIMITS, probeImage } from '../../../shared/image-probe';
import { ChallengeStep } from '../../capture/challenge';
import { FACE_FOUND_LINE } from '../../capture/face-found-line';
import { packFrames } from '../../capture/frame-pack';
import { openCaptureForWrite, runUploadCheck } from './capture-access';
import { CaptureDeps } from './capture-deps';
import { refuseOneShotWhenPaced } from './paced-liveness.usecase';
import { UPLOADS_PER_CAPTURE } from './upload-document.usecase';

export const MIN_FRAMES = 8;
export const MAX_FRAMES = 60;

export interface LivenessAnswer {
  received: number;
  face_found_ratio: number;
  retake: boolean;
  attempts_left: number;
}

function validateFrames(frames: Buffer[], timestamps: unknown): number[] {
  const problems: ErrorDetail[] = [];
  if (frames.length < MIN_FRAMES || frames.length > MAX_FRAMES)
    problems.push({
      field: 'frame',
      message: `send ${MIN_FRAMES} to ${MAX_FRAMES} frames; got ${frames.length}`,
    });
  const valid =
    Array.isArray(timestamps) && timestamps.every((t) => typeof t === 'number' && Number.isFinite(t) && t >= 0);
  if (!valid) problems.push({ field: 'timestamps', message: 'must be a JSON array of non-negative milliseconds' });
  else if (timestamps.length !== frames.length)
    problems.push({
      field: 'timestamps',
      message: `must have one entry per frame (${frames.length}); got ${timestamps.length}`,
    });
  else if (timestamps.some((t, i) => i > 0 && t <= timestamps[i - 1]))
    problems.push({ field: 'timestamps', message: 'must be strictly increasing' });
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 'The liveness upload is invalid.', problems);
  return timestamps as number[];
}

/**
 * Takes the challenge's frames and answers a quality gate only (did the frames show one face);
 * the liveness verdict is never revealed before the decision (contract).
 */
export async function uploadLiveness(
  deps: CaptureDeps,
  input: { id: string; token: string | null; frames: Buffer[]; timestamps: unknown },
): Promise<LivenessAnswer> {
  // One read of the session for both: a paced session is refused before the write is counted.
  const { session, state, stateId } = await openCaptureForWrite(deps, input.id, input.token, (s) =>
    refuseOneShotWhenPaced(s.environment),
  );
  const uploads = (state.liveness?.uploads ?? 0) + 1;
  if (uploads > UPLOADS_PER_CAPTURE)
    throw AppError.conflict(`The liveness capture has had its ${UPLOADS_PER_CAPTURE} attempts.`);
  const timestamps = validateFrames(input.frames, input.timestamps);
  for (const [i, frame] of input.frames.entries()) await probeImage(frame, FRAME_LIMITS, `frame[${i}]`);
  const run = await runUploadCheck(deps, 'frame', (inference) =>
    inference.checkLiveness(input.frames, state.challenge as ChallengeStep[]),
  );
  const ratio = run.face_found.length === 0 ? 0 : run.face_found.filter(Boolean).length / run.face_found.length;
  const rounded = Math.round(ratio * 1000) / 1000;
  const attemptsLeft = UPLOADS_PER_CAPTURE - uploads;
  const blobId = await deps.blobs.put(input.id, packFrames(input.frames));
  await deps.states.setLiveness(
    stateId,
    { blob_ids: [blobId], timestamps, uploads, face_found_ratio: rounded },
    deps.clock.now(),
  );
  if (state.liveness) await deps.blobs.delete(state.liveness.blob_ids);
  deps.logger.info(
    { session_id: session._id, frames: input.frames.length, face_found_ratio: rounded },
    'liveness frames captured',
  );
  return {
    received: input.frames.length,
    face_found_ratio: rounded,
    retake: attemptsLeft > 0 && ratio < FACE_FOUND_LINE,
    attempts_left: attemptsLeft,
  };
}
