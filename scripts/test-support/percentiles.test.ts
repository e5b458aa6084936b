import { median, percentile, summarise } from './percentiles';

describe('nearest-rank percentiles', () => {
  it('reports a value that was measured, the median of an odd count being its middle', () => {
    expect(percentile([5, 1, 3], 50)).toBe(3);
    expect(median([5, 1, 3, 4])).toBe(3);
  });
  it('takes the slowest run as p99 when fewer than a hundred were measured', () => {
    expect(percentile([10, 20, 30, 40, 1000], 99)).toBe(1000);
  });
  it('answers null for an empty sample instead of inventing a time', () => {
    expect(percentile([], 50)).toBeNull();
    expect(summarise([])).toEqual({ n: 0, p50_ms: null, p95_ms: null, p99_ms: null, mean_ms: null });
  });
  it('summarises an unsorted sample with times rounded to hundredths', () => {
    expect(summarise([3.333, 1, 2])).toEqual({ n: 3, p50_ms: 2, p95_ms: 3.33, p99_ms: 3.33, mean_ms: 2.11 });
  });
});
