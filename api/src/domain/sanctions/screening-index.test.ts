import { MATCH_POLICY } from './match-policy';
import { ScreeningIndex } from './screening-index';

const index = new ScreeningIndex([
  {
    name: 'test-list',
    version: 'v1',
    entries: [
      { id: 'e1', names: ['Ayman AL-ZAWAHIRI', 'Abu Fatima'], dobs: ['1951-06-19'], nationalities: ['EG'] },
      { id: 'e2', names: ['Mohammed Hassan Ali'], dobs: ['1970'], nationalities: ['IQ'] },
      {
        id: 'e3',
        names: ['Oleg Petrovich Vorontsev', 'Олег Петрович Воронцев'],
        dobs: [],
        nationalities: ['RU'],
      },
    ],
  },
  {
    name: 'other-list',
    version: 'v7',
    entries: [{ id: 'x1', names: ['Amira Nasser El-Khoury'], dobs: ['1975'], nationalities: ['LB'] }],
  },
]);

const isMatch = (score: number) => score >= MATCH_POLICY.threshold;

describe('ScreeningIndex', () => {
  it('finds a listed person as an MRZ prints them, naming the list, entry, name and score', () => {
    const { score, best } = index.screen({ name: 'AYMAN ZAWAHIRI', dob: '1951-06-19', nationality: 'EG' });
    expect(isMatch(score)).toBe(true);
    expect(best).toEqual({ list: 'test-list', entry_id: 'e1', matched_name: 'Ayman AL-ZAWAHIRI', score });
  });

  it('matches on an alias, and on a name with a one-letter typo', () => {
    expect(index.screen({ name: 'Fatima Abu', dob: null, nationality: null }).best?.entry_id).toBe('e1');
    expect(isMatch(index.screen({ name: 'Amira Naser El Khoury', dob: '1975-02-01', nationality: 'LB' }).score)).toBe(
      true,
    );
  });

  it('does not match a listed name whose DOB year disagrees with the document', () => {
    const sameName = index.screen({ name: 'Mohammed Hassan Ali', dob: '1990-04-12', nationality: null });
    expect(sameName.score).toBeGreaterThan(0);
    expect(isMatch(sameName.score)).toBe(false);
  });

  it('matches a partial list DOB by year', () => {
    expect(isMatch(index.screen({ name: 'Mohammed Hassan Ali', dob: '1970-04-12', nationality: 'IQ' }).score)).toBe(
      true,
    );
  });

  it('lowers the score when nationalities disagree', () => {
    const same = index.screen({ name: 'Oleg Vorontsev', dob: null, nationality: 'RU' }).score;
    const other = index.screen({ name: 'Oleg Vorontsev', dob: null, nationality: 'FR' }).score;
    expect(other).toBeLessThan(same);
  });

  it('answers zero with no hit for a name nothing on the lists resembles', () => {
    expect(index.screen({ name: 'Willeke Liselotte De Bruijn', dob: '1965-03-10', nationality: 'NL' })).toEqual({
      score: 0,
      best: null,
    });
  });

  it('knows the lists and versions it holds', () => {
    expect(index.lists).toEqual([
      { name: 'test-list', version: 'v1' },
      { name: 'other-list', version: 'v7' },
    ]);
    expect(index.entryCount).toBe(4);
  });
});
