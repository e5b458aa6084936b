import { turnFromCylinderYaw } from '../face/mesh-geometry';
import type { PacedStepInput } from '../task-contracts';

/** What the paced checks need of one frame: its pose, mouth opening and non-rigid deformation. */
export interface PacedFrame {
  /** `headPose`'s cylinder reading, degrees; judged as the turn it means (`turnFromCylinderYaw`). */
  yaw: number;
  pitch: number;
  mouthOpenness: number;
}

/**
 * The lines the paced challenge is judged against. The pose estimate is a cylinder model over
 * FaceMesh (inference/tools/pose-error/README.md) whose yaw is converted to the turn of a face shaped
 * like MediaPipe's canonical one (`turnFromCylinderYaw`: the raw cylinder reads a real 36° as 70°).
 * A target must be reached: a turn short of the target by more than its tolerance does not count, so
 * a head (or a recording) that cannot turn that far cannot meet it; overshooting is allowed
 * `yawOvershoot` more, for faces whose nose stands out further than the canonical face's (they read
 * high). Yaw is measured from the face's frontal yaw, and pitch from its frontal pitch, both in
 * magnitude and direction.
 */
export const PACED_LINES = {
  /** Extra degrees of yaw allowed beyond the target (away from the frontal pose), for noses that stand out further than the canonical face's. */
  yawOvershoot: 8,
  /** The most the frontal yaw (the OPEN_MOUTH step's) may shift the yaw measured: a face facing the camera reads within a few degrees of 0. */
  maxFrontalYaw: 8,
  /** Share of the hold time the frames within tolerance must span (frames are sampled). */
  holdShare: 0.6,
  /** No human starts toward a target they have not seen: frames before this show the old pose. */
  reactionMs: 150,
  /** Fastest head turn counted as continuous, degrees a second; faster is a cut. */
  maxDegreesPerSecond: 900,
  /** Mouth opening gain (peak over the challenge's resting opening) an OPEN_MOUTH step must show. */
  minMouthGain: 0.12,
  /** HOLD_POSE targets within this many degrees of level give the pitch baseline (their settled frames). */
  levelPitchWithin: 4,
} as const;

export interface PacedStepResult {
  index: number;
  kind: PacedStepInput['kind'];
  /** Why the step was not followed, or null. */
  problem: string | null;
  /** HOLD_POSE: the longest time spent within tolerance (ms); OPEN_MOUTH: the mouth gain. */
  measure: number;
}

export interface PacedProgress {
  steps: PacedStepResult[];
  /** The fastest pose change between consecutive frames of a step, degrees a second. */
  fastestTurn: number;
  followed: number;
}

/**
 * Judges each paced step from its frames' poses and timestamps. A frame without a face is null.
 * Pitch is measured against the level baseline (frontalBaseline), as only pitch differences are
 * meaningful.
 */
export function followPaced(readings: Array<PacedFrame | null>, steps: PacedStepInput[]): PacedProgress {
  const frames = readings.map((f) => (f ? { ...f, yaw: turnFromCylinderYaw(f.yaw) } : null));
  const baseline = frontalBaseline(frames, steps);
  const frontal = Math.max(-PACED_LINES.maxFrontalYaw, Math.min(PACED_LINES.maxFrontalYaw, frontalYaw(frames, steps)));
  // Where the head was when each step was revealed: the previous step's last face, or facing the
  // camera (as the challenge starts) for the first.
  let startPose: PacedFrame = { yaw: frontal, pitch: baseline, mouthOpenness: 0 };
  const restingMouth = median(
    steps
      .filter((s) => s.kind === 'HOLD_POSE')
      .flatMap((s) => framesOf(frames, s).flatMap(({ frame }) => (frame ? [frame.mouthOpenness] : []))),
  );
  let fastestTurn = 0;
  const results = steps.map((step, index): PacedStepResult => {
    const own = framesOf(frames, step);
    const read = framesOf(readings, step);
    const start = startPose;
    startPose = [...own].reverse().find(({ frame }) => frame)?.frame ?? startPose;
    // On the estimator's own reading, as the 900°/s line was set: a cut jumps it at least as far.
    for (let k = 1; k < read.length; k += 1) {
      const [a, b] = [read[k - 1], read[k]];
      if (!a.frame || !b.frame) continue;
      const dt = Math.max(1, b.t - a.t) / 1000;
      fastestTurn = Math.max(fastestTurn, Math.hypot(b.frame.yaw - a.frame.yaw, b.frame.pitch - a.frame.pitch) / dt);
    }
    const late = own.filter(({ t }) => t > step.deadline_ms);
    if (late.length > 0) return { index, kind: step.kind, problem: 'frames after the deadline', measure: 0 };
    if (step.kind === 'OPEN_MOUTH') {
      const peak = Math.max(0, ...own.flatMap(({ frame }) => (frame ? [frame.mouthOpenness] : [])));
      const gain = peak - (Number.isFinite(restingMouth) ? restingMouth : 0);
      return {
        index,
        kind: step.kind,
        problem: gain < PACED_LINES.minMouthGain ? `the mouth did not open (gain ${gain.toFixed(3)})` : null,
        measure: gain,
      };
    }
    const within = (frame: PacedFrame | null) =>
      frame !== null &&
      yawReached(frame.yaw - frontal, step.target.yaw, step.tolerance_deg) &&
      Math.abs(frame.pitch - baseline - step.target.pitch) <= step.tolerance_deg;
    // Reaching the target before a person could have seen it is a script; a head that was already
    // within the target's tolerance when it was revealed shows nothing either way.
    const early = own.find(({ t, frame }) => t < PACED_LINES.reactionMs && within(frame));
    if (early && !within(start))
      return { index, kind: step.kind, problem: 'at the target before a person could react', measure: 0 };
    const held = longestRun(own, within);
    return {
      index,
      kind: step.kind,
      problem: held < step.hold_ms * PACED_LINES.holdShare ? `target not held (${Math.round(held)} ms)` : null,
      measure: held,
    };
  });
  return { steps: results, fastestTurn, followed: results.filter((r) => r.problem === null).length };
}

