import type { ChallengeStep } from '../task-contracts';

export interface FramePose {
  yaw: number;
  pitch: number;
  eyeOpenness: number;
}

export interface ChallengeLimits {
  /** Yaw change from the first frame, in degrees, that counts as a turn. */
  turnDegrees: number;
  /** Pitch change from the first frame that counts as looking up or down. */
  lookDegrees: number;
  /** Eye openness at or below this fraction of the sequence's median counts as closed. */
  blinkRatio: number;
}

export interface ChallengeProgress {
  /** Frame index at which each completed step was seen, in challenge order. */
  completedAt: number[];
  /** The first step not performed after the previous one, or null when all were. */
  failedStep: ChallengeStep | null;
}

/**
 * Walks the frames once, in order, looking for each step after the frame that completed the
 * previous one; so the steps must be performed in the challenge's order. Poses are measured
 * against the first frame with a face (the capture starts facing the camera), which also cancels
 * each person's resting head angle. A blink only counts while the head is short of a counted
 * turn or look: looking down also narrows the eyes, but a blink with the head still a little
 * turned after a turn step is a real blink (turned frames keep 0.9–1.05 of the resting openness).
 */
export function followChallenge(
  frames: Array<FramePose | null>,
  challenge: ChallengeStep[],
  limits: ChallengeLimits,
): ChallengeProgress {
  const seen = frames.filter((f): f is FramePose => f !== null);
  if (!seen.length) return { completedAt: [], failedStep: challenge[0] ?? null };
  const rest = seen[0];
  const openness = median(seen.map((f) => f.eyeOpenness));
  const performs = (step: ChallengeStep, f: FramePose): boolean => {
    const yaw = f.yaw - rest.yaw;
    const pitch = f.pitch - rest.pitch;
    switch (step) {
      case 'TURN_LEFT':
        return yaw >= limits.turnDegrees;
      case 'TURN_RIGHT':
        return yaw <= -limits.turnDegrees;
      case 'LOOK_UP':
        return pitch >= limits.lookDegrees;
      case 'LOOK_DOWN':
        return pitch <= -limits.lookDegrees;
      case 'BLINK':
        return (
          f.eyeOpenness <= limits.blinkRatio * openness &&
          Math.abs(yaw) < limits.turnDegrees &&
          Math.abs(pitch) < limits.lookDegrees
        );
    }
  };
  const completedAt: number[] = [];
  let from = 0;
  for (const step of challenge) {
    let found = -1;
    for (let i = from; i < frames.length; i++) {
      const frame = frames[i];
      if (frame && performs(step, frame)) {
        found = i;
        break;
      }
    }
    if (found < 0) return { completedAt, failedStep: step };
    completedAt.push(found);
    from = found + 1;
  }
  return { completedAt, failedStep: null };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
