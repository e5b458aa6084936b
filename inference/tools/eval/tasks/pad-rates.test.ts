import { clopperPearson, describePadRates, tallyRates, wilsonUpper, type PadOutcome } from './pad-rates';

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

describe('Clopper-Pearson 95 % interval', () => {
  it('gives the exact bounds the tables give: 0 of 20 up to 16.8 %, 1 of 10 from 0.25 % to 44.5 %, 10 of 10 from 69.2 %', () => {
    const none = clopperPearson(0, 20);
    expect(none.lower).toBe(0);
    expect(none.upper).toBeCloseTo(0.1684, 4);
    const one = clopperPearson(1, 10);
    expect(one.lower).toBeCloseTo(0.00253, 4);
    expect(one.upper).toBeCloseTo(0.445, 3);
    const all = clopperPearson(10, 10);
    expect(all.lower).toBeCloseTo(0.6915, 4);
    expect(all.upper).toBe(1);
    expect(clopperPearson(0, 0)).toEqual({ lower: 0, upper: 1 });
  });
});
