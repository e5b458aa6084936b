import { AppError, ErrorDetail } from '../../../shared/app-error';
import { FRAME_LIMITS, probeImage } from '../../../shared/image-probe';
import { newPacedChallengeId, newPacedStepId } from '../../../shared/random-id';
import { CaptureState, PacedCapture, PacedStepRecord, PacedStepSpec } from '../../capture/capture-state';
import { FACE_FOUND_LINE } from '../../capture/face-found-line';
import { packFrames, unpackFrames } from '../../capture/frame-pack';
import {
  drawMouthPosition,
  drawPacedStep,
  PACED_ATTEMPTS,
  PACED_LIMITS,
  PACED_STEP_COUNT,
  PacedStepKind,
  PoseTarget,
} from '../../capture/paced-challenge';
import { authorizeCaptureWrite, runUploadCheck } from './capture-access';
import { CaptureDeps } from './capture-deps';

/** Frames of each step the decision judges (spread evenly over the step, first and last kept). */
export const DECISION_FRAMES_PER_STEP = 15;

export interface PacedStepAnswer {
  challenge_id: string;
  step_id: string;
  index: number;
  count: number;
  kind: PacedStepKind;
  target: PoseTarget;
  tolerance_deg: number;
  hold_ms: number;
  revealed_at: string;
  deadline_at: string;
  deadline_ms: number;
  limits: {
    max_frames_per_chunk: number;
    max_frames_per_step: number;
    max_chunks_per_step: number;
    max_frame_age_ms: number;
    max_frame_gap_ms: number;
  };
  attempts_left: number;
}

export interface PacedChunkAnswer {
  step_id: string;
  received: number;
  frames_total: number;
  deadline_ms: number;
}

export interface PacedStepDoneAnswer {
  step_id: string;
  frames_total: number;
  face_found_ratio: number;
  next: 'step' | 'selfie' | 'restart';
  attempts_left: number;
}

const LIMITS = {
  max_frames_per_chunk: PACED_LIMITS.maxFramesPerChunk,
  max_frames_per_step: PACED_LIMITS.maxFramesPerStep,
  max_chunks_per_step: PACED_LIMITS.maxChunksPerStep,
  max_frame_age_ms: PACED_LIMITS.maxFrameAgeMs,
  max_frame_gap_ms: PACED_LIMITS.maxFrameGapMs,
};

const PACED_ROUTES =
  'POST /v1/capture/{session_id}/liveness/steps, then …/liveness/steps/{step_id}/frames and …/liveness/steps/{step_id}/complete';

/** Production sessions capture liveness only through the paced routes (contract "Capture API"). */
export function refuseOneShotWhenPaced(environment: string): void {
  if (environment === 'production')
    throw new AppError(
      'CONFLICT',
      'This session captures liveness through the server-paced challenge; the one-shot upload is for sandbox sessions.',
      [{ field: 'liveness', message: `use ${PACED_ROUTES}` }],
    );
}

const elapsedMs = (step: PacedStepRecord, now: Date) => now.getTime() - new Date(step.revealed_at).getTime();
const pastDeadline = (step: PacedStepRecord, now: Date) => elapsedMs(step, now) > step.deadline_ms;
const attemptsLeft = (paced: PacedCapture) => Math.max(0, PACED_ATTEMPTS - paced.challenges_started);

function answerOf(paced: PacedCapture, step: PacedStepRecord): PacedStepAnswer {
  const revealed = new Date(step.revealed_at);
  return {
    challenge_id: paced.challenge_id,
    step_id: step.step_id,
    index: step.index,
    count: PACED_STEP_COUNT,
    kind: step.kind,
    target: step.target,
    tolerance_deg: step.tolerance_deg,
    hold_ms: step.hold_ms,
    revealed_at: revealed.toISOString(),
    deadline_at: new Date(revealed.getTime() + step.deadline_ms).toISOString(),
    deadline_ms: step.deadline_ms,
    limits: LIMITS,
    attempts_left: attemptsLeft(paced),
  };
}

