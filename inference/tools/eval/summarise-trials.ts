import type { DecisionLine, EvalOutcome, ScoredTrial } from './eval-task';
import { equalErrorPoint, passes, ratesAt, sweep, type EqualErrorPoint, type ErrorRates } from './metrics/error-rates';

export interface TrialSummary {
  decision: DecisionLine;
  counts: { genuine: number; nonGenuine: number; unscored: number };
  atDecision: ErrorRates & { falseAccepts: number; falseRejects: number };
  equalError: EqualErrorPoint;
  byKind: Record<string, { trials: number; passed: number; min: number | null; max: number | null }>;
  curve: ErrorRates[];
}

export function summariseTrials(trials: ScoredTrial[], decision: DecisionLine): TrialSummary {
  const atDecision = ratesAt(trials, decision.threshold, decision.comparison);
  const byKind: TrialSummary['byKind'] = {};
  for (const trial of trials) {
    const entry = (byKind[trial.kind] ??= { trials: 0, passed: 0, min: null, max: null });
    entry.trials++;
    if (passes(trial.score, decision.threshold, decision.comparison)) entry.passed++;
    if (trial.score !== null) {
      entry.min = entry.min === null ? trial.score : Math.min(entry.min, trial.score);
      entry.max = entry.max === null ? trial.score : Math.max(entry.max, trial.score);
    }
  }
  const genuine = trials.filter((t) => t.genuine);
  const nonGenuine = trials.filter((t) => !t.genuine);
  return {
    decision,
    counts: {
      genuine: genuine.length,
      nonGenuine: nonGenuine.length,
      unscored: trials.filter((t) => t.score === null).length,
    },
    atDecision: {
      ...atDecision,
      falseAccepts: nonGenuine.filter((t) => passes(t.score, decision.threshold, decision.comparison)).length,
      falseRejects: genuine.filter((t) => !passes(t.score, decision.threshold, decision.comparison)).length,
    },
    equalError: equalErrorPoint(trials, decision.comparison),
    byKind,
    curve: sweep(trials, decision.comparison),
  };
}

export function describeSummary(summary: TrialSummary, vocabulary: EvalOutcome['vocabulary']): string[] {
  const words = vocabulary ?? { falseAccept: 'false match', falseReject: 'false non-match' };
  const pct = (r: number) => `${(100 * r).toFixed(2)}%`;
  const { decision, counts, atDecision, equalError } = summary;
  const sign = decision.comparison === 'gte' ? '>=' : '<=';
  const lines = [
    `trials: ${counts.genuine} genuine, ${counts.nonGenuine} non-genuine (${counts.unscored} could not be scored: counted as rejects)`,
    `decision line: ${decision.score} ${sign} ${decision.threshold} (configured in ${decision.configuredIn})`,
    `  FMR  (${words.falseAccept}) = ${pct(atDecision.fmr)} (${atDecision.falseAccepts}/${counts.nonGenuine})`,
    `  FNMR (${words.falseReject}) = ${pct(atDecision.fnmr)} (${atDecision.falseRejects}/${counts.genuine})`,
    equalError.zeroErrorInterval
      ? `equal-error point: 0% — the sets separate completely; any line in (${equalError.zeroErrorInterval.map((v) => v.toFixed(4)).join(', ')}) makes no error on them`
      : `equal-error point: EER ~ ${pct(equalError.rate)} at ${decision.score} = ${equalError.threshold.toFixed(4)} (FMR ${pct(equalError.fmr)}, FNMR ${pct(equalError.fnmr)})`,
    'by kind (passed at the line / trials, score range):',
  ];
  for (const [kind, entry] of Object.entries(summary.byKind)) {
    const range = entry.min === null ? 'n/a' : `${entry.min.toFixed(4)} .. ${entry.max!.toFixed(4)}`;
    lines.push(`  ${kind}: ${entry.passed}/${entry.trials}, ${range}`);
  }
  return lines;
}
