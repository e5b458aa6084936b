import type { ScoredTrial } from '../eval-task';
import { equalErrorPoint, ratesAt, separationInterval } from './error-rates';
import { probit } from './probit';

const trial = (score: number | null, genuine: boolean): ScoredTrial => ({
  id: `${score}-${genuine}`,
  score,
  genuine,
  kind: genuine ? 'same' : 'other',
});

describe('error rates at a decision line', () => {
  const trials = [
    trial(0.9, true),
    trial(0.8, true),
    trial(0.4, true),
    trial(0.6, false),
    trial(0.2, false),
    trial(0.1, false),
    trial(0.05, false),
  ];

  it('counts impostors at or above the line as false matches and genuine trials below it as false non-matches', () => {
    expect(ratesAt(trials, 0.5, 'gte')).toEqual({ threshold: 0.5, fmr: 1 / 4, fnmr: 1 / 3 });
  });

  it('treats a trial that could not be scored as rejected', () => {
    expect(ratesAt([trial(null, true), trial(null, false)], 0.5, 'gte')).toEqual({
      threshold: 0.5,
      fmr: 0,
      fnmr: 1,
    });
  });

  it('finds where the two error rates cross when the classes overlap', () => {
    const eer = equalErrorPoint(trials, 'gte');
    expect(eer.zeroErrorInterval).toBeNull();
    // At 0.4 one impostor in four passes and every genuine trial does: no line does better.
    expect(eer).toMatchObject({ threshold: 0.4, fmr: 0.25, fnmr: 0 });
    expect(eer.rate).toBeCloseTo(0.125);
  });

  it('reports the zero-error interval and its midpoint when the classes separate', () => {
    const separated = [trial(0.9, true), trial(0.7, true), trial(0.5, false), trial(0.1, false)];
    expect(separationInterval(separated, 'gte')).toEqual([0.5, 0.7]);
    expect(equalErrorPoint(separated, 'gte')).toMatchObject({ rate: 0, threshold: 0.6 });
  });

  it('handles scores that must stay below the line', () => {
    const lowerIsBetter = [trial(0.1, true), trial(0.2, true), trial(0.6, false)];
    expect(separationInterval(lowerIsBetter, 'lte')).toEqual([0.2, 0.6]);
    expect(ratesAt(lowerIsBetter, 0.15, 'lte').fnmr).toBeCloseTo(0.5);
  });
});

describe('the DET axis scale', () => {
  it('is the inverse normal CDF', () => {
    expect(probit(0.5)).toBeCloseTo(0, 8);
    expect(probit(0.975)).toBeCloseTo(1.959964, 5);
    expect(probit(0.001)).toBeCloseTo(-3.090232, 5);
  });
});