/**
 * Reveals the next step, drawn now with a CSPRNG (contract "Capture API", paced challenge). The
 * first call starts a challenge; a step still open before its deadline is refused (409); a step
 * that missed its deadline ends its challenge, and this call starts the next one.
 */
export async function revealPacedStep(deps: CaptureDeps, id: string, token: string | null): Promise<PacedStepAnswer> {
  const { state, stateId } = await openPaced(deps, id, token);
  if (state.liveness) throw AppError.conflict('The liveness challenge is captured; take the selfie.');
  const now = deps.clock.now();
  let paced = state.paced ?? null;
  const open = paced?.outcome === 'open' ? paced.steps.find((s) => s.completed_at === null) : undefined;
  if (paced && open) {
    if (!pastDeadline(open, now))
      throw new AppError('CONFLICT', 'A step is open; send its frames and complete it first.', [
        {
          field: 'step_id',
          message: `step ${open.step_id} is open until ${new Date(new Date(open.revealed_at).getTime() + open.deadline_ms).toISOString()}`,
        },
      ]);
    paced = await endChallenge(deps, stateId, paced, now);
  }
  if (!paced || paced.outcome === 'restart') {
    const started = paced?.challenges_started ?? 0;
    if (started >= PACED_ATTEMPTS)
      throw AppError.conflict(`The liveness challenge has had its ${PACED_ATTEMPTS} attempts.`);
    paced = {
      challenges_started: started + 1,
      challenge_id: newPacedChallengeId(),
      mouth_position: drawMouthPosition(),
      steps: [],
      outcome: 'open',
    };
  }
  const index = paced.steps.length;
  const drawn = drawPacedStep(index, paced.mouth_position, paced.steps[index - 1]?.target ?? null);
  const step: PacedStepRecord = {
    step_id: newPacedStepId(),
    index,
    ...drawn,
    revealed_at: now,
    chunk_blob_ids: [],
    timestamps: [],
    completed_at: null,
    face_found: null,
  };
  paced = { ...paced, steps: [...paced.steps, step] };
  await deps.states.setPaced(stateId, paced, now);
  deps.logger.info({ session_id: id, index, kind: step.kind }, 'paced step revealed');
  return answerOf(paced, step);
}

function validateChunk(step: PacedStepRecord, frames: Buffer[], timestamps: unknown, elapsed: number): number[] {
  const problems: ErrorDetail[] = [];
  if (frames.length < 1 || frames.length > PACED_LIMITS.maxFramesPerChunk)
    problems.push({
      field: 'frame',
      message: `send 1 to ${PACED_LIMITS.maxFramesPerChunk} frames; got ${frames.length}`,
    });
  if (step.timestamps.length + frames.length > PACED_LIMITS.maxFramesPerStep)
    problems.push({ field: 'frame', message: `a step takes at most ${PACED_LIMITS.maxFramesPerStep} frames` });
  if (step.chunk_blob_ids.length >= PACED_LIMITS.maxChunksPerStep)
    problems.push({ field: 'frame', message: `a step takes at most ${PACED_LIMITS.maxChunksPerStep} chunks` });
  const valid =
    Array.isArray(timestamps) && timestamps.every((t) => typeof t === 'number' && Number.isFinite(t) && t >= 0);
  if (!valid) problems.push({ field: 'timestamps', message: 'must be a JSON array of non-negative milliseconds' });
  else if (timestamps.length !== frames.length)
    problems.push({
      field: 'timestamps',
      message: `must have one entry per frame (${frames.length}); got ${timestamps.length}`,
    });
  else {
    const ts = timestamps as number[];
    const last = step.timestamps[step.timestamps.length - 1] ?? -1;
    if (ts.some((t, i) => t <= (i === 0 ? last : ts[i - 1])))
      problems.push({ field: 'timestamps', message: "must increase strictly, after the step's earlier frames" });
    const latest = elapsed + PACED_LIMITS.clockSlackMs;
    const earliest = elapsed - PACED_LIMITS.maxFrameAgeMs;
    if (ts.some((t) => t > latest))
      problems.push({
        field: 'timestamps',
        message: `a frame cannot be captured after it arrived: ${elapsed} ms after the reveal`,
      });
    if (ts.some((t) => t < earliest))
      problems.push({
        field: 'timestamps',
        message: `frames must arrive within ${PACED_LIMITS.maxFrameAgeMs} ms of capture (send them as captured)`,
      });
  }
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 'The chunk is invalid.', problems);
  return timestamps as number[];
}

