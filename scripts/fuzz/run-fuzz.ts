/**
 * `npm run fuzz [-- --max-examples N --seed S --max-response-seconds T --phases P]`: starts the stack as
 * `npm start` does (its own FerretDB, Redis, inference service, API and worker, with a sandbox
 * key) and runs Schemathesis over every operation of the API's OpenAPI document, stateful links
 * included, with the checks: no 5xx, responses that match the document, and every response within
 * the deadline. Exits 1 on any failure, or if the API process died during the run.
 */
import path from 'node:path';
import { startFuzzStack } from './fuzz-stack';
import { runSchemathesis } from './schemathesis';

const ROOT = path.resolve(__dirname, '../..');

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

async function main(): Promise<void> {
  const maxExamples = option('max-examples', 100);
  const maxResponseSeconds = option('max-response-seconds', 10);
  const seed = process.argv.includes('--seed') ? option('seed', 0) : undefined;
  const phases = process.argv.includes('--phases') ? process.argv[process.argv.indexOf('--phases') + 1] : undefined;
  const reportDir = path.join(ROOT, '.state', 'fuzz-report', new Date().toISOString().replace(/[:.]/g, '-'));
  const log = (line: string) => process.stderr.write(`[fuzz] ${line}\n`);
  const stack = await startFuzzStack(log);
  const started = Date.now();
  try {
    const result = await runSchemathesis({
      ...stack,
      maxExamples,
      maxResponseSeconds,
      reportDir,
      seed,
      phases,
      onOutput: (text) => process.stdout.write(text),
    });
    const alive = stack.apiAlive();
    log(
      `${result.cases} test cases in ${((Date.now() - started) / 1000).toFixed(0)} s; ${result.failures.length} failing operations; API process ${alive ? 'still up' : 'DIED'}; reports in ${reportDir}`,
    );
    for (const failure of result.failures) log(`FAIL ${failure.operation}: ${failure.message.split('\n')[0]}`);
    process.exitCode = result.exitCode === 0 && alive ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`[fuzz] ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
