import { randomInt } from 'node:crypto';

/**
 * The server-paced liveness challenge (production sessions; sandbox may use it too). Each step is
 * drawn with a CSPRNG only when the client asks for it, after the previous one was received, so a
 * recording made beforehand cannot know its target, its hold time or its deadline. The rules below
 * are the contract the native SDKs and the hosted page implement (docs/paced-challenge.md).
 */
export const PACED_STEP_KINDS = ['HOLD_POSE', 'OPEN_MOUTH'] as const;
export type PacedStepKind = (typeof PACED_STEP_KINDS)[number];

/** Steps in one paced challenge; exactly one of them is OPEN_MOUTH, at a position drawn per challenge. */
export const PACED_STEP_COUNT = 4;
/** Challenges (liveness attempts) a capture may start, as for the one-shot upload. */
export const PACED_ATTEMPTS = 3;

export const PACED_LIMITS = {
  /** Frames a chunk may carry. At 10 frames a second, a chunk is at most a second of video. */
  maxFramesPerChunk: 10,
  /** Chunks one step may receive (reveal, chunks and complete do not count against the 60 capture writes). */
  maxChunksPerStep: 12,
  /** Frames one step may receive in all. */
  maxFramesPerStep: 60,
  /** A frame's timestamp may lie at most this far before the chunk's arrival: frames are sent as captured. */
  maxFrameAgeMs: 2_500,
  /** Clock slack allowed for a timestamp after the server's own elapsed time at arrival. */
  clockSlackMs: 150,
  /** Time allowed after the hold for the client to send the last chunk and complete the step. */
  uploadSlackMs: 1_500,
  /** Time a person needs to see the prompt and move to the target, added to the hold. */
  reachAllowanceMs: 3_000,
  /** Largest gap between two frames of a step, and between steps, that still counts as continuous. */
  maxFrameGapMs: 600,
} as const;

/** Ranges the targets are drawn from, in degrees (yaw > 0: the applicant turns to their left; pitch > 0: up). */
export const PACED_RANGES = {
  /**
   * Beyond what a person turns to in an ordinary video call or clip (mostly within ±15°, at most
   * about ±22°), so a puppet that replays such a recording has no frame near the target.
   */
  yawAbs: [28, 36],
  /** Narrower than yaw: the pose estimate reads a deep turn short when the head also looks far up or down. */
  pitch: [-8, 8],
  /** A HOLD_POSE target lies at least this far (degrees, yaw and pitch combined) from the previous one. */
  minTravel: 15,
  /** How close to the target counts as reached. */
  toleranceDeg: 8,
  holdMs: [600, 1_600],
} as const;

export interface PoseTarget {
  yaw: number;
  pitch: number;
}

export interface DrawnPacedStep {
  kind: PacedStepKind;
  /** HOLD_POSE: the pose to reach and hold. OPEN_MOUTH: facing the camera (0, 0), mouth open. */
  target: PoseTarget;
  tolerance_deg: number;
  hold_ms: number;
  /** Milliseconds from the reveal to the deadline. */
  deadline_ms: number;
}

/** A uniform draw from a CSPRNG at 0.1 resolution. */
function uniform(low: number, high: number): number {
  return low + randomInt(Math.round((high - low) * 10) + 1) / 10;
}

/** The position (0-based) of the challenge's one OPEN_MOUTH step, drawn when the challenge starts; never the first step. */
export function drawMouthPosition(count = PACED_STEP_COUNT): number {
  return 1 + randomInt(count - 1);
}

/**
 * Draws step `index` of a challenge now: its kind from the challenge's mouth position, its target
 * (far enough from the previous target that the head must travel), its hold time and deadline.
 */
export function drawPacedStep(index: number, mouthPosition: number, previous: PoseTarget | null): DrawnPacedStep {
  const hold_ms = Math.round(uniform(PACED_RANGES.holdMs[0], PACED_RANGES.holdMs[1]));
  const deadline_ms = PACED_LIMITS.reachAllowanceMs + hold_ms + PACED_LIMITS.uploadSlackMs;
  if (index === mouthPosition)
    return { kind: 'OPEN_MOUTH', target: { yaw: 0, pitch: 0 }, tolerance_deg: 15, hold_ms, deadline_ms };
  const from = previous ?? { yaw: 0, pitch: 0 };
  for (;;) {
    const side = randomInt(2) === 0 ? -1 : 1;
    const target = {
      yaw: side * uniform(PACED_RANGES.yawAbs[0], PACED_RANGES.yawAbs[1]),
      pitch: uniform(PACED_RANGES.pitch[0], PACED_RANGES.pitch[1]),
    };
    if (Math.hypot(target.yaw - from.yaw, target.pitch - from.pitch) >= PACED_RANGES.minTravel)
      return { kind: 'HOLD_POSE', target, tolerance_deg: PACED_RANGES.toleranceDeg, hold_ms, deadline_ms };
  }
}
