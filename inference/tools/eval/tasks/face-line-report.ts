import type { DecisionLine, ScoredTrial } from '../eval-task';
import { passes } from '../metrics/error-rates';
import { upperBound95 } from '../metrics/binomial-bound';

export interface LineTrial extends ScoredTrial {
  split: string;
  identities: [string, string];
}

export interface SplitFigures {
  split: string;
  genuine: {
    pairs: number;
    photo_pairs: number;
    min: number | null;
    max: number | null;
    refused: number;
    fnmr: number;
    fnmr_upper95: number;
  };
  impostor: {
    pairs: number;
    identity_pairs: number;
    min: number | null;
    max: number | null;
    matched: number;
    identity_pairs_matched: number;
    fmr: number;
    fmr_upper95_pairs: number;
    fmr_upper95_identity_pairs: number;
  };
  nearest_impostors: Array<{ id: string; score: number }>;
  worst_genuine: Array<{ id: string; score: number | null }>;
}

const fix = (v: number | null): string => (v === null ? '—' : v.toFixed(3));
const pct = (v: number): string => `${(100 * v).toFixed(2)} %`;
const unordered = (ids: [string, string]): string => [...ids].sort().join(' / ');
/** A genuine pair's two photos, unordered: the document of A against a selfie of B is the pair {A, B}. */
const photoPair = (t: LineTrial): string =>
  t.id
    .split(' | ')
    .map((s) => s.replace(/__.*$/, ''))
    .sort()
    .join(' / ');

function splitFigures(
  trials: LineTrial[],
  split: string,
  line: number,
  comparison: DecisionLine['comparison'],
): SplitFigures {
  const own = trials.filter((t) => t.split === split);
  const genuine = own.filter((t) => t.genuine);
  const impostor = own.filter((t) => !t.genuine);
  const scores = (ts: LineTrial[]): number[] => ts.flatMap((t) => (t.score === null ? [] : [t.score]));
  const extent = (ts: LineTrial[]): [number | null, number | null] => {
    const s = scores(ts);
    return s.length ? [Math.min(...s), Math.max(...s)] : [null, null];
  };
  const refused = genuine.filter((t) => !passes(t.score, line, comparison)).length;
  const matchedTrials = impostor.filter((t) => passes(t.score, line, comparison));
  const identityPairs = new Set(impostor.map((t) => unordered(t.identities)));
  const identityPairsMatched = new Set(matchedTrials.map((t) => unordered(t.identities)));
  const [gMin, gMax] = extent(genuine);
  const [iMin, iMax] = extent(impostor);
  const closer = (a: number, b: number): number => (comparison === 'lte' ? a - b : b - a);
  return {
    split,
    genuine: {
      pairs: genuine.length,
      photo_pairs: new Set(genuine.map(photoPair)).size,
      min: gMin,
      max: gMax,
      refused,
      fnmr: genuine.length ? refused / genuine.length : 0,
      fnmr_upper95: upperBound95(refused, genuine.length),
    },
    impostor: {
      pairs: impostor.length,
      identity_pairs: identityPairs.size,
      min: iMin,
      max: iMax,
      matched: matchedTrials.length,
      identity_pairs_matched: identityPairsMatched.size,
      fmr: impostor.length ? matchedTrials.length / impostor.length : 0,
      fmr_upper95_pairs: upperBound95(matchedTrials.length, impostor.length),
      fmr_upper95_identity_pairs: upperBound95(identityPairsMatched.size, identityPairs.size),
    },
    nearest_impostors: impostor
      .filter((t) => t.score !== null)
      .sort((a, b) => closer(a.score!, b.score!))
      .slice(0, 3)
      .map((t) => ({ id: t.id, score: t.score! })),
    worst_genuine: [...genuine]
      .sort((a, b) => (a.score === null ? -1 : b.score === null ? 1 : closer(b.score, a.score)))
      .slice(0, 3)
      .map((t) => ({ id: t.id, score: t.score })),
  };
}

/**
 * The face line's figures on each split: genuine document/selfie pairs (and how many distinct
 * photo pairs they rest on), impostor pairs (and distinct pairs of people, since one person's two
 * documents are not independent trials), the extremes, the errors at the line and the 95 % upper
 * bounds those counts allow.
 */
export function describeFaceLine(
  trials: LineTrial[],
  line: number,
  comparison: DecisionLine['comparison'],
  alsoAt: number[] = [],
): { lines: string[]; figures: SplitFigures[] } {
  const splits = [...new Set(trials.map((t) => t.split))].sort();
  const figures = splits.map((s) => splitFigures(trials, s, line, comparison));
  const others = alsoAt.flatMap((other) =>
    splits.map((s) => {
      const f = splitFigures(trials, s, other, comparison);
      return `  at ${other}, ${s}: refused ${f.genuine.refused}/${f.genuine.pairs} genuine, matched ${f.impostor.matched}/${f.impostor.pairs} impostor pairs (${f.impostor.identity_pairs_matched}/${f.impostor.identity_pairs} pairs of people)`;
    }),
  );
  const lines = [
    `face line ${line} (${comparison === 'lte' ? 'distance <= line matches' : 'similarity >= line matches'}); every pair is a document portrait as read against a selfie`,
  ];
  for (const f of figures) {
    const g = f.genuine;
    const i = f.impostor;
    lines.push(
      `  ${f.split}: genuine ${g.pairs} pairs (${g.photo_pairs} distinct photo pairs) ${fix(g.min)}–${fix(g.max)}, refused ${g.refused}/${g.pairs} (FNMR ${pct(g.fnmr)}, ≤ ${pct(g.fnmr_upper95)} at 95 %)`,
    );
    lines.push(
      `  ${f.split}: impostor ${i.pairs} pairs (${i.identity_pairs} distinct pairs of people) ${fix(i.min)}–${fix(i.max)}, matched ${i.matched}/${i.pairs} (FMR ${pct(i.fmr)}, ≤ ${pct(i.fmr_upper95_pairs)} at 95 % over pairs, ≤ ${pct(i.fmr_upper95_identity_pairs)} over pairs of people)`,
    );
    if (f.nearest_impostors.length)
      lines.push(
        `    nearest impostors: ${f.nearest_impostors.map((t) => `${t.score.toFixed(3)} ${t.id}`).join('; ')}`,
      );
    if (f.worst_genuine.length)
      lines.push(`    worst genuine: ${f.worst_genuine.map((t) => `${fix(t.score)} ${t.id}`).join('; ')}`);
  }
  return { lines: [...lines, ...others], figures };
}
