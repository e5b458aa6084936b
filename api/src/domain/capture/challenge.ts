import { randomInt } from 'node:crypto';

export const CHALLENGE_STEPS = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK', 'LOOK_UP', 'LOOK_DOWN'] as const;
export type ChallengeStep = (typeof CHALLENGE_STEPS)[number];
export const CHALLENGE_LENGTH = 3;

/** Three distinct steps in a CSPRNG-drawn order (a partial Fisher-Yates shuffle), so a replayed video cannot know them. */
export function drawChallenge(length = CHALLENGE_LENGTH): ChallengeStep[] {
  const pool = [...CHALLENGE_STEPS];
  for (let i = 0; i < length; i += 1) {
    const j = i + randomInt(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, length);
}
