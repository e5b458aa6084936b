import { overallConfidence, scoreConfidence } from './confidence';

describe('confidence from the distance to each decision line', () => {
  it('is 0.5 on the line, 1 a whole line above it and 0 a whole line below', () => {
    expect(scoreConfidence({ name: 's', value: 0.7, threshold: 0.7, comparison: 'gte' })).toBe(0.5);
    expect(scoreConfidence({ name: 's', value: 1.4, threshold: 0.7, comparison: 'gte' })).toBe(1);
    expect(scoreConfidence({ name: 's', value: 0, threshold: 0.7, comparison: 'gte' })).toBe(0);
  });

  it('gives a met yes-or-no requirement (a name match, every check digit, every step) full confidence, and a missed one the usual formula', () => {
    expect(scoreConfidence({ name: 'name_match', value: 1, threshold: 1, comparison: 'gte' })).toBe(1);
    expect(scoreConfidence({ name: 'steps_completed', value: 4, threshold: 4, comparison: 'gte' })).toBe(1);
    expect(scoreConfidence({ name: 'name_match', value: 0, threshold: 1, comparison: 'gte' })).toBe(0);
    expect(scoreConfidence({ name: 'steps_completed', value: 3, threshold: 4, comparison: 'gte' })).toBeCloseTo(0.375);
  });

  it('reads a distance line (lower is better) the other way round', () => {
    expect(scoreConfidence({ name: 'd', value: 0.3, threshold: 0.6, comparison: 'lte' })).toBeCloseTo(0.75);
  });

  it('takes the weakest score, and 0 for a failure no score explains', () => {
    const scores = [
      { name: 'a', value: 0.9, threshold: 0.5, comparison: 'gte' as const },
      { name: 'b', value: 0.8, threshold: 0.7, comparison: 'gte' as const },
    ];
    expect(overallConfidence(scores, false)).toBeCloseTo(0.5714, 4);
    expect(overallConfidence(scores, true)).toBe(0);
  });
});