/** Takes a chunk of the open step's frames within its deadline; the server's arrival time bounds the timestamps. */
export async function uploadPacedFrames(
  deps: CaptureDeps,
  input: { id: string; token: string | null; stepId: string; frames: Buffer[]; timestamps: unknown },
): Promise<PacedChunkAnswer> {
  const { state, stateId } = await openPaced(deps, input.id, input.token);
  const now = deps.clock.now();
  const { paced, step } = stepOf(state, input.stepId);
  if (step.completed_at !== null || paced.outcome !== 'open')
    throw AppError.conflict('That step is closed; reveal the next step.');
  if (pastDeadline(step, now))
    throw AppError.conflict("The step's deadline passed; the challenge ended. Reveal a step to start a new one.");
  const elapsed = elapsedMs(step, now);
  const timestamps = validateChunk(step, input.frames, input.timestamps, elapsed);
  for (const [i, frame] of input.frames.entries()) await probeImage(frame, FRAME_LIMITS, `frame[${i}]`);
  const blobId = await deps.blobs.put(input.id, packFrames(input.frames));
  const updated: PacedStepRecord = {
    ...step,
    chunk_blob_ids: [...step.chunk_blob_ids, blobId],
    timestamps: [...step.timestamps, ...timestamps],
  };
  await deps.states.setPaced(stateId, withStep(paced, updated), deps.clock.now());
  return {
    step_id: step.step_id,
    received: input.frames.length,
    frames_total: updated.timestamps.length,
    deadline_ms: Math.max(0, step.deadline_ms - elapsed),
  };
}

/**
 * Closes the step: observes the frames the decision will judge (one face each?) and answers what
 * comes next. A step that passes its gate keeps only those frames, packed in one blob, and its
 * chunks are deleted then. The last step of a challenge whose steps all passed the gate moves the
 * challenge into the liveness capture the decision reads: up to DECISION_FRAMES_PER_STEP frames a
 * step, one blob a step, with each step's targets and timestamps. Idempotent.
 */
export async function completePacedStep(
  deps: CaptureDeps,
  input: { id: string; token: string | null; stepId: string },
): Promise<PacedStepDoneAnswer> {
  const { session, state, stateId } = await openPaced(deps, input.id, input.token, true);
  const now = deps.clock.now();
  const { paced, step } = stepOf(state, input.stepId);
  if (step.completed_at !== null) return doneAnswer(paced, step);
  if (paced.outcome !== 'open') throw AppError.conflict('That challenge has ended; reveal a step to start a new one.');
  if (pastDeadline(step, now) || step.timestamps.length === 0)
    return failChallenge(deps, state, stateId, withStep(paced, { ...step, completed_at: now, face_found: [] }), now);
  // The gate looks at exactly the frames the decision judges: the others are deleted unjudged, so
  // observing them would cost a face detection and a FaceMesh each and decide nothing.
  const kept = keptFramesOf(await framesOf(deps, input.id, step));
  const observed = await runUploadCheck(deps, 'frame', (inference) => inference.observeFrames(kept));
  const closed: PacedStepRecord = { ...step, completed_at: now, face_found: observed.map((o) => o.face_found) };
  if (faceRatio(closed) < FACE_FOUND_LINE) return failChallenge(deps, state, stateId, withStep(paced, closed), now);
  if (closed.index + 1 < PACED_STEP_COUNT) {
    // Blob first, then the state that points at it, then the chunks: a crash in between leaves
    // an unreferenced blob at worst, never a state pointing at frames that are gone.
    const keptBlobId = await deps.blobs.put(input.id, packFrames(kept));
    const packed: PacedStepRecord = { ...closed, chunk_blob_ids: [], kept_blob_id: keptBlobId };
    const next = withStep(paced, packed);
    await deps.states.setPaced(stateId, next, now);
    await deps.blobs.delete(step.chunk_blob_ids);
    return doneAnswer(next, packed);
  }
  const next = withStep(paced, closed);
  await captureChallenge(deps, state, stateId, next, now, new Map([[step.step_id, kept]]));
  deps.logger.info({ session_id: session._id, steps: next.steps.length }, 'paced challenge captured');
  return doneAnswer({ ...next, outcome: 'captured' }, closed);
}

