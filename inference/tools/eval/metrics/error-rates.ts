import type { DecisionLine, ScoredTrial } from '../eval-task';

export interface ErrorRates {
  threshold: number;
  /** Non-genuine trials that pass / all non-genuine trials. */
  fmr: number;
  /** Genuine trials that fail (or could not be scored) / all genuine trials. */
  fnmr: number;
}

export function passes(score: number | null, threshold: number, comparison: DecisionLine['comparison']): boolean {
  if (score === null || Number.isNaN(score)) return false;
  return comparison === 'gte' ? score >= threshold : score <= threshold;
}

export function ratesAt(trials: ScoredTrial[], threshold: number, comparison: DecisionLine['comparison']): ErrorRates {
  let genuine = 0;
  let impostor = 0;
  let falseNonMatch = 0;
  let falseMatch = 0;
  for (const trial of trials) {
    const pass = passes(trial.score, threshold, comparison);
    if (trial.genuine) {
      genuine++;
      if (!pass) falseNonMatch++;
    } else {
      impostor++;
      if (pass) falseMatch++;
    }
  }
  return {
    threshold,
    fmr: impostor ? falseMatch / impostor : 0,
    fnmr: genuine ? falseNonMatch / genuine : 0,
  };
}

/**
 * Error rates at every distinct score (each a candidate line), ordered from the most permissive
 * line to the strictest, so FMR falls and FNMR rises along the list.
 */
export function sweep(trials: ScoredTrial[], comparison: DecisionLine['comparison']): ErrorRates[] {
  const scores = [...new Set(trials.map((t) => t.score).filter((s): s is number => s !== null && !Number.isNaN(s)))];
  scores.sort((a, b) => (comparison === 'gte' ? a - b : b - a));
  const beyond = scores.length ? scores[scores.length - 1] + (comparison === 'gte' ? 1e-6 : -1e-6) : 0;
  return [...scores, beyond].map((threshold) => ratesAt(trials, threshold, comparison));
}

export interface EqualErrorPoint {
  /** Where FMR and FNMR cross (their mean at the closest candidate line). */
  rate: number;
  threshold: number;
  fmr: number;
  fnmr: number;
  /**
   * When the classes separate completely, every line inside this interval gives zero errors; the
   * EER threshold is its midpoint. Null when they overlap.
   */
  zeroErrorInterval: [number, number] | null;
}

export function equalErrorPoint(trials: ScoredTrial[], comparison: DecisionLine['comparison']): EqualErrorPoint {
  const points = sweep(trials, comparison);
  let best = points[0];
  for (const point of points) if (Math.max(point.fmr, point.fnmr) < Math.max(best.fmr, best.fnmr)) best = point;
  const zeroErrorInterval = separationInterval(trials, comparison);
  if (zeroErrorInterval) {
    const threshold = (zeroErrorInterval[0] + zeroErrorInterval[1]) / 2;
    return { rate: 0, threshold, fmr: 0, fnmr: 0, zeroErrorInterval };
  }
  return {
    rate: (best.fmr + best.fnmr) / 2,
    threshold: best.threshold,
    fmr: best.fmr,
    fnmr: best.fnmr,
    zeroErrorInterval: null,
  };
}

/** The open gap between the worst genuine score and the best non-genuine score, if any. */
export function separationInterval(
  trials: ScoredTrial[],
  comparison: DecisionLine['comparison'],
): [number, number] | null {
  const sign = comparison === 'gte' ? 1 : -1;
  const genuine = trials.filter((t) => t.genuine).map((t) => t.score);
  const impostor = trials
    .filter((t) => !t.genuine)
    .map((t) => t.score)
    .filter((s): s is number => s !== null);
  if (!genuine.length || genuine.some((s) => s === null)) return null;
  const worstGenuine = Math.min(...(genuine as number[]).map((s) => sign * s));
  const bestImpostor = impostor.length ? Math.max(...impostor.map((s) => sign * s)) : -Infinity;
  if (!(worstGenuine > bestImpostor) || !Number.isFinite(bestImpostor)) return null;
  const ends = [sign * bestImpostor, sign * worstGenuine].sort((a, b) => a - b);
  return [ends[0], ends[1]];
}
