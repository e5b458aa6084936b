import damerauLevenshtein from 'talisman/metrics/damerau-levenshtein';
import jaroWinkler from 'talisman/metrics/jaro-winkler';
import { MATCH_POLICY } from './match-policy';

/**
 * Similarity of two normalised tokens in [0, 1]: Jaro-Winkler, which forgives typos late in a
 * name but punishes them early ("Dqaz"/"Diaz" 0.85, "Naif"/"Nayif" 0.84); so one edit
 * (substitution, insertion, deletion or transposition) between tokens of four letters or more
 * also counts as a near match. An initial matches a name it starts.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? MATCH_POLICY.initialSimilarity : 0;
  if (joinedParticle(a) === b || joinedParticle(b) === a) return MATCH_POLICY.joinedParticleSimilarity;
  const similarity = jaroWinkler(a, b);
  if (similarity >= MATCH_POLICY.minTokenSimilarity) return similarity;
  const oneEdit =
    Math.min(a.length, b.length) >= 3 &&
    Math.max(a.length, b.length) >= 4 &&
    Math.abs(a.length - b.length) <= 1 &&
    damerauLevenshtein.limited(1, a, b) <= 1;
  return oneEdit ? MATCH_POLICY.oneEditSimilarity : 0;
}

/** "alfawaz" → "fawaz": a particle written joined, which tokenising cannot split safely ("alvaro"). */
function joinedParticle(token: string): string | null {
  return token.length >= 6 && /^(al|el|ul)/.test(token) ? token.slice(2) : null;
}

export type Similarity = (a: string, b: string) => number;

/**
 * How well two token sets name the same person, in [0, 1]. Tokens are aligned one to one, best
 * pairs first (so order does not matter), and each side's coverage is weighed by token length.
 * The shorter name's coverage dominates, because documents drop middle names and aliases are
 * short; the longer's still counts, so "Ali Hassan" is a weaker match for a five-part name than
 * for "Ali Hassan". A multi-token name needs two aligned tokens: a shared first name alone is not
 * a match.
 */
export function nameScore(query: string[], candidate: string[], similarity: Similarity = tokenSimilarity): number {
  const n = query.length;
  const m = candidate.length;
  if (n === 0 || m === 0) return 0;
  // Names are a few tokens each: a dense matrix and repeated best-pair picks beat sorting objects.
  const sims = new Float64Array(n * m);
  for (let q = 0; q < n; q++) for (let c = 0; c < m; c++) sims[q * m + c] = similarity(query[q], candidate[c]);
  let coveredQ = 0;
  let coveredC = 0;
  let aligned = 0;
  let initialsOnly = true;
  for (let round = Math.min(n, m); round > 0; round--) {
    let bestAt = -1;
    let s = 0;
    for (let i = 0; i < sims.length; i++) {
      if (sims[i] > s) {
        s = sims[i];
        bestAt = i;
      }
    }
    if (bestAt < 0) break;
    const q = Math.floor(bestAt / m);
    const c = bestAt % m;
    for (let k = 0; k < m; k++) sims[q * m + k] = 0;
    for (let k = 0; k < n; k++) sims[k * m + c] = 0;
    const qt = query[q];
    const ct = candidate[c];
    coveredQ += s * qt.length;
    coveredC += s * ct.length;
    aligned++;
    if (qt.length > 1 && ct.length > 1) initialsOnly = false;
  }
  if (initialsOnly || aligned < Math.min(2, query.length, candidate.length)) return 0;
  const coverageQ = coveredQ / totalLength(query);
  const coverageC = coveredC / totalLength(candidate);
  const [shorter, longer] =
    totalLength(query) <= totalLength(candidate) ? [coverageQ, coverageC] : [coverageC, coverageQ];
  return MATCH_POLICY.shorterSideWeight * shorter + (1 - MATCH_POLICY.shorterSideWeight) * longer;
}

function totalLength(tokens: string[]): number {
  let total = 0;
  for (const token of tokens) total += token.length;
  return total;
}
