import { ScreenedList, ScreeningHit, ScreeningOutcome } from '../ports/sanctions-screening';

export interface SanctionsEvidence {
  verdict: 'CLEAR' | 'MATCH' | 'SKIPPED';
  reason: 'SANCTIONS_MATCH' | 'NO_LIST_LOADED' | null;
  scores: Array<{ name: 'watchlist_name_match'; value: number; threshold: number; comparison: '>=' }>;
  /** Only on MATCH: which listed person, by list, id, the name that matched and its score. */
  match: ScreeningHit | null;
  /** The list versions screened against, so a decision can be traced to what was loaded. */
  lists: ScreenedList[];
}

/**
 * The sanctions check as the evidence report shows it: the list, entry id, matched name and score
 * of a MATCH, never the listed entry itself, and nothing about a near miss on CLEAR (that would
 * tie an applicant to a listed person they were cleared of).
 */
export function sanctionsEvidence(outcome: ScreeningOutcome): SanctionsEvidence {
  if (outcome.verdict === 'SKIPPED') return { verdict: 'SKIPPED', reason: 'NO_LIST_LOADED', scores: [], match: null, lists: [] };
  const match = outcome.verdict === 'MATCH' && outcome.best ? { list: outcome.best.list, entry_id: outcome.best.entry_id, matched_name: outcome.best.matched_name, score: outcome.best.score } : null;
  return {
    verdict: outcome.verdict,
    reason: outcome.verdict === 'MATCH' ? 'SANCTIONS_MATCH' : null,
    scores: [{ name: 'watchlist_name_match', value: outcome.score, threshold: outcome.threshold, comparison: '>=' }],
    match,
    lists: outcome.lists,
  };
}
