import { cylinderYawOfTurn } from '../face/mesh-geometry';
import type { PacedStepInput } from '../task-contracts';
import { followPaced, pacedKeyFrames, type PacedFrame } from './follow-paced';

const hold = (yaw: number, pitch = 0): PacedStepInput => ({
  kind: 'HOLD_POSE',
  target: { yaw, pitch },
  tolerance_deg: 8,
  hold_ms: 800,
  deadline_ms: 5_000,
  first_frame: 0,
  frame_count: 0,
  timestamps_ms: [],
});
const mouth: PacedStepInput = { ...hold(0), kind: 'OPEN_MOUTH', target: { yaw: 0, pitch: 0 } };

/** Lays steps out one after another, each with its frames every 200 ms from `start` ms after its reveal. */
function layout(parts: Array<{ step: PacedStepInput; frames: PacedFrame[]; start?: number }>) {
  const frames: PacedFrame[] = [];
  const steps = parts.map(({ step, frames: own, start = 300 }) => {
    const laid = {
      ...step,
      first_frame: frames.length,
      frame_count: own.length,
      timestamps_ms: own.map((_, k) => start + 200 * k),
    };
    frames.push(...own);
    return laid;
  });
  return { frames, steps };
}
/** A frame of a face shaped like the canonical one turned by `yaw` degrees, as the cylinder estimate reads it. */
const at = (yaw: number, mouthOpenness = 0.02, pitch = 0): PacedFrame => ({
  yaw: cylinderYawOfTurn(yaw),
  pitch,
  mouthOpenness,
});
const towards = (from: number, to: number) => [at(from), at((from + to) / 2), at(to), at(to), at(to), at(to), at(to)];

