/**
 * Up to `count` frames spread evenly across the sequence, first and last included, so the frames
 * scored span the whole challenge rather than its start.
 */
export function spreadFrames<T>(frames: T[], count: number): Array<{ bytes: T; index: number }> {
  if (frames.length <= count) return frames.map((bytes, index) => ({ bytes, index }));
  const indices = new Set<number>();
  for (let k = 0; k < count; k++) indices.add(Math.round((k * (frames.length - 1)) / (count - 1)));
  return [...indices].map((index) => ({ bytes: frames[index], index }));
}
