import type { PacedStepInput } from '../task-contracts';

/**
 * The frames (of `frames`, indices into the upload) that the parallax check measures: all of
 * them, except the paced challenge's OPEN_MOUTH step. That step faces the camera while the jaw
 * drops, a change of shape that is no turn and reads as little parallax (wide-open synthetic
 * mouths 0.011-0.019 against the 0.02 line, their turns 0.02-0.06); ranked among the most
 * deformed frames, they pulled a live trial under the line (0.018, SPOOF_DETECTED). A flat
 * picture is still caught on the turns, which is where parallax shows.
 */
export function parallaxFrames(frames: number[], paced: PacedStepInput[] | null): number[] {
  const mouth = paced?.find((s) => s.kind === 'OPEN_MOUTH');
  if (!mouth) return frames;
  return frames.filter((i) => i < mouth.first_frame || i >= mouth.first_frame + mouth.frame_count);
}
