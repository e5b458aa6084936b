/**
 * `npm run eval -- --task pad_paced [--trials live-paced=8,rigid-blinking=6,...] [--seed N] [--results <dir>]`
 * The server-paced challenge's attack set (docs/paced-challenge.md), end to end: each trial is a
 * production session through the capture API on a real stack of its own (FerretDB, Redis, the
 * inference service on the real models, the API and a worker), in an account of its own (a
 * reused capture goes into a new session of the live trial's account, as the attack needs). Trials
 * run one at a time, since the challenge's deadlines are real.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CaptureStack } from '../../../../api/test/capture/support/capture-stack';
import { issueAccount } from '../../../../scripts/test-support/account-bootstrap';
import { drawTrial, pacedSpecies, type PacedSpecies } from '../../../../scripts/test-support/paced-attacks';
import { seededRandom } from '../../../../scripts/test-support/seeded-random';
import { startStackPieces } from '../../../../scripts/test-support/stack-pieces';
import type { EvalTask } from '../eval-task';
import { describePaced, tallyPaced } from './pad-paced-report';
import { runPacedTrial, type CapturedBytes, type PacedTrialOutcome } from './pad-paced-trial';

/** About 12 minutes on the shared 2-core machine (a trial took 15-25 s there on 2026-11-27). */
export const defaultPacedTrials: Record<PacedSpecies, number> = {
  'live-paced': 10,
  'rigid-blinking': 8,
  'spliced-offline': 6,
  'nearest-pose-puppet': 8,
  'reused-capture': 4,
};

export function parseTrials(text: string | undefined): Record<PacedSpecies, number> {
  const counts = { ...defaultPacedTrials };
  for (const part of text ? text.split(',') : []) {
    const [name, n] = part.split('=');
    if (!(pacedSpecies as readonly string[]).includes(name) || !/^\d+$/.test(n ?? ''))
      throw new Error(`--trials takes species=count pairs of ${pacedSpecies.join(', ')}; got "${part}"`);
    counts[name as PacedSpecies] = Number(n);
  }
  if (counts['reused-capture'] > counts['live-paced'])
    throw new Error('each reused-capture trial replays a live-paced trial: ask for at least as many live-paced trials');
  return counts;
}

export const padPacedEval: EvalTask = {
  name: 'pad_paced',
  usage: `[--trials ${Object.entries(defaultPacedTrials)
    .map(([s, n]) => `${s}=${n}`)
    .join(
      ',',
    )}] [--seed 31] [--subjects grace-hopper,... (draw only these)] [--results <dir> (also write pad-paced.{md,json} there)]`,
  // The stack's own inference service loads the models; the harness's runner needs none.
  models: [],
  async run({ args, log }) {
    const counts = parseTrials(args.trials);
    const subjects = args.subjects?.split(',');
    const seed = Number(args.seed ?? 31);
    const random = seededRandom(seed);
    const began = Date.now();
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'bioverify-pad-paced-'));
    const pieces = await startStackPieces(stateDir, { database: 'pad_paced', prefix: 'pad-paced' });
    // CaptureStack takes its database and Redis from the addresses the test suite's set-up exports.
    process.env.TEST_MONGODB_URI = pieces.env.MONGODB_URI;
    process.env.TEST_REDIS_URL = pieces.env.REDIS_URL;
    const outcomes: PacedTrialOutcome[] = [];
    let stack: CaptureStack | null = null;
    try {
      stack = await CaptureStack.start({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'error' });
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      const order = pacedSpecies.filter((s) => s !== 'reused-capture');
      for (const species of order) {
        for (let i = 0; i < counts[species]; i++) {
          const params = drawTrial(random, subjects);
          const account = await issueAccount(stack.stack.store, stack.stack.env, { name: `pad_paced ${species} ${i}` });
          const id = `${species}-${i}`;
          const { outcome, bytes } = await runPacedTrial(stack, account.live_api_key, id, species, params);
          outcomes.push(outcome);
          log(progress(outcomes.length, total, outcome, began));
          // A live trial's bytes, posted again into a new session of the same account.
          if (species === 'live-paced' && i < counts['reused-capture']) {
            const replayed = await runPacedTrial(
              stack,
              account.live_api_key,
              `reused-capture-${i}`,
              'reused-capture',
              params,
              bytes satisfies CapturedBytes,
            );
            outcomes.push(replayed.outcome);
            log(progress(outcomes.length, total, replayed.outcome, began));
          }
        }
      }
    } finally {
      await stack?.stop();
      await pieces.stop();
      await rm(stateDir, { recursive: true, force: true });
    }
    const rates = tallyPaced(outcomes);
    const report = describePaced(rates, { seed, minutes: (Date.now() - began) / 60_000 });
    const markdown = [
      '# PAD on the server-paced challenge',
      '',
      `\`npm run eval -- --task pad_paced${args.trials ? ` --trials ${args.trials}` : ''}${args.seed ? ` --seed ${seed}` : ''}\`, ${new Date().toISOString()}`,
      '',
      ...report,
      '',
    ].join('\n');
    if (args.results) {
      await mkdir(args.results, { recursive: true });
      await writeFile(path.join(args.results, 'pad-paced.md'), markdown);
      await writeFile(
        path.join(args.results, 'pad-paced.json'),
        JSON.stringify({ seed, counts, rates, outcomes }, null, 1) + '\n',
      );
    }
    return { summary: { seed, counts, rates, outcomes }, report, artefacts: { 'pad-paced.md': markdown } };
  },
};

function progress(done: number, total: number, o: PacedTrialOutcome, began: number): string {
  const minutes = ((Date.now() - began) / 60_000).toFixed(1);
  return `[${done}/${total}, ${minutes} min] ${o.id} (${o.params.subject}): ${o.status}${o.failure_reason ? ` ${o.failure_reason}` : ''}, liveness ${o.liveness.verdict}${o.liveness.reason ? ` ${o.liveness.reason}` : ''}, steps ${o.liveness.steps_completed ?? '–'}, challenge ${o.challenge.next} after ${o.challenge.attempts} in ${o.challenge.elapsedMs} ms`;
}