describe('following the paced steps', () => {
  it('passes a head that moves to each target after the reveal, holds it, and opens its mouth', () => {
    const { frames, steps } = layout([
      { step: hold(20), frames: towards(0, 20) },
      { step: mouth, frames: [at(10), at(0, 0.1), at(0, 0.35), at(0, 0.4), at(0, 0.4)] },
      { step: hold(-18), frames: towards(0, -18) },
    ]);
    const progress = followPaced(frames, steps);
    expect(progress.steps.map((s) => s.problem)).toEqual([null, null, null]);
    expect(progress.followed).toBe(3);
  });

  it('fails a step whose target was already shown before a person could react', () => {
    const { frames, steps } = layout([{ step: hold(20), frames: towards(20, 20), start: 40 }]);
    expect(followPaced(frames, steps).steps[0].problem).toMatch(/before a person could react/);
  });

  it("accepts a step whose target already lay within tolerance of the head's pose at its reveal", () => {
    // The estimator reads this face facing the camera at 5° (its OPEN_MOUTH step): yaw is measured
    // from there, so at the reveal the head is 6° short of the target, within its 8° tolerance.
    const { frames, steps } = layout([
      { step: hold(6), frames: [at(5), at(5), at(9), at(11), at(11), at(11), at(11)], start: 40 },
      { step: mouth, frames: [at(5), at(5, 0.3), at(5, 0.4), at(5, 0.4)] },
      { step: hold(-20), frames: [at(5), ...towards(5, -20)], start: 40 },
    ]);
    expect(followPaced(frames, steps).steps.map((s) => s.problem)).toEqual([null, null, null]);
  });

  it('fails a later step that the head jumped into from outside its tolerance before a person could react', () => {
    const { frames, steps } = layout([
      { step: hold(20), frames: towards(0, 20) },
      { step: hold(-20), frames: [at(-20), ...towards(-20, -20)], start: 40 },
    ]);
    expect(followPaced(frames, steps).steps[1].problem).toMatch(/before a person could react/);
  });

  it('judges a pitch-up target against the level steps, not against the open mouth that reads as looking up', () => {
    // A wide-open mouth drops the chin, and the estimate reads it 4° up: against those frames a
    // head looking up by 3° would not count as looking up at all.
    const up = (yaw: number, pitch: number) => at(yaw, 0.02, pitch);
    const { frames, steps } = layout([
      { step: hold(20), frames: towards(0, 20) },
      { step: mouth, frames: [at(10, 0.1, 0), at(0, 0.3, 4), at(0, 0.4, 4), at(0, 0.4, 4)] },
      {
        step: hold(-20, 9),
        frames: [up(0, 4), up(-10, 2), up(-20, 3), up(-20, 3), up(-20, 3), up(-20, 3), up(-20, 3)],
      },
    ]);
    expect(followPaced(frames, steps).steps.map((s) => s.problem)).toEqual([null, null, null]);
  });

  it('fails a pitch-up target that the head meets only in yaw, level with the level steps', () => {
    const { frames, steps } = layout([
      { step: hold(20), frames: towards(0, 20) },
      { step: mouth, frames: [at(10, 0.1), at(0, 0.4), at(0, 0.4), at(0, 0.4)] },
      { step: hold(-20, 9), frames: towards(0, -20) },
    ]);
    expect(followPaced(frames, steps).steps[2].problem).toMatch(/target not held/);
  });

  it('fails a step whose target was passed through but not held', () => {
    const { frames, steps } = layout([{ step: hold(20), frames: [at(0), at(20), at(0), at(-20), at(0)] }]);
    expect(followPaced(frames, steps).steps[0].problem).toMatch(/not held/);
  });

  it('fails an open-mouth step when the mouth stays as it rests, as a rigid mask does', () => {
    const { frames, steps } = layout([
      { step: hold(20), frames: towards(0, 20) },
      { step: mouth, frames: [at(0), at(0), at(0), at(0)] },
    ]);
    expect(followPaced(frames, steps).steps[1].problem).toMatch(/mouth did not open/);
  });

  it("measures the fastest turn between consecutive frames on the estimator's own reading, so a cut shows as a jump", () => {
    const read = (yaw: number): PacedFrame => ({ yaw, pitch: 0, mouthOpenness: 0.02 });
    const { frames, steps } = layout([
      { step: hold(20), frames: [read(-25), read(20), read(20), read(20), read(20), read(20)] },
    ]);
    expect(followPaced(frames, steps).fastestTurn).toBeCloseTo(45 / 0.2, 5);
  });

  it('fails frames stamped after the step deadline', () => {
    const { frames, steps } = layout([{ step: { ...hold(20), deadline_ms: 700 }, frames: towards(0, 20) }]);
    expect(followPaced(frames, steps).steps[0].problem).toMatch(/after the deadline/);
  });

  it('fails a head that stops short of the target by more than its tolerance, as a recording that never turned so far does', () => {
    // A video call's deepest turn, 22°, against a 32° target: 10° short.
    const { frames, steps } = layout([{ step: hold(32), frames: towards(0, 22) }]);
    expect(followPaced(frames, steps).steps[0].problem).toMatch(/target not held/);
  });

  it('accepts a head that turns past the target, on either side, but not one turned the other way', () => {
    // Beyond 37.7° the nose passes the face's edge and every deeper turn reads as that.
    const { frames, steps } = layout([
      { step: hold(30), frames: towards(0, 40) },
      { step: hold(-30), frames: towards(40, -50) },
    ]);
    expect(followPaced(frames, steps).steps.map((s) => s.problem)).toEqual([null, null]);
    const wrong = layout([{ step: hold(30), frames: towards(0, -34) }]);
    expect(followPaced(wrong.frames, wrong.steps).steps[0].problem).toMatch(/target not held/);
  });

  it("judges a real face's turn, not the cylinder's reading: 36° held reads as 70° and meets a 36° target", () => {
    const held = layout([{ step: hold(36), frames: towards(0, 36) }]);
    expect(held.frames[held.frames.length - 1].yaw).toBeGreaterThan(65);
    expect(followPaced(held.frames, held.steps).steps[0].problem).toBeNull();
  });

  it('fails a 36° target held at a 26° turn, which the cylinder alone would read as 39° and count', () => {
    const short = layout([{ step: hold(36), frames: towards(0, 26) }]);
    expect(short.frames[short.frames.length - 1].yaw).toBeGreaterThan(36);
    expect(followPaced(short.frames, short.steps).steps[0].problem).toMatch(/target not held/);
  });

  it('judges pitch by its size, not only its direction: a glance up 2° does not meet a 12° look up', () => {
    const up = (pitch: number) => [
      at(0),
      at(15, 0.02, pitch / 2),
      ...Array.from({ length: 5 }, () => at(30, 0.02, pitch)),
    ];
    const glance = layout([{ step: hold(30, 12), frames: up(2) }]);
    expect(followPaced(glance.frames, glance.steps).steps[0].problem).toMatch(/target not held/);
    const look = layout([{ step: hold(30, 12), frames: up(9) }]);
    expect(followPaced(look.frames, look.steps).steps[0].problem).toBeNull();
  });

  it('measures yaw from the frontal pose, but lets a frontal reading shift it by at most 8°', () => {
    // The OPEN_MOUTH step reads this face at -20° facing the camera: as if it were, a 10° turn would reach 30°.
    const { frames, steps } = layout([
      { step: hold(30), frames: towards(-20, 10) },
      { step: mouth, frames: [at(-20), at(-20, 0.3), at(-20, 0.4), at(-20, 0.4)] },
    ]);
    expect(followPaced(frames, steps).steps[0].problem).toMatch(/target not held/);
  });
});

describe("the paced steps' key frames", () => {
  const { frames, steps } = layout([
    { step: hold(30), frames: towards(0, 30) },
    { step: hold(-30), frames: towards(30, -30) },
  ]);
  const progress = followPaced(frames, steps);

  it("are each followed step's last frame when it shows a face", () => {
    expect(progress.followed).toBe(2);
    expect(pacedKeyFrames(progress, steps, frames)).toEqual([6, 13]);
  });

  it('step back to the last frame with a face when a followed step ends on a frame without one (a blink, a miss)', () => {
    const blinked: Array<PacedFrame | null> = frames.map((f, i) => (i === 6 || i === 13 ? null : f));
    const again = followPaced(blinked, steps);
    expect(again.followed).toBe(2);
    expect(pacedKeyFrames(again, steps, blinked)).toEqual([5, 12]);
  });

  it('leave out a step that was not followed', () => {
    const missed = {
      ...progress,
      steps: progress.steps.map((r, i) => (i === 0 ? { ...r, problem: 'held too short' } : r)),
    };
    expect(pacedKeyFrames(missed, steps, frames)).toEqual([13]);
  });
});
