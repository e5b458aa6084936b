/**
 * `npm run eval` runs the default suite (default-suite.ts);
 * `npm run eval -- --task <name> [task flags] [--out <dir>] [--models <repository>]` one task.
 * Runs one registered evaluation task against the real models in-process, prints FMR/FNMR at the
 * configured line and the equal-error point, and writes summary.json and chart.svg to --out
 * (default .state/eval/<task>/). See README.md beside this file for the input formats.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import { errorChartSvg } from './charts/error-chart-svg';
import type { EvalArgs } from './eval-task';
import { describeSummary, summariseTrials } from './summarise-trials';
import { evalTasks } from './tasks';
import { defaultSuite } from './default-suite';

export function parseArgs(argv: string[]): EvalArgs {
  const args: EvalArgs = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected argument "${argv[i]}"`);
    const key = argv[i].slice(2);
    const value = argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : 'true';
    args[key] = value;
  }
  return args;
}

function usage(): string {
  return [
    'usage: npm run eval -- --task <name> [flags] [--out <dir>] [--models <repository dir>]',
    `       npm run eval   (the default suite: ${defaultSuite.map((e) => e.join(' ')).join('; ')})`,
    'tasks:',
    ...Object.values(evalTasks).map((t) => `  ${t.name} ${t.usage}`),
  ].join('\n');
}

function noModels(task: string): Awaited<ReturnType<typeof createInProcessModelRunner>> {
  const refuse = (): never => {
    throw new Error(`eval task ${task} declared no models, so the harness loaded none`);
  };
  return { infer: refuse, config: refuse, models: () => [], close: () => Promise.resolve() };
}

export async function runEval(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    let code = 0;
    for (const entry of defaultSuite) code = Math.max(code, await runEval(entry));
    return code;
  }
  const args = parseArgs(argv);
  const task = args.task ? evalTasks[args.task] : undefined;
  if (!task || args.help) {
    console.log(usage());
    return task || args.help ? 0 : 2;
  }
  // A task that names no models runs its own service (pad_paced starts a whole stack): no runner to load.
  const runner = task.models.length
    ? await createInProcessModelRunner({ repository: args.models ?? 'models', models: task.models })
    : noModels(task.name);
  try {
    const outcome = await task.run({ runner, args, log: (line) => console.log(line) });
    const outDir = args.out ?? path.join('.state/eval', task.name);
    await mkdir(outDir, { recursive: true });
    const lines = [`== ${task.name} ==`];
    let figures: Record<string, unknown> = {};
    if (outcome.trials && outcome.decision) {
      const summary = summariseTrials(outcome.trials, outcome.decision);
      lines.push(...describeSummary(summary, outcome.vocabulary));
      const chart = errorChartSvg({
        title: `${task.name}: ${summary.counts.genuine} genuine / ${summary.counts.nonGenuine} non-genuine trials`,
        trials: outcome.trials,
        curve: summary.curve,
        decision: outcome.decision,
        atDecision: summary.atDecision,
        eer: summary.equalError,
      });
      await writeFile(path.join(outDir, 'chart.svg'), chart);
      lines.push(`chart: ${path.join(outDir, 'chart.svg')}`);
      const { curve, ...rest } = summary;
      figures = { ...rest, curve, trials: outcome.trials };
    }
    lines.push(...(outcome.report ?? []));
    for (const [name, content] of Object.entries(outcome.artefacts ?? {})) {
      await writeFile(path.join(outDir, name), content);
      lines.push(`${name}: ${path.join(outDir, name)}`);
    }
    await writeFile(
      path.join(outDir, 'summary.json'),
      JSON.stringify({ task: task.name, args, ...figures, ...outcome.summary }, null, 1) + '\n',
    );
    lines.push(`summary: ${path.join(outDir, 'summary.json')}`);
    console.log(lines.join('\n'));
    return 0;
  } finally {
    await runner.close();
  }
}

if (require.main === module) {
  runEval(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
