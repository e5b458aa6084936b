import { upperBound95 } from './binomial-bound';

describe('the 95 % upper bound on an error rate', () => {
  it('is 1 - 0.05^(1/n) when no error was seen, near the rule of three', () => {
    expect(upperBound95(0, 200)).toBeCloseTo(1 - 0.05 ** (1 / 200), 6);
    expect(upperBound95(0, 200)).toBeCloseTo(0.0149, 3);
    expect(upperBound95(0, 30)).toBeCloseTo(0.095, 3);
  });

  it('matches the Clopper-Pearson bound when errors were seen', () => {
    // Beta(2, 99) 95th percentile: the exact one-sided bound for 1 error in 100.
    expect(upperBound95(1, 100)).toBeCloseTo(0.0466, 3);
    expect(upperBound95(5, 50)).toBeCloseTo(0.197, 2);
  });

  it('is 1 when every trial erred or there were none', () => {
    expect(upperBound95(3, 3)).toBe(1);
    expect(upperBound95(0, 0)).toBe(1);
  });
});