async function openPaced(deps: CaptureDeps, id: string, token: string | null, allowCaptured = false) {
  const { session, state } = await authorizeCaptureWrite(deps, id, token);
  if (state.liveness && !allowCaptured) throw AppError.conflict('The liveness challenge is captured; take the selfie.');
  return { session, state, stateId: state._id };
}

function stepOf(state: CaptureState, stepId: string): { paced: PacedCapture; step: PacedStepRecord } {
  const paced = state.paced;
  const step = paced?.steps.find((s) => s.step_id === stepId);
  if (!paced || !step) throw AppError.notFound('step');
  return { paced, step };
}

const withStep = (paced: PacedCapture, step: PacedStepRecord): PacedCapture => ({
  ...paced,
  steps: paced.steps.map((s) => (s.step_id === step.step_id ? step : s)),
});

function faceRatio(step: PacedStepRecord): number {
  const found = step.face_found ?? [];
  return found.length === 0 ? 0 : Math.round((found.filter(Boolean).length / found.length) * 1000) / 1000;
}

function doneAnswer(paced: PacedCapture, step: PacedStepRecord): PacedStepDoneAnswer {
  const next =
    paced.outcome === 'captured'
      ? 'selfie'
      : paced.outcome === 'restart'
        ? attemptsLeft(paced) > 0
          ? 'restart'
          : 'selfie'
        : 'step';
  return {
    step_id: step.step_id,
    frames_total: step.timestamps.length,
    face_found_ratio: faceRatio(step),
    next,
    attempts_left: attemptsLeft(paced),
  };
}

async function framesOf(deps: CaptureDeps, sessionId: string, step: PacedStepRecord): Promise<Buffer[]> {
  const chunks = await Promise.all(step.chunk_blob_ids.map((blobId) => deps.blobs.get(sessionId, blobId)));
  return chunks.flatMap((chunk) => unpackFrames(chunk));
}

/** The step's frames the decision judges, in order. */
const keptFramesOf = (all: Buffer[]): Buffer[] => spread(all.length, DECISION_FRAMES_PER_STEP).map((i) => all[i]);

/** The frames the decision judges of a step that holds no packed blob: a spread of its chunks. */
async function keptFramesOfStep(deps: CaptureDeps, sessionId: string, step: PacedStepRecord): Promise<Buffer[]> {
  return keptFramesOf(await framesOf(deps, sessionId, step));
}

/** Every blob the challenge's steps hold (chunks and packed steps), and the steps with none. */
const blobsOfSteps = (paced: PacedCapture): string[] =>
  paced.steps.flatMap((s) => [...s.chunk_blob_ids, ...(s.kept_blob_id ? [s.kept_blob_id] : [])]);
const withoutBlobs = (step: PacedStepRecord): PacedStepRecord => ({ ...step, chunk_blob_ids: [], kept_blob_id: null });

/** Ends the open challenge and deletes its frames; a later reveal starts the next one. */
async function endChallenge(deps: CaptureDeps, stateId: string, paced: PacedCapture, now: Date): Promise<PacedCapture> {
  const ended: PacedCapture = {
    ...paced,
    outcome: 'restart',
    steps: paced.steps.map(withoutBlobs),
  };
  await deps.states.setPaced(stateId, ended, now);
  await deleteChunksOf(deps, paced);
  return ended;
}

/**
 * The step failed its gate or its deadline. With attempts left the challenge ends and the applicant
 * restarts. With none, capture goes on (as a document side after its last attempt): what the
 * challenge holds becomes the liveness capture and the decision carries the liveness reason. (A
 * last challenge with no frame at all can give the decision nothing: the session then expires.)
 */
