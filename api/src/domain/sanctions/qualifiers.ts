import { MATCH_POLICY } from './match-policy';

/**
 * What the document's DOB says about a candidate: nothing when either side has none; agreement at
 * the list's precision (a list "1963" agrees with any 1963 date) raises the score a little; a
 * different year lowers it enough that a common name alone cannot reach the line.
 */
export function dobAdjustment(documentDob: string | null, listDobs: string[]): number {
  if (!documentDob || listDobs.length === 0) return 0;
  if (listDobs.some((listed) => documentDob.startsWith(listed))) return MATCH_POLICY.dobAgreement;
  const year = documentDob.slice(0, 4);
  if (listDobs.some((listed) => listed.slice(0, 4) === year)) return MATCH_POLICY.dobDayDisagreement;
  return MATCH_POLICY.dobYearDisagreement;
}

/** Disjoint nationalities lower the score; dual nationals are common, so agreement adds nothing. */
export function nationalityAdjustment(documentNationality: string | null, listNationalities: string[]): number {
  if (!documentNationality || listNationalities.length === 0) return 0;
  return listNationalities.includes(documentNationality.toUpperCase()) ? 0 : MATCH_POLICY.nationalityDisagreement;
}
