import { percentile } from './percentiles';

describe('nearest-rank percentiles', () => {
  it('reports a value that was measured, the median of an odd count being its middle', () => {
    expect(percentile([5, 1, 3], 50)).toBe(3);
  });
  it('takes the slowest run as p99 when fewer than a hundred were measured', () => {
    expect(percentile([10, 20, 30, 40, 1000], 99)).toBe(1000);
  });
});
