import { dobAdjustment, nationalityAdjustment } from './qualifiers';

describe('dobAdjustment', () => {
  it('says nothing when either side has no date', () => {
    expect(dobAdjustment(null, ['1963-07-28'])).toBe(0);
    expect(dobAdjustment('1963-07-28', [])).toBe(0);
  });

  it('compares a partial list date by its own precision', () => {
    expect(dobAdjustment('1963-07-28', ['1963'])).toBeGreaterThan(0);
    expect(dobAdjustment('1963-07-28', ['1963-07'])).toBeGreaterThan(0);
  });

  it('lowers a different year far more than a different day of the same year', () => {
    const day = dobAdjustment('1963-07-28', ['1963-08-02']);
    const year = dobAdjustment('1963-07-28', ['1971-07-28']);
    expect(day).toBeLessThan(0);
    expect(year).toBeLessThan(day);
  });
});

describe('nationalityAdjustment', () => {
  it('lowers the score only when both sides have nationalities and share none', () => {
    expect(nationalityAdjustment('RU', ['RU', 'UA'])).toBe(0);
    expect(nationalityAdjustment(null, ['RU'])).toBe(0);
    expect(nationalityAdjustment('NL', ['RU'])).toBeLessThan(0);
  });
});
