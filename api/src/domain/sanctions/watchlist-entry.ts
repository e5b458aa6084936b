/**
 * One listed person as every list format is reduced to: an id stable within its list, the primary
 * name first then its aliases, and the qualifiers the matcher weighs. Persons only; lists also
 * carry companies, vessels and aircraft, which the parsers drop.
 */
export interface WatchlistEntry {
  id: string;
  /** Primary name first, then aliases (never empty). */
  names: string[];
  /** Dates of birth at the precision the list gives them: YYYY, YYYY-MM or YYYY-MM-DD. */
  dobs: string[];
  /** ISO 3166-1 alpha-2 codes. */
  nationalities: string[];
}

/** A list as loaded: its name (e.g. `ofac-sdn`), the version set at import, and its persons. */
export interface LoadedList {
  name: string;
  version: string;
  entries: WatchlistEntry[];
}
