/**
 * What the decision needs from watchlist screening (the sanctions add-on). The implementation
 * (list store + matcher) lives outside the domain; unit tests stub this interface.
 *
 * Never answers CLEAR without having screened: with no list loaded the outcome is SKIPPED.
 */
export interface ScreeningSubject {
  /** Given names then surname, as read from the document (MRZ transliteration possible). */
  name: string;
  /** YYYY-MM-DD, or null when the document gave none. */
  dob: string | null;
  /** ISO 3166-1 alpha-2 nationality from the document, or null. */
  nationality: string | null;
}

/** The best-scoring list entry: what the evidence report may show (never the whole entry). */
export interface ScreeningHit {
  /** The list's name as loaded, e.g. `ofac-sdn` or `un-consolidated`. */
  list: string;
  entry_id: string;
  matched_name: string;
  score: number;
}

export interface ScreenedList {
  name: string;
  /** The loaded version of the list (set at import). */
  version: string;
}

export type ScreeningOutcome =
  | {
      verdict: 'CLEAR' | 'MATCH';
      /** The decision line: MATCH when the best score is >= threshold. */
      threshold: number;
      /** Best score over every entry and alias (0 when nothing came close). */
      score: number;
      /** Set on MATCH; on CLEAR, the closest entry if any scored above zero. */
      best: ScreeningHit | null;
      lists: ScreenedList[];
    }
  | { verdict: 'SKIPPED'; reason: 'NO_LIST_LOADED' };

export interface SanctionsScreening {
  screen(subject: ScreeningSubject): Promise<ScreeningOutcome>;
}
