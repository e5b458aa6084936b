import { followChallenge, type ChallengeLimits, type FramePose } from './follow-challenge';

const limits: ChallengeLimits = { turnDegrees: 15, lookDegrees: 4, blinkRatio: 0.8 };
const rest: FramePose = { yaw: -10, pitch: -5, eyeOpenness: 0.3 };
const pose = (change: Partial<FramePose>): FramePose => ({ ...rest, ...change });
const left = pose({ yaw: rest.yaw + 25 });
const right = pose({ yaw: rest.yaw - 25 });
const closed = pose({ eyeOpenness: 0.15 });

describe('following a liveness challenge', () => {
  it('completes when the frames perform every step in the challenge order', () => {
    const progress = followChallenge(
      [rest, left, rest, right, rest, closed, rest],
      ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'],
      limits,
    );
    expect(progress).toEqual({ completedAt: [1, 3, 5], failedStep: null });
  });

  it('measures turns from the first frame, so a resting head angle is not a turn', () => {
    const progress = followChallenge([rest, rest, rest], ['TURN_RIGHT'], limits);
    expect(progress.failedStep).toBe('TURN_RIGHT');
  });

  it('names the first step that was not performed after the previous one when the order is wrong', () => {
    const progress = followChallenge([rest, right, rest, left, rest], ['TURN_LEFT', 'TURN_RIGHT'], limits);
    expect(progress).toEqual({ completedAt: [3], failedStep: 'TURN_RIGHT' });
  });

  it('does not count narrowed eyes as a blink while the head is looking down', () => {
    const lookingDown = pose({ pitch: rest.pitch - 6, eyeOpenness: 0.15 });
    expect(followChallenge([rest, lookingDown, rest], ['BLINK'], limits).failedStep).toBe('BLINK');
    expect(followChallenge([rest, lookingDown, rest], ['LOOK_DOWN'], limits).failedStep).toBeNull();
  });

  it('does not count the drift of a talking head (within ±10° of the first frame) as a turn', () => {
    const drift = [4, -6, 9, -10, 6, -4].map((d, i) =>
      pose({ yaw: rest.yaw + d, pitch: rest.pitch + (i % 2 ? 3 : -3) }),
    );
    expect(followChallenge([rest, ...drift], ['TURN_LEFT'], limits).failedStep).toBe('TURN_LEFT');
    expect(followChallenge([rest, ...drift], ['LOOK_UP'], limits).failedStep).toBe('LOOK_UP');
  });

  it('counts a blink made with the head still turned 11° after a turn step', () => {
    const blinkTurned = pose({ yaw: rest.yaw + 11, eyeOpenness: 0.14 });
    expect(
      followChallenge([rest, right, left, blinkTurned, rest], ['TURN_RIGHT', 'TURN_LEFT', 'BLINK'], limits),
    ).toEqual({ completedAt: [1, 2, 3], failedStep: null });
  });

  it('skips frames without a face and fails the first step when no frame has one', () => {
    expect(followChallenge([null, rest, null, left], ['TURN_LEFT'], limits).completedAt).toEqual([3]);
    expect(followChallenge([null, null], ['BLINK', 'TURN_LEFT'], limits).failedStep).toBe('BLINK');
  });
});
