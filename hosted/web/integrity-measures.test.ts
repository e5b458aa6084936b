import { greyOf, meanAbsDifference, meanThumbnail, responded, summarizeTiming } from './integrity-measures';

describe('the measures behind the capture-integrity signals', () => {
  it('summarizes frame times as a count, a median interval and a jitter', () => {
    expect(summarizeTiming([0, 33, 67, 100, 133])).toEqual({ frames: 5, median_interval_ms: 33, jitter_ms: 0.43 });
    expect(summarizeTiming([0, 100, 200, 300])).toEqual({ frames: 4, median_interval_ms: 100, jitter_ms: 0 });
    expect(summarizeTiming([5])).toEqual({ frames: 1, median_interval_ms: null, jitter_ms: null });
    expect(summarizeTiming([])).toEqual({ frames: 0, median_interval_ms: null, jitter_ms: null });
  });

  it('turns RGBA pixels into grey levels and compares thumbnails', () => {
    expect(greyOf([255, 255, 255, 255, 0, 0, 0, 255]).map(Math.round)).toEqual([255, 0]);
    expect(
      meanThumbnail([
        [10, 20],
        [30, 40],
      ]),
    ).toEqual([20, 30]);
    expect(meanAbsDifference([10, 20, 30], [13, 20, 27])).toBe(2);
  });

  it('calls a change a response only when it clearly exceeds the noise before it', () => {
    expect(responded(12, 1)).toBe(true);
    expect(responded(2.5, 0.2)).toBe(false);
    expect(responded(6, 2.5)).toBe(false);
  });
});
