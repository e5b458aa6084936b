import type { PacedStepInput } from '../task-contracts';
import { parallaxFrames } from './parallax-frames';

const step = (kind: PacedStepInput['kind'], first_frame: number, frame_count: number): PacedStepInput => ({
  kind,
  target: { yaw: kind === 'OPEN_MOUTH' ? 0 : 20, pitch: 0 },
  tolerance_deg: 8,
  hold_ms: 800,
  deadline_ms: 5_000,
  first_frame,
  frame_count,
  timestamps_ms: Array.from({ length: frame_count }, (_, k) => 300 + 200 * k),
});

describe('the frames the parallax check measures', () => {
  it('leaves out the OPEN_MOUTH step of a paced challenge and keeps every turn', () => {
    const paced = [step('HOLD_POSE', 0, 4), step('OPEN_MOUTH', 4, 3), step('HOLD_POSE', 7, 3)];
    expect(parallaxFrames([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], paced)).toEqual([0, 1, 2, 3, 7, 8, 9]);
  });

  it('keeps only the frames that had a face, in order', () => {
    const paced = [step('HOLD_POSE', 0, 3), step('OPEN_MOUTH', 3, 2), step('HOLD_POSE', 5, 2)];
    expect(parallaxFrames([0, 2, 3, 6], paced)).toEqual([0, 2, 6]);
  });

  it('keeps every frame of a one-shot challenge, which has no mouth step', () => {
    expect(parallaxFrames([0, 1, 2, 5], null)).toEqual([0, 1, 2, 5]);
  });
});
