import { describePadRates, tallyRates, wilsonUpper, type PadOutcome } from './pad-rates';

const outcome = (species: string, live: boolean, accepted: boolean, noFace = false): PadOutcome => ({
  id: species,
  kind: 'still',
  species,
  live,
  noFace,
  accepted: { model: accepted },
});

describe('PAD error rates', () => {
  it('counts accepted attacks as APCER and refused live presentations as BPCER, per species', () => {
    const rates = tallyRates([
      outcome('print', false, true),
      outcome('print', false, false),
      outcome('print', false, false, true),
      outcome('live', true, false),
      outcome('live', true, true),
    ]);
    expect(rates.find((r) => r.species === 'print')).toMatchObject({
      samples: 3,
      errors: 1,
      noFace: 1,
      rate: 1 / 3,
    });
    expect(rates.find((r) => r.species === 'live')).toMatchObject({ samples: 2, errors: 1, rate: 0.5 });
  });

  it('bounds 0 errors in 30 near 11 % and 0 in 7 near 35 % at 95 %', () => {
    expect(wilsonUpper(0, 30)).toBeCloseTo(0.114, 2);
    expect(wilsonUpper(0, 7)).toBeCloseTo(0.354, 2);
  });

  it('prints each species with its sample count', () => {
    const lines = describePadRates(tallyRates([outcome('print', false, false), outcome('live', true, true)]), {
      padLine: 0.5,
    });
    expect(lines).toContain('| print | 1 | APCER 0.0% (0/1) [≤79.3%] |');
    expect(lines).toContain('| live | 1 | BPCER 0.0% (0/1) [≤79.3%] |');
  });
});