async function failChallenge(
  deps: CaptureDeps,
  state: CaptureState,
  stateId: string,
  paced: PacedCapture,
  now: Date,
): Promise<PacedStepDoneAnswer> {
  const closed = paced.steps.find(
    (s) => s.completed_at !== null && s.index === paced.steps.length - 1,
  ) as PacedStepRecord;
  const holdsFrames = paced.steps.some((s) => s.timestamps.length > 0);
  if (attemptsLeft(paced) > 0 || !holdsFrames) {
    const ended = await endChallenge(deps, stateId, paced, now);
    return doneAnswer(ended, closed);
  }
  await captureChallenge(deps, state, stateId, paced, now);
  return doneAnswer({ ...paced, outcome: 'captured' }, closed);
}

async function deleteChunksOf(deps: CaptureDeps, paced: PacedCapture): Promise<void> {
  await deps.blobs.delete(blobsOfSteps(paced));
}

/** Evenly spread indices, first and last kept. */
function spread(count: number, keep: number): number[] {
  if (count <= keep) return Array.from({ length: count }, (_, i) => i);
  return [...new Set(Array.from({ length: keep }, (_, k) => Math.round((k * (count - 1)) / (keep - 1))))];
}

/**
 * Moves the challenge into the liveness capture the decision reads: each step's judged frames, one
 * blob a step, in step order. A step that passed its gate already holds its blob, which the capture
 * takes over unread; the step closing now (`inHand`: its judged frames) and a step that failed its
 * gate on the last attempt are packed here.
 */
async function captureChallenge(
  deps: CaptureDeps,
  state: CaptureState,
  stateId: string,
  paced: PacedCapture,
  now: Date,
  inHand: Map<string, Buffer[]> = new Map(),
): Promise<void> {
  const specs: PacedStepSpec[] = [];
  const timeline: number[] = [];
  const blobIds: string[] = [];
  const firstReveal = new Date(paced.steps[0].revealed_at).getTime();
  let firstFrame = 0;
  for (const step of paced.steps) {
    // The same spread keptFramesOf took when the step closed: the kept frames' timestamps.
    const kept = spread(step.timestamps.length, DECISION_FRAMES_PER_STEP);
    if (step.kept_blob_id) blobIds.push(step.kept_blob_id);
    else if (kept.length > 0) {
      const frames = inHand.get(step.step_id) ?? (await keptFramesOfStep(deps, state.session_id, step));
      if (frames.length !== kept.length)
        throw new Error(`paced step ${step.index} holds ${frames.length} frames, not ${kept.length}`);
      blobIds.push(await deps.blobs.put(state.session_id, packFrames(frames)));
    }
    const offset = new Date(step.revealed_at).getTime() - firstReveal;
    specs.push({
      kind: step.kind,
      target: step.target,
      tolerance_deg: step.tolerance_deg,
      hold_ms: step.hold_ms,
      deadline_ms: step.deadline_ms,
      first_frame: firstFrame,
      frame_count: kept.length,
      timestamps: kept.map((i) => step.timestamps[i]),
    });
    timeline.push(...kept.map((i) => offset + step.timestamps[i]));
    firstFrame += kept.length;
  }
  const found = paced.steps.flatMap((s) => s.face_found ?? []);
  const ratio = found.length === 0 ? 0 : Math.round((found.filter(Boolean).length / found.length) * 1000) / 1000;
  // The capture first, then the challenge that no longer holds these blobs, then the chunks: a
  // crash in between leaves a blob listed twice (purges delete it once), never one unlisted.
  await deps.states.setLiveness(
    stateId,
    {
      blob_ids: blobIds,
      timestamps: timeline,
      uploads: paced.challenges_started,
      face_found_ratio: ratio,
      paced: specs,
    },
    now,
  );
  await deps.states.setPaced(stateId, { ...paced, outcome: 'captured', steps: paced.steps.map(withoutBlobs) }, now);
  await deps.blobs.delete(paced.steps.flatMap((s) => s.chunk_blob_ids));
}
