import { ScreeningOutcome } from '../ports/sanctions-screening';
import { sanctionsEvidence } from './sanctions-evidence';

const lists = [{ name: 'ofac-sdn', version: '20260227T000000-abc123' }];
const hit = { list: 'ofac-sdn', entry_id: '2676', matched_name: 'Ayman AL-ZAWAHIRI', score: 0.97 };

describe('sanctionsEvidence', () => {
  it('names the list, entry id, matched name and score of a MATCH, with the line it crossed', () => {
    const outcome: ScreeningOutcome = { verdict: 'MATCH', threshold: 0.86, score: 0.97, best: hit, lists };
    expect(sanctionsEvidence(outcome)).toEqual({
      verdict: 'MATCH',
      reason: 'SANCTIONS_MATCH',
      scores: [{ name: 'watchlist_name_match', value: 0.97, threshold: 0.86, comparison: '>=' }],
      match: hit,
      lists,
    });
  });

  it('shows no listed person for a CLEAR, even the closest one', () => {
    const outcome: ScreeningOutcome = { verdict: 'CLEAR', threshold: 0.86, score: 0.6, best: { ...hit, score: 0.6 }, lists };
    expect(sanctionsEvidence(outcome)).toMatchObject({ verdict: 'CLEAR', reason: null, match: null });
  });

  it('says why nothing was screened when no list is loaded', () => {
    expect(sanctionsEvidence({ verdict: 'SKIPPED', reason: 'NO_LIST_LOADED' })).toMatchObject({ verdict: 'SKIPPED', reason: 'NO_LIST_LOADED', scores: [] });
  });
});
