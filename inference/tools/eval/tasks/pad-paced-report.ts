/**
 * The paced attack set's figures: per species, trials, how many were VERIFIED and the liveness
 * check's verdicts, with Clopper-Pearson 95 % bounds, and the live control's completion time.
 */
import { percentile } from '../../../../scripts/test-support/percentiles';
import { pacedSpecies, speciesNotes, type PacedSpecies } from '../../../../scripts/test-support/paced-attacks';
import { clopperPearson } from './pad-rates';
import type { PacedTrialOutcome } from './pad-paced-trial';

export interface PacedSpeciesRates {
  species: PacedSpecies;
  live: boolean;
  trials: number;
  verified: number;
  verified_ci95: { lower: number; upper: number };
  liveness: Record<string, number>;
  liveness_pass_ci95: { lower: number; upper: number };
  failure_reasons: Record<string, number>;
  /** Subject → "VERIFIED/trials, liveness PASS/trials". */
  by_subject: Record<string, { trials: number; verified: number; liveness_pass: number }>;
  /** Trials whose challenge was restarted at least once. */
  restarted: number;
  /** Live control only: ms from the first reveal to the last step's answer (simulated head, client clock). */
  completion_ms: { p50: number | null; p95: number | null } | null;
}

const count = (values: string[]) => {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
};

export function tallyPaced(outcomes: PacedTrialOutcome[]): PacedSpeciesRates[] {
  return pacedSpecies
    .map((species) => {
      const of = outcomes.filter((o) => o.species === species);
      const verified = of.filter((o) => o.status === 'VERIFIED').length;
      const passed = of.filter((o) => o.liveness.verdict === 'PASS').length;
      const times = of.filter((o) => o.challenge.next === 'selfie').map((o) => o.challenge.elapsedMs);
      return {
        species,
        live: species === 'live-paced',
        trials: of.length,
        verified,
        verified_ci95: clopperPearson(verified, of.length),
        liveness: count(of.map((o) => o.liveness.verdict)),
        liveness_pass_ci95: clopperPearson(passed, of.length),
        failure_reasons: count(of.filter((o) => o.failure_reason).map((o) => String(o.failure_reason))),
        by_subject: Object.fromEntries(
          [...new Set(of.map((o) => o.params.subject))].sort().map((subject) => {
            const mine = of.filter((o) => o.params.subject === subject);
            return [
              subject,
              {
                trials: mine.length,
                verified: mine.filter((o) => o.status === 'VERIFIED').length,
                liveness_pass: mine.filter((o) => o.liveness.verdict === 'PASS').length,
              },
            ];
          }),
        ),
        restarted: of.filter((o) => o.challenge.attempts > 1).length,
        completion_ms: species === 'live-paced' ? { p50: percentile(times, 50), p95: percentile(times, 95) } : null,
      };
    })
    .filter((r) => r.trials > 0);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const interval = (ci: { lower: number; upper: number }) => `[${pct(ci.lower)}, ${pct(ci.upper)}]`;
const list = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '–';

export function describePaced(rates: PacedSpeciesRates[], context: { seed: number; minutes: number }): string[] {
  const lines = [
    `The paced challenge's attack set through the capture API on the real stack (FerretDB, Redis, inference on the real models, API, worker), production keys, one trial at a time, seed ${context.seed}, ${context.minutes.toFixed(1)} min.`,
    "Every applicant is the project's synthetic head (a real photo warped on a cylinder): these rates are of simulated presentations, not of people.",
    "VERIFIED = the session's result; for attacks that is APCER, for the live control 1 - BPCER. Intervals: Clopper-Pearson 95 %.",
    '',
    '| species | trials | VERIFIED [95 %] | liveness verdicts | liveness PASS [95 %] | failure reasons | restarted | by subject: VERIFIED, liveness PASS / trials |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rates)
    lines.push(
      `| ${r.species}${r.live ? ' (bona fide)' : ''} | ${r.trials} | ${r.verified}/${r.trials} ${pct(r.trials ? r.verified / r.trials : 0)} ${interval(r.verified_ci95)} | ${list(r.liveness)} | ${interval(r.liveness_pass_ci95)} | ${list(r.failure_reasons)} | ${r.restarted} | ${Object.entries(
        r.by_subject,
      )
        .map(([subject, b]) => `${subject} ${b.verified}, ${b.liveness_pass} / ${b.trials}`)
        .join('; ')} |`,
    );
  const live = rates.find((r) => r.live);
  if (live) {
    const refused = live.trials - live.verified;
    lines.push(
      '',
      `BPCER (live control not VERIFIED): ${refused}/${live.trials} ${pct(live.trials ? refused / live.trials : 0)} ${interval(clopperPearson(refused, live.trials))}.`,
      `Live control's challenge completion time (simulated head with a 150-450 ms reaction and 60-140 °/s turns, client clock from the first reveal to the last step's answer, restarts included): p50 ${live.completion_ms?.p50 ?? '–'} ms, p95 ${live.completion_ms?.p95 ?? '–'} ms.`,
    );
  }
  lines.push('', 'Species:');
  for (const r of rates) lines.push(`- ${r.species}: ${speciesNotes[r.species]}.`);
  return lines;
}