/** Yaw (from the frontal pose) within `tolerance` short of the target, or up to `tolerance` + `yawOvershoot` past it. */
function yawReached(yaw: number, target: number, tolerance: number): boolean {
  const past = Math.sign(target || 1) * (yaw - target);
  return past >= -tolerance && past <= tolerance + PACED_LINES.yawOvershoot;
}

type Timed = { t: number; frame: PacedFrame | null };

function framesOf(frames: Array<PacedFrame | null>, step: PacedStepInput): Timed[] {
  return Array.from({ length: step.frame_count }, (_, k) => ({
    t: step.timestamps_ms[k] ?? 0,
    frame: frames[step.first_frame + k] ?? null,
  }));
}

/** The longest time between the first and last of consecutive frames that all meet the test (one frame: 0 ms). */
function longestRun(own: Timed[], test: (frame: PacedFrame | null) => boolean): number {
  let best = 0;
  let start: number | null = null;
  for (const { t, frame } of own) {
    if (test(frame)) {
      start ??= t;
      best = Math.max(best, t - start);
    } else start = null;
  }
  return best;
}

/** The yaw the estimator reads for this face facing the camera: the OPEN_MOUTH step's, else 0. */
function frontalYaw(frames: Array<PacedFrame | null>, steps: PacedStepInput[]): number {
  const mouth = steps.find((s) => s.kind === 'OPEN_MOUTH');
  const yaws = mouth ? framesOf(frames, mouth).flatMap(({ frame }) => (frame ? [frame.yaw] : [])) : [];
  return yaws.length ? median(yaws) : 0;
}

/**
 * The pitch the estimator reads for this face looking level with its mouth closed: the settled
 * frames (second half) of the HOLD_POSE steps whose target is level, else the OPEN_MOUTH step's,
 * else the challenge's first frames. Not the OPEN_MOUTH step first: the estimate places the nose
 * between forehead and chin, and a wide-open mouth drops the chin, which reads as looking up
 * (+3° to +4.5° on the synthetic heads opened wide), enough to put pitch-up targets out of reach.
 * A turn reads within about 2° of facing the camera, and pitch is judged by direction only.
 */
function frontalBaseline(frames: Array<PacedFrame | null>, steps: PacedStepInput[]): number {
  const level = steps.filter((s) => s.kind === 'HOLD_POSE' && Math.abs(s.target.pitch) < PACED_LINES.levelPitchWithin);
  const settled = level.flatMap((s) => framesOf(frames, s).slice(Math.floor(s.frame_count / 2)));
  const mouth = steps.find((s) => s.kind === 'OPEN_MOUTH');
  const pitchesOf = (source: Timed[]) => source.flatMap(({ frame }) => (frame ? [frame.pitch] : []));
  for (const source of [settled, mouth ? framesOf(frames, mouth) : [], framesOf(frames, steps[0]).slice(0, 2)]) {
    const pitches = pitchesOf(source);
    if (pitches.length) return median(pitches);
  }
  return 0;
}

function median(values: number[]): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Each followed step's last frame with a face, in order: the frames the one-shot progress reads
 * as completing the steps (their faces are scored as key frames). A step's very last frame may have
 * lost the face (a blink, a miss, a frame cut at the deadline) even when the step was followed.
 */
export function pacedKeyFrames(
  progress: PacedProgress,
  steps: PacedStepInput[],
  faces: ReadonlyArray<object | null>,
): number[] {
  return progress.steps.flatMap((r, i) => {
    if (r.problem !== null) return [];
    const { first_frame: first, frame_count: count } = steps[i];
    for (let f = first + count - 1; f >= first; f--) if (faces[f]) return [f];
    return [];
  });
}
