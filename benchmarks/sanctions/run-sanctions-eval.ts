import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WATCHLIST_FORMATS } from '../../api/src/public-entry';
import { ScreeningSubject } from '../../api/src/domain/ports/sanctions-screening';
import { MATCH_POLICY } from '../../api/src/domain/sanctions/match-policy';
import { ScreeningIndex } from '../../api/src/domain/sanctions/screening-index';
import { LoadedList } from '../../api/src/domain/sanctions/watchlist-entry';
import { listedPersonDocument, VARIANTS } from './document-variants';
import { seededRandom } from '../../scripts/test-support/seeded-random';
import { namesakes, recombinedListNames } from './list-like-people';
import { nonListedPeople } from './non-listed-people';
import { curveSvg } from './curve-svg';

const ROOT = path.resolve(__dirname, '../..');
const DATA = path.resolve(ROOT, 'api/test/sanctions/lists');

interface Scored {
  score: number;
  entryId: string | null;
}

function rate(scores: Scored[], threshold: number): number {
  return scores.filter((s) => s.score >= threshold).length / Math.max(1, scores.length);
}

/**
 * `npm run eval:sanctions`: recall on listed persons as documents show them and false matches on
 * people who are not listed, against the real OFAC SDN and UN lists, at the decision line and over
 * a sweep of lines. Writes benchmarks/results/sanctions-eval.{json,md,svg}.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      negatives: { type: 'string', default: '20000' },
      seed: { type: 'string', default: '11' },
      out: { type: 'string', default: path.join(ROOT, 'benchmarks/results') },
    },
  });
  const seed = Number(values.seed);
  const lists: LoadedList[] = [
    {
      name: 'ofac-sdn',
      version: 'eval',
      entries: await WATCHLIST_FORMATS['ofac-sdn-csv'].read(path.join(DATA, 'sdn.csv')),
    },
    {
      name: 'un-consolidated',
      version: 'eval',
      entries: await WATCHLIST_FORMATS['un-xml'].read(path.join(DATA, 'UN_consolidated.xml')),
    },
  ];
  const index = new ScreeningIndex(lists);
  const everyone = lists.flatMap((list) => list.entries);
  const screen = (subject: ScreeningSubject): Scored => {
    const { score, best } = index.screen(subject);
    return { score, entryId: best?.entry_id ?? null };
  };

  // Positives: every listed person once, the variants taken in turn.
  const random = seededRandom(seed);
  const positives = everyone.map((entry, i) => {
    const variant = VARIANTS[i % VARIANTS.length];
    const subject = listedPersonDocument(entry, variant, random);
    return { variant, subject, listedId: entry.id, ...screen(subject) };
  });
  const negatives = nonListedPeople(Number(values.negatives), seed).map((person) => ({
    person,
    ...screen(person),
  }));
  const hard = recombinedListNames(everyone, 5000, seed).map((person) => ({ person, ...screen(person) }));
  const sakes = namesakes(everyone, seed).map(({ entryId, ...person }) => ({
    person,
    sourceId: entryId,
    ...screen(person),
  }));
  // A namesake matched to the very entry whose DOB it contradicts: what the DOB rule must prevent.
  const sameEntry = (t: number) =>
    sakes.filter((s) => s.score >= t && s.entryId === s.sourceId).length / Math.max(1, sakes.length);

  const line = MATCH_POLICY.threshold;
  const byVariant = Object.fromEntries(
    VARIANTS.map((variant) => {
      const group = positives.filter((p) => p.variant === variant);
      return [variant, { count: group.length, recall: rate(group, line) }];
    }),
  );
  const curve = [];
  for (let step = 70; step <= 100; step++) {
    const t = step / 100;
    curve.push({
      threshold: t,
      recall: rate(positives, t),
      false_match_rate: rate(negatives, t),
      hard_negative_false_match_rate: rate(hard, t),
      namesake_false_match_rate: rate(sakes, t),
      namesake_same_entry_rate: sameEntry(t),
    });
  }
  const summary = {
    lists: lists.map((list) => ({ name: list.name, persons: list.entries.length })),
    threshold: line,
    positives: positives.length,
    recall: rate(positives, line),
    recall_right_entry: positives.filter((p) => p.score >= line && p.entryId === p.listedId).length / positives.length,
    recall_by_variant: byVariant,
    negatives: negatives.length,
    false_matches: negatives.filter((n) => n.score >= line).length,
    false_match_rate: rate(negatives, line),
    hard_negatives: hard.length,
    hard_negative_false_match_rate: rate(hard, line),
    namesakes: sakes.length,
    namesake_false_match_rate: rate(sakes, line),
    namesake_same_entry_rate: sameEntry(line),
    seed,
    curve,
    missed_examples: positives
      .filter((p) => p.score < line)
      .slice(0, 40)
      .map((p) => ({
        variant: p.variant,
        name: p.subject.name,
        listed: everyone.find((e) => e.id === p.listedId)?.names[0],
        dob: p.subject.dob,
        score: p.score,
      })),
    namesake_match_examples: sakes
      .filter((n) => n.score >= line)
      .slice(0, 15)
      .map((n) => ({ name: n.person.name, dob: n.person.dob, score: n.score, entry: n.entryId })),
    hard_negative_match_examples: hard
      .filter((n) => n.score >= line)
      .slice(0, 15)
      .map((n) => ({ name: n.person.name, score: n.score, entry: n.entryId })),
    false_match_examples: negatives
      .filter((n) => n.score >= line)
      .slice(0, 15)
      .map((n) => ({ name: n.person.name, score: n.score })),
  };
  mkdirSync(values.out, { recursive: true });
  writeFileSync(path.join(values.out, 'sanctions-eval.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(path.join(values.out, 'sanctions-eval.svg'), curveSvg(curve, line));
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const md = [
    '# Sanctions screening evaluation (`npm run eval:sanctions`)',
    '',
    `Lists: ${summary.lists.map((l) => `${l.name} (${l.persons} persons)`).join(', ')}. Line: score ≥ ${line}. Seed ${seed}.`,
    '',
    '| set | size | matched at the line |',
    '|---|---|---|',
    `| positives (listed persons as documents show them) | ${positives.length} | recall ${pct(summary.recall)} |`,
    ...VARIANTS.map((v) => `| — ${v} | ${byVariant[v].count} | ${pct(byVariant[v].recall)} |`),
    `| negatives (faker names, ${Number(values.negatives)} people) | ${negatives.length} | false matches ${pct(summary.false_match_rate)} (${summary.false_matches}) |`,
    `| hard negatives (given name of one listed person + family name of another) | ${hard.length} | ${pct(summary.hard_negative_false_match_rate)} |`,
    `| namesakes (a listed name exactly, DOB ≥ 2 years off) | ${sakes.length} | ${pct(summary.namesake_false_match_rate)} (any entry: another entry of that name may have no DOB) |`,
    `| — matched to the very entry whose DOB they contradict | ${sakes.length} | ${pct(summary.namesake_same_entry_rate)} |`,
    '',
    '| line | recall | false matches | hard negatives | namesakes |',
    '|---|---|---|---|---|',
    ...curve
      .filter((c) => Math.round(c.threshold * 100) % 2 === 0)
      .map(
        (c) =>
          `| ${c.threshold.toFixed(2)} | ${pct(c.recall)} | ${pct(c.false_match_rate)} | ${pct(c.hard_negative_false_match_rate)} | ${pct(c.namesake_false_match_rate)} |`,
      ),
    '',
  ].join('\n');
  writeFileSync(path.join(values.out, 'sanctions-eval.md'), md);
  process.stdout.write(`${md}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
