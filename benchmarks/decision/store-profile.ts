/**
 * `npx tsx benchmarks/decision/store-profile.ts [--applicants 6] [--state DIR] [--out DIR] [--cpu-profile DIR]`
 *
 * What the store is asked per verification: bench:decision's stack with the MongoDB driver's
 * command monitoring preloaded into the API and the worker (store-monitor.cjs), one warm-up
 * applicant, then `applicants` one at a time, each step of each applicant marked, so every command
 * is put down to the step in flight when it started (with one applicant at a time nothing else
 * runs but the worker's sweeps). Counts are deterministic apart from those sweeps and the number
 * of status polls; CPU figures of such a run are not kept (the monitor costs CPU itself).
 * Writes store-profile.json and prints the table (benchmarks/results/store-profile.md holds one).
 * `--cpu-profile DIR` also preloads cpu-profile-preload.cjs: a V8 profile of the API and the worker.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IDENTITIES, loadApplicants } from './applicants';
import { runApplicant } from './applicant-run';
import { startDecisionStack } from './decision-stack';
import { prepareTestData } from './prepare-testdata';
import { ROOT } from './decision-stack';

interface Command {
  t: number;
  name: string;
  coll: string;
  filter: string;
  update: string;
  n: number;
  size: number;
  reply: number;
  ok: boolean;
  role?: string;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const log = (line: string) => process.stderr.write(`[store-profile] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const applicants = Number(arg('applicants') ?? 6);
  const out = path.resolve(arg('out') ?? '/tmp/store-profile');
  const monitorDir = path.join(out, 'commands');
  rmSync(monitorDir, { recursive: true, force: true });
  mkdirSync(monitorDir, { recursive: true });
  const cpuProfileDir = arg('cpu-profile') ? path.resolve(arg('cpu-profile')!) : undefined;
  if (cpuProfileDir) mkdirSync(cpuProfileDir, { recursive: true });
  prepareTestData(ROOT, log);
  const stack = await startDecisionStack(log, {
    stateDir: arg('state') ? path.resolve(arg('state')!) : undefined,
    serviceEnv: {
      NODE_OPTIONS: [
        `--require ${path.join(__dirname, 'store-monitor.cjs')}`,
        ...(cpuProfileDir ? [`--require ${path.join(__dirname, 'cpu-profile-preload.cjs')}`] : []),
      ].join(' '),
      STORE_PROFILE_DIR: monitorDir,
      ...(cpuProfileDir ? { CPU_PROFILE_DIR: cpuProfileDir } : {}),
    },
  });
  const marks: Array<{ t: number; step: string; applicant: number }> = [];
  let polls = 0;
  try {
    const drive = (a: Parameters<typeof runApplicant>[3], i: number, step: (s: string) => void) =>
      runApplicant(stack.baseUrl, stack.apiKey, stack.receiver.url(), a, i, 250, step);
    const [warm, ...measured] = await loadApplicants(applicants + 1, 0, IDENTITIES);
    await drive(warm, 0, () => undefined);
    await sleep(2_000);
    for (const [i, a] of measured.entries()) {
      const timing = await drive(a, i + 1, (step) => marks.push({ t: Date.now(), step, applicant: i }));
      if (timing.status !== 'VERIFIED') log(`applicant ${i}: ${timing.status} ${timing.failure_reason}`);
      polls += timing.polls;
      // The webhook and the capture clean-up after the decision land here.
      await sleep(2_000);
      marks.push({ t: Date.now(), step: 'between', applicant: i });
    }
  } finally {
    await sleep(500);
    await stack.stop();
  }
  const commands: Command[] = readdirSync(monitorDir).flatMap((f) =>
    readFileSync(path.join(monitorDir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ ...(JSON.parse(l) as Command), role: f.split('-')[0] })),
  );
  const first = marks[0].t;
  const last = marks.at(-1)!.t;
  const stepAt = (t: number) => {
    let step = 'before';
    for (const m of marks) if (m.t <= t) step = m.step === 'end' ? 'after-result' : m.step;
    return step;
  };
  const rows = new Map<
    string,
    { role: string; step: string; command: string; count: number; bytes: number; reply: number }
  >();
  for (const c of commands) {
    if (c.t < first || c.t > last) continue;
    const step = stepAt(c.t);
    const command = `${c.name} ${c.coll} {${c.filter}}${c.update ? ` ${c.update}` : ''}${c.n > 1 ? ` ×${c.n}` : ''}${c.ok ? '' : ' (failed)'}`;
    const key = `${c.role}|${step}|${command}`;
    const row = rows.get(key) ?? { role: c.role!, step, command, count: 0, bytes: 0, reply: 0 };
    row.count += 1;
    row.bytes += c.size;
    row.reply += c.reply;
    rows.set(key, row);
  }
  const order = [
    'create',
    'start',
    'document',
    'liveness',
    'selfie',
    'submit',
    'poll',
    'report',
    'result',
    'after-result',
    'between',
  ];
  const table = [...rows.values()].sort(
    (a, b) => order.indexOf(a.step) - order.indexOf(b.step) || a.role.localeCompare(b.role) || b.count - a.count,
  );
  const per = (n: number) => Math.round((n / applicants) * 100) / 100;
  const lines = [
    `${applicants} applicants one at a time, ${polls} status polls (${per(polls)} per verification)`,
    '',
    '| step | process | command collection {filter} update | per verification | command bytes (mean) | reply bytes (mean) |',
    '|---|---|---|---|---|---|',
    ...table.map(
      (r) =>
        `| ${r.step} | ${r.role} | \`${r.command}\` | ${per(r.count)} | ${Math.round(r.bytes / r.count)} | ${Math.round(r.reply / r.count)} |`,
    ),
  ];
  const totals = new Map<string, number>();
  for (const r of table) totals.set(r.step, (totals.get(r.step) ?? 0) + r.count);
  lines.push('', '| step | commands per verification |', '|---|---|');
  for (const [step, n] of totals) lines.push(`| ${step} | ${per(n)} |`);
  const all = table.reduce((s, r) => s + r.count, 0);
  // A poll is one API read; the worker's decision runs meanwhile and stays in the total.
  const pollCommands = table.filter((r) => r.step === 'poll' && r.role === 'api').reduce((s, r) => s + r.count, 0);
  lines.push(
    '',
    `total ${per(all)} commands per verification; less the status polls ${per(all - pollCommands)} (${Math.round((pollCommands / Math.max(1, polls)) * 100) / 100} per poll)`,
  );
  writeFileSync(path.join(out, 'store-profile.json'), JSON.stringify({ applicants, polls, rows: table }, null, 2));
  writeFileSync(path.join(out, 'store-profile.md'), lines.join('\n') + '\n');
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error: Error) => {
  log(`failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
