/**
 * The numbers behind a MATCH, in one place so the README, the evaluation and the code agree.
 * They were chosen on the evaluation set (`npm run eval:sanctions`), see api/README.md.
 */
export const MATCH_POLICY = {
  /** A MATCH is a final score at or above this line. */
  threshold: 0.86,
  /** Token pairs below this Jaro-Winkler similarity count as not matched at all. */
  minTokenSimilarity: 0.86,
  /** Tokens one edit apart that Jaro-Winkler scores below the line ("Naif"/"Nayif"). */
  oneEditSimilarity: 0.88,
  /** A particle joined to the name on one side only ("ALFAWAZ" / "al-Fawaz"). */
  joinedParticleSimilarity: 0.95,
  /** An initial ("J") against a name starting with it ("John"). */
  initialSimilarity: 0.9,
  /** The weight of the shorter name's coverage against the longer's (dropped middle names). */
  shorterSideWeight: 0.75,
  /** Both sides gave a DOB and no list date agrees, not even on the year. */
  dobYearDisagreement: -0.25,
  /** Same year but the day or month disagrees (a typo on either side is plausible). */
  dobDayDisagreement: -0.08,
  /** A list date agrees with the document at the list's precision. */
  dobAgreement: 0.05,
  /** Both sides gave nationalities and none is shared. */
  nationalityDisagreement: -0.1,
} as const;
