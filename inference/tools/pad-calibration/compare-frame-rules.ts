/**
 * `npx tsx inference/tools/pad-calibration/compare-frame-rules.ts <calibration-frames.json> <report-frames.json>`:
 * compares ways of turning per-frame MiniFASNet scores (from `score-pad-frames.ts`) into one
 * sequence verdict. Each rule's line is placed on the calibration set (the highest line that refuses
 * at most `--live-budget` of its live recordings, default 1) and the counts are reported on the other
 * set: live recordings refused, screen replays and turned prints accepted, and the ROC AUC of the
 * statistic (live against each attack species), so every signal is also seen on its own.
 */
import { readFileSync } from 'node:fs';
import { spreadFrames } from '../../src/tasks';
import type { ScoredFrame, ScoredSequence } from './score-pad-frames';

type Stat = (frames: ScoredFrame[]) => number;

const quantile = (values: number[], q: number) => {
  if (!values.length) return -Infinity;
  const sorted = [...values].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
};
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : -Infinity);
const logit = (p: number) => Math.log(Math.max(p, 1e-6) / Math.max(1 - p, 1e-6));

function scoresOf(frames: ScoredFrame[], count: number, member: 'fused' | 0 | 1): number[] {
  const picked = count ? spreadFrames(frames, count).map((f) => f.bytes) : frames;
  return picked.filter((f) => f.found).map((f) => (member === 'fused' ? f.score! : f.members![member]));
}

const rules: Record<string, Stat> = {};
for (const count of [5, 9, 0]) {
  const n = count || 'all';
  for (const member of ['fused', 0, 1] as const) {
    const who = member === 'fused' ? 'V2+V1SE' : member === 0 ? 'V2' : 'V1SE';
    rules[`${who} ${n} frames: median`] = (f) => quantile(scoresOf(f, count, member), 0.5);
    rules[`${who} ${n} frames: mean`] = (f) => mean(scoresOf(f, count, member));
    rules[`${who} ${n} frames: mean logit`] = (f) => mean(scoresOf(f, count, member).map(logit));
    rules[`${who} ${n} frames: q25`] = (f) => quantile(scoresOf(f, count, member), 0.25);
    rules[`${who} ${n} frames: min`] = (f) => quantile(scoresOf(f, count, member), 0);
  }
}
// Temporal consistency: a recording shown on a screen is the same flat surface every frame.
rules['all frames: spread of fused logit (−sd)'] = (f) => {
  const l = scoresOf(f, 0, 'fused').map(logit);
  const m = mean(l);
  return -Math.sqrt(mean(l.map((x) => (x - m) ** 2)));
};
// Colour cues: higher blue/red = colder; negated so that higher means "more live".
rules['cue: face blue/red (−median)'] = (f) =>
  -quantile(
    f.filter((x) => x.faceBlueRed !== null).map((x) => x.faceBlueRed!),
    0.5,
  );
rules['cue: brightest 2% blue/red (−median)'] = (f) =>
  -quantile(
    f.map((x) => x.brightBlueRed),
    0.5,
  );

function auc(live: number[], attack: number[]): number {
  let wins = 0;
  for (const l of live) for (const a of attack) wins += l > a ? 1 : l === a ? 0.5 : 0;
  return wins / (live.length * attack.length);
}

function placeLine(live: number[], budget: number): number {
  // The highest line refusing at most `budget` live: just at the (budget+1)-th lowest live value.
  return [...live].sort((a, b) => a - b)[budget];
}

function main() {
  const [calFile, repFile] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const budgetAt = process.argv.indexOf('--live-budget');
  const budget = budgetAt >= 0 ? Number(process.argv[budgetAt + 1]) : 1;
  const load = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { sequences: ScoredSequence[] }).sequences;
  const cal = load(calFile);
  const rep = load(repFile);
  const species = ['screen-replay', 'print-turned'];
  console.log(
    `| rule | line (calibration, ≤${budget} live refused) | cal live refused | cal replays accepted | report live refused | report replays accepted | report prints accepted | AUC live/replay (report) | AUC live/print (report) |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [name, stat] of Object.entries(rules)) {
    const calLive = cal.filter((s) => s.live).map((s) => stat(s.frames));
    const line = placeLine(calLive, budget);
    const count = (rows: ScoredSequence[], sp: string, accepted: boolean) => {
      const of = rows.filter((s) => s.species === sp);
      return `${of.filter((s) => stat(s.frames) >= line === accepted).length}/${of.length}`;
    };
    const repLive = rep.filter((s) => s.live).map((s) => stat(s.frames));
    const aucs = species.map((sp) =>
      auc(
        repLive,
        rep.filter((s) => s.species === sp).map((s) => stat(s.frames)),
      ).toFixed(3),
    );
    console.log(
      `| ${name} | ${line.toFixed(4)} | ${count(cal, 'live', false)} | ${count(cal, 'screen-replay', true)} | ${count(rep, 'live', false)} | ${count(rep, 'screen-replay', true)} | ${count(rep, 'print-turned', true)} | ${aucs[0]} | ${aucs[1]} |`,
    );
  }
}

main();
