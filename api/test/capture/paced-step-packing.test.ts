import { CaptureState, PacedCapture, PacedStepRecord } from '../../src/domain/capture/capture-state';
import { packFrames, unpackFrames } from '../../src/domain/capture/frame-pack';
import { livenessFramesOf } from '../../src/domain/capture/liveness-frames';
import { PACED_STEP_COUNT } from '../../src/domain/capture/paced-challenge';
import { FrameObservation } from '../../src/domain/checks/check-results';
import { hashToken } from '../../src/domain/usecases/capture/capture-access';
import { CaptureDeps } from '../../src/domain/usecases/capture/capture-deps';
import { completePacedStep, DECISION_FRAMES_PER_STEP } from '../../src/domain/usecases/capture/paced-liveness.usecase';

// A unit test of the step close's orchestration: the ports are in-memory fakes (the real
// FerretDB, blob store and inference path run in capture-paced-challenge.test.ts).

const SESSION = 'ses_paced_packing';
const TOKEN = 'capture-token';
const NOW = new Date('2026-11-27T12:00:00.000Z');
const FRAMES_PER_STEP = 40;
const CHUNK = 10;

const frameOf = (step: number, i: number) => Buffer.from(`step-${step}-frame-${i}`);
const nameOf = (frame: Buffer) => frame.toString('utf8');

/** The spread the decision keeps of 40 frames: first and last kept, 15 in all. */
const KEPT_OF_40 = [0, 3, 6, 8, 11, 14, 17, 20, 22, 25, 28, 31, 33, 36, 39];

/** A port's answer, settled on a later tick as a real store's would be. */
const later = <T>(answer: () => T): Promise<T> => Promise.resolve().then(answer);

interface Harness {
  deps: CaptureDeps;
  blobs: Map<string, Buffer>;
  state: CaptureState;
  observed: string[][];
  writes: string[];
  /** Every blob id read, in order. */
  reads: string[];
  /** The steps drawn up front; each is revealed (put in the state) just before it completes. */
  drawn: PacedStepRecord[];
}

/** A capture with a paced challenge whose 4 steps will each hold 40 frames in 4 chunks. */
function harness(faceless: Set<string> = new Set(), challengesStarted = 1): Harness {
  const blobs = new Map<string, Buffer>();
  const observed: string[][] = [];
  const writes: string[] = [];
  const reads: string[] = [];
  let nextBlob = 0;
  const put = (bytes: Buffer) => {
    nextBlob += 1;
    blobs.set(`blob-${nextBlob}`, bytes);
    return `blob-${nextBlob}`;
  };
  const steps: PacedStepRecord[] = Array.from({ length: PACED_STEP_COUNT }, (_, index) => ({
    step_id: `pst_${index}`,
    index,
    kind: index === 1 ? 'OPEN_MOUTH' : 'HOLD_POSE',
    target: { yaw: 0, pitch: 0 },
    tolerance_deg: 10,
    hold_ms: 800,
    deadline_ms: 60_000,
    revealed_at: new Date(NOW.getTime() - 5_000 + index * 1_000),
    chunk_blob_ids: Array.from({ length: FRAMES_PER_STEP / CHUNK }, (_, c) =>
      put(packFrames(Array.from({ length: CHUNK }, (_, k) => frameOf(index, c * CHUNK + k)))),
    ),
    timestamps: Array.from({ length: FRAMES_PER_STEP }, (_, i) => 100 + i * 33),
    completed_at: null,
    face_found: null,
  }));
  const paced: PacedCapture = {
    challenges_started: challengesStarted,
    challenge_id: 'pch_1',
    mouth_position: 1,
    steps: [],
    outcome: 'open',
  };
  const state = {
    _id: `${SESSION}:1`,
    session_id: SESSION,
    attempt: 1,
    token_hash: hashToken(TOKEN),
    challenge: [],
    document_type: null,
    front: null,
    back: null,
    liveness: null,
    selfie: null,
    paced,
    last_write_at: NOW,
    submitted_at: null,
    purge_after: null,
    purged_at: null,
    created_at: NOW,
  } as CaptureState;
  const deps = {
    sessions: {
      findForApplicant: () =>
        later(() => ({ _id: SESSION, attempt: 1, status: 'IN_PROGRESS', decision_requested_at: null })),
    },
    states: {
      find: () => later(() => structuredClone(state)),
      setPaced: (_id: string, value: PacedCapture) =>
        later(() => {
          writes.push('setPaced');
          state.paced = structuredClone(value);
        }),
      setLiveness: (_id: string, value: CaptureState['liveness']) =>
        later(() => {
          writes.push('setLiveness');
          state.liveness = structuredClone(value);
        }),
    },
    blobs: {
      put: (_session: string, bytes: Buffer) =>
        later(() => {
          writes.push('put');
          return put(bytes);
        }),
      get: (_session: string, blobId: string) =>
        later(() => {
          reads.push(blobId);
          const bytes = blobs.get(blobId);
          if (!bytes) throw new Error(`blob ${blobId} is gone`);
          return bytes;
        }),
      delete: (ids: string[]) =>
        later(() => {
          if (ids.length > 0) writes.push('delete');
          ids.forEach((id) => blobs.delete(id));
        }),
    },
    inference: {
      observeFrames: (frames: Buffer[]) =>
        later((): FrameObservation[] => {
          observed.push(frames.map(nameOf));
          return frames.map((f) => ({ face_found: !faceless.has(nameOf(f)), yaw: 0, pitch: 0, mouth_openness: 0 }));
        }),
    },
    clock: { now: () => NOW },
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  } as unknown as CaptureDeps;
  return { deps, blobs, state, observed, writes, reads, drawn: steps };
}

