/**
 * `npm run bench:decision [-- --applicants 40 --concurrency 4 --passes 3 --poll-ms 25 --quick --out DIR]`
 *
 * Applicants driven end to end over HTTP against the real stack (FerretDB, Redis, the inference
 * service on the real models, the API and a worker, each its own process), `concurrency` at a
 * time, with the project's synthetic passports, selfies and head-motion sequences. Measures the
 * document read at upload, submit → decided, the per-check `duration_ms` of each evidence report,
 * verifications per minute and CPU per verification per process (/proc utime + stime over each
 * pass). Writes benchmarks/results/decision.{json,md,svg}. See benchmarks/decision/README.md.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { IDENTITIES, loadApplicants, loadPadCases, PAD_CASE, type Applicant } from './applicants';
import { PACED_IDENTITIES } from './paced-liveness';
import { issueAccountAt } from '../../scripts/test-support/account-bootstrap';
import { runApplicant, type ApplicantTiming } from './applicant-run';
import { prepareTestData } from './prepare-testdata';
import { ROOT, startDecisionStack } from './decision-stack';
import {
  PROCESSES,
  summariseAll,
  summarisePass,
  type ModelRuns,
  type PassResult,
  type ProcessName,
} from './decision-summary';
import { targets } from './decision-targets';
import { renderMarkdown, type DecisionReport } from './decision-markdown';
import {
  compareOnly,
  FERRETDB_BIN,
  options,
  OUT,
  renderOnly,
  SERVICE_NODE_OPTIONS,
  STATE_DIR,
} from './decision-options';
import { writeComparison } from './compare-runs';
import { cpuSnapshot, executorCpuMs, pollCost } from './process-cpu';
import { frontGcSeconds, modelRuns, modelRunsPerVerification } from './model-runs';
import { measurementMethod } from './measurement-method';
import { pool } from './pool';
import { writeResults } from './write-results';

const log = (line: string) => process.stderr.write(`[bench:decision] ${line}\n`);
const load = () => os.loadavg().map((v) => Math.round(v * 100) / 100);

async function main(): Promise<void> {
  const compared = compareOnly();
  if (compared) return writeComparison(compared[0], compared[1], OUT, log);
  const rendered = renderOnly();
  if (rendered) return writeResults(JSON.parse(readFileSync(rendered, 'utf8')) as DecisionReport, OUT, false, log);
  prepareTestData(ROOT, log);
  const loadStart = load();
  log(
    `${options.applicants} applicants × ${options.passes} pass(es), ${options.concurrency} at a time; load average ${loadStart.join(' ')}`,
  );
  const stack = await startDecisionStack(log, {
    stateDir: STATE_DIR,
    ...(FERRETDB_BIN ? { ferretdbBin: FERRETDB_BIN } : {}),
    ...(SERVICE_NODE_OPTIONS === undefined ? {} : { serviceEnv: { NODE_OPTIONS: SERVICE_NODE_OPTIONS } }),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stack.stop().then(() => process.exit(130)));
  try {
    const webhook = stack.receiver.url();
    const drive = (a: Applicant, i: number) =>
      runApplicant(stack.baseUrl, stack.apiKey, webhook, a, i, options.poll_ms);
    // --paced: production sessions, each applicant in an account of its own, issued before the
    // pass's CPU is read. Its own account keeps one applicant's captures and face from another's:
    // the applicants are renderings of a few photos, which a production account rightly takes for
    // reused captures or a known face under another name.
    const applicantsOf = async (n: number, first: number): Promise<Applicant[]> => {
      const loaded = await loadApplicants(n, first, options.paced ? PACED_IDENTITIES : IDENTITIES);
      if (!options.paced) return loaded;
      return Promise.all(
        loaded.map(async (a, i) => {
          const account = await issueAccountAt(stack.env.MONGODB_URI, stack.env, {
            name: `Paced applicant ${first + i}`,
            plan: 'enterprise',
          });
          return { ...a, apiKey: account.live_api_key };
        }),
      );
    };

    log(`warm-up: ${options.warmup} applicants (not measured)`);
    await pool(await applicantsOf(options.warmup, 0), options.concurrency, drive);

    const all: ApplicantTiming[] = [];
    const raw: Array<{
      pass: number;
      timings: ApplicantTiming[];
      window: { start: number; end: number };
      used: Record<ProcessName, number>;
      load: PassResult['load_avg_1m'];
      models: Record<string, ModelRuns>;
      executor: number;
      frontGc: number;
    }> = [];
    const errors: string[] = [];
    for (let pass = 1; pass <= options.passes; pass += 1) {
      const applicants = await applicantsOf(options.applicants, options.warmup + (pass - 1) * options.applicants);
      const loads: number[] = [os.loadavg()[0]];
      const sampler = setInterval(() => loads.push(os.loadavg()[0]), 2_000);
      const runsBefore = await modelRuns(stack);
      const gcBefore = await frontGcSeconds(stack);
      const before = cpuSnapshot(stack);
      const executorBefore = executorCpuMs(stack);
      const start = Date.now();
      let done = 0;
      const timings = (
        await pool(applicants, options.concurrency, async (a, i) => {
          try {
            const t = await drive(a, i);
            done += 1;
            if (done % 10 === 0 || done === applicants.length)
              log(`pass ${pass}: ${done}/${applicants.length} decided (${((Date.now() - start) / 1000).toFixed(0)} s)`);
            return t;
          } catch (error) {
            errors.push(`pass ${pass} applicant ${i} (${a.identity}, ${a.passport.file}): ${(error as Error).message}`);
            log(errors.at(-1)!);
            return null;
          }
        })
      ).filter((t): t is ApplicantTiming => t !== null);
      const end = Date.now();
      const after = cpuSnapshot(stack);
      const executorUsed = executorCpuMs(stack) - executorBefore;
      const runsAfter = await modelRuns(stack);
      const gcUsed = (await frontGcSeconds(stack)) - gcBefore;
      clearInterval(sampler);
      loads.push(os.loadavg()[0]);
      const used = Object.fromEntries(PROCESSES.map((p) => [p, after[p] - before[p]])) as Record<ProcessName, number>;
      const round = (v: number) => Math.round(v * 100) / 100;
      const loadAvg = {
        start: round(loads[0]),
        end: round(loads.at(-1)!),
        mean: round(loads.reduce((a, b) => a + b, 0) / loads.length),
      };
      raw.push({
        pass,
        timings,
        window: { start, end },
        used,
        load: loadAvg,
        models: modelRunsPerVerification(runsBefore, runsAfter, timings.length),
        executor: Math.round(executorUsed / Math.max(1, timings.length)),
        frontGc: Math.round((gcUsed * 1000) / Math.max(1, timings.length)),
      });
      all.push(...timings);
      const seen = summarisePass(pass, timings, { start, end }, used, loadAvg, {
        inference: 0,
        api: 0,
        worker: 0,
        ferretdb: 0,
        redis: 0,
        bench_client: 0,
      });
      log(
        `pass ${pass}: ${seen.verifications_per_minute} verifications/min; document read p99 ${seen.document_read.p99_ms} ms; submit → decided p50 ${seen.submit_to_decided_at_server.p50_ms} p99 ${seen.submit_to_decided_at_server.p99_ms} ms; ${seen.cpu_ms_per_verification.total} CPU ms/verification with polls; load ${loadAvg.mean}`,
      );
    }
    if (!all.length) throw new Error(`no applicant was decided:\n${errors.join('\n')}`);
    const padCases = await runPadCases(drive, options.warmup + options.passes * options.applicants);
    log('measuring the CPU cost of a status poll');
    const pollCalibration = await pollCost(stack, all.at(-1)!.session_id, options.concurrency, 5);
    const passes = raw.map((r) => ({
      ...summarisePass(r.pass, r.timings, r.window, r.used, r.load, pollCalibration.cpu_ms_per_poll),
      model_runs_per_verification: r.models,
      inference_executor_cpu_ms_per_verification: r.executor,
      inference_front_gc_ms_per_verification: r.frontGc,
    }));
    // Give the last webhooks a moment to land before reading the arrival times.
    await new Promise((r) => setTimeout(r, 1_500));

    const summary = summariseAll(all, passes, stack.receiver.arrivals);
    const loadEnd = load();
    const report = {
      benchmark: 'decision',
      generated_at: new Date().toISOString(),
      command: `npm run bench:decision${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      options,
      machine: {
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model ?? 'unknown',
        node: process.version,
        load_avg_start: loadStart,
        load_avg_end: loadEnd,
        memory_gb: Math.round(os.totalmem() / 2 ** 30),
      },
      method: measurementMethod(options),
      targets: targets(passes),
      poll_cost: pollCalibration,
      summary,
      passes,
      errors,
      applicants: all,
      pad_cases: padCases,
    };
    writeResults(report, OUT, true, log);
    process.stdout.write(renderMarkdown(report));
    // An upload refused under load (a 503 past the check deadline) is a finding, listed in the
    // results; the run fails only when more than one applicant in twenty could not finish.
    if (errors.length * 20 > options.applicants * options.passes) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

/**
 * The recapture-like portrait, driven as an applicant after the passes, so that its outcome is on
 * record beside the honest applicants' without counting in any of their figures.
 */
async function runPadCases(drive: (a: Applicant, i: number) => Promise<ApplicantTiming>, first: number) {
  if (!options.pad_cases) return undefined;
  log(`PAD case: ${options.pad_cases} applicant(s) showing ${PAD_CASE}'s portrait (not measured)`);
  const outcomes = await pool(await loadPadCases(options.pad_cases, first), options.concurrency, async (a, i) => {
    try {
      const t = await drive(a, i);
      return { status: t.status, failure_reason: t.failure_reason, antispoof: t.checks.antispoof?.verdict ?? null };
    } catch (error) {
      return { status: 'ERROR', failure_reason: (error as Error).message, antispoof: null };
    }
  });
  return { identity: PAD_CASE, source: 'a scan of a printed 1984 portrait (recapture-like)', outcomes };
}

main().catch((error: Error) => {
  log(`failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