function complete(h: Harness, index: number) {
  h.state.paced!.steps.push(h.drawn[index]);
  return completePacedStep(h.deps, { id: SESSION, token: TOKEN, stepId: `pst_${index}` });
}

describe("a paced step's close observes and keeps only the frames the decision judges", () => {
  it('observes the even spread of the step the decision keeps (first and last in), not every frame', async () => {
    const h = harness();
    const answer = await complete(h, 0);
    expect(KEPT_OF_40).toHaveLength(DECISION_FRAMES_PER_STEP);
    expect(h.observed).toEqual([KEPT_OF_40.map((i) => `step-0-frame-${i}`)]);
    expect(answer).toMatchObject({ step_id: 'pst_0', frames_total: 40, face_found_ratio: 1, next: 'step' });
  });

  it('keeps those frames in one blob written before the state that points at it, and deletes the chunks after', async () => {
    const h = harness();
    const chunks = h.drawn[0].chunk_blob_ids;
    await complete(h, 0);
    const closed = h.state.paced!.steps[0];
    expect(closed.chunk_blob_ids).toEqual([]);
    expect(chunks.every((id) => !h.blobs.has(id))).toBe(true);
    expect(unpackFrames(h.blobs.get(closed.kept_blob_id!)!).map(nameOf)).toEqual(
      KEPT_OF_40.map((i) => `step-0-frame-${i}`),
    );
    expect(h.writes).toEqual(['put', 'setPaced', 'delete']);
  });

  it('fails the gate on the judged frames: 4 of the 15 without one face is under 80 %, and the challenge restarts with every frame deleted', async () => {
    const h = harness(new Set([3, 6, 8, 11].map((i) => `step-0-frame-${i}`)));
    const answer = await complete(h, 0);
    expect(answer).toMatchObject({ face_found_ratio: 0.733, next: 'restart' });
    expect(h.state.paced!.outcome).toBe('restart');
    expect(h.drawn[0].chunk_blob_ids.some((id) => h.blobs.has(id))).toBe(false);
  });

  it('ignores frames the decision does not judge: 10 faceless frames of 40, all between the kept ones, do not fail the gate', async () => {
    const h = harness(new Set([1, 2, 4, 5, 7, 9, 10, 12, 13, 15].map((i) => `step-0-frame-${i}`)));
    expect(await complete(h, 0)).toMatchObject({ face_found_ratio: 1, next: 'step' });
  });

  it("hands the packed steps to the liveness capture unread, one blob a step, with each step's kept timestamps, and holds nothing else", async () => {
    const h = harness();
    const packedSteps: string[] = [];
    for (let index = 0; index < PACED_STEP_COUNT - 1; index += 1) {
      expect(await complete(h, index)).toMatchObject({ next: 'step' });
      packedSteps.push(h.state.paced!.steps[index].kept_blob_id!);
    }
    expect(await complete(h, PACED_STEP_COUNT - 1)).toMatchObject({ next: 'selfie', face_found_ratio: 1 });
    const liveness = h.state.liveness!;
    expect(liveness.blob_ids).toHaveLength(PACED_STEP_COUNT);
    expect(liveness.blob_ids.slice(0, -1)).toEqual(packedSteps);
    expect(packedSteps.every((id) => !h.reads.includes(id))).toBe(true);
    expect([...h.blobs.keys()]).toEqual(liveness.blob_ids);
    const frames = (await livenessFramesOf(h.deps.blobs, SESSION, liveness)).map(nameOf);
    const steps = Array.from({ length: PACED_STEP_COUNT }, (_, s) => s);
    expect(frames).toEqual(steps.flatMap((s) => KEPT_OF_40.map((i) => `step-${s}-frame-${i}`)));
    expect(liveness.paced!.map((spec) => [spec.first_frame, spec.frame_count])).toEqual(steps.map((s) => [s * 15, 15]));
    expect(liveness.paced![2].timestamps).toEqual(KEPT_OF_40.map((i) => 100 + i * 33));
    expect(liveness.timestamps.slice(15, 17)).toEqual([1_000 + 100, 1_000 + 100 + 3 * 33]);
    expect(liveness.face_found_ratio).toBe(1);
    expect(h.state.paced!.outcome).toBe('captured');
    expect(h.state.paced!.steps.every((s) => s.chunk_blob_ids.length === 0 && !s.kept_blob_id)).toBe(true);
    // The last step's frames are packed straight into the capture, never written as a step blob.
    expect(h.observed).toHaveLength(PACED_STEP_COUNT);
    expect(h.writes.slice(-4)).toEqual(['put', 'setLiveness', 'setPaced', 'delete']);
  });

  it("on the last attempt a step that fails its gate still goes to the decision: the packed steps and a spread of the failed step's chunks", async () => {
    const faceless = new Set([0, 3, 6, 8, 11].map((i) => `step-1-frame-${i}`));
    const h = harness(faceless, 3);
    expect(await complete(h, 0)).toMatchObject({ next: 'step', attempts_left: 0 });
    expect(await complete(h, 1)).toMatchObject({ next: 'selfie', face_found_ratio: 0.667 });
    const liveness = h.state.liveness!;
    expect(liveness.blob_ids).toHaveLength(2);
    const frames = (await livenessFramesOf(h.deps.blobs, SESSION, liveness)).map(nameOf);
    expect(frames).toEqual([0, 1].flatMap((s) => KEPT_OF_40.map((i) => `step-${s}-frame-${i}`)));
    expect(liveness.face_found_ratio).toBe(0.833);
    // Blobs 9 to 16 are the chunks of the two steps never revealed here; the rest is gone.
    const held = [...h.blobs.keys()].filter((id) => !h.drawn.slice(2).some((s) => s.chunk_blob_ids.includes(id)));
    expect(held).toEqual(liveness.blob_ids);
  });
});
