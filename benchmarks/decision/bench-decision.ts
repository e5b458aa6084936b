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
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadApplicants, pool, runApplicant, type Applicant, type ApplicantTiming } from './applicants';
import { prepareTestData } from './prepare-testdata';
import { cpuMs, ROOT, startDecisionStack, type DecisionStack } from './decision-stack';
import {
  PROCESSES,
  renderMarkdown,
  type ModelRuns,
  renderSvg,
  summariseAll,
  summarisePass,
  targets,
  type PassResult,
  type ProcessName,
  type Summary,
} from './decision-results';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}

const quick = process.argv.includes('--quick');
const options = {
  quick,
  applicants: option('applicants', quick ? 12 : 40),
  concurrency: option('concurrency', 4),
  passes: option('passes', quick ? 1 : 3),
  poll_ms: option('poll-ms', 250),
  warmup: option('warmup', 4),
};
const outIndex = process.argv.indexOf('--out');
const OUT = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(ROOT, 'benchmarks', 'results');
const log = (line: string) => process.stderr.write(`[bench:decision] ${line}\n`);
const load = () => os.loadavg().map((v) => Math.round(v * 100) / 100);

function cpuSnapshot(stack: DecisionStack): Record<ProcessName, number> {
  const own = process.cpuUsage();
  return {
    inference: cpuMs(stack.pids.inference),
    api: cpuMs(stack.pids.api),
    worker: cpuMs(stack.pids.worker),
    ferretdb: cpuMs(stack.pids.ferretdb),
    redis: cpuMs(stack.pids.redis),
    bench_client: (own.user + own.system) / 1000,
  };
}

/**
 * CPU per status poll, per process: `width` clients poll a decided session back to back for
 * `seconds`; used to take the benchmark's own polling out of CPU per verification.
 */
async function pollCost(
  stack: DecisionStack,
  sessionId: string,
  width: number,
  seconds: number,
): Promise<{ polls: number; cpu_ms_per_poll: Record<ProcessName, number> }> {
  const before = cpuSnapshot(stack);
  const until = Date.now() + seconds * 1000;
  let polls = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (Date.now() < until) {
        await (await fetch(`${stack.baseUrl}/v1/capture/${sessionId}`)).text();
        polls += 1;
      }
    }),
  );
  const after = cpuSnapshot(stack);
  const cpu = Object.fromEntries(
    PROCESSES.map((p) => [p, Math.round(((after[p] - before[p]) / Math.max(1, polls)) * 1000) / 1000]),
  ) as Record<ProcessName, number>;
  return { polls, cpu_ms_per_poll: cpu };
}

/** Per model: inference_run_seconds sum and count, rows run (inference_batch_size sum) and rows the row cache answered. */
async function modelRuns(
  stack: DecisionStack,
): Promise<Record<string, { seconds: number; runs: number; rows: number; cached: number }>> {
  const text = await (await fetch(stack.inference.metricsUrl)).text();
  const runs: Record<string, { seconds: number; runs: number; rows: number; cached: number }> = {};
  const of = (model: string) => (runs[model] ??= { seconds: 0, runs: 0, rows: 0, cached: 0 });
  for (const m of text.matchAll(/^inference_run_seconds_(sum|count)\{model="([^"]+)"\} (\S+)/gm)) {
    if (m[1] === 'sum') of(m[2]).seconds = Number(m[3]);
    else of(m[2]).runs = Number(m[3]);
  }
  for (const m of text.matchAll(/^inference_batch_size_sum\{model="([^"]+)"\} (\S+)/gm)) of(m[1]).rows = Number(m[2]);
  for (const m of text.matchAll(/^inference_row_cache_rows_total\{model="([^"]+)",outcome="(hit|shared)"\} (\S+)/gm))
    of(m[1]).cached += Number(m[3]);
  return runs;
}

/** Per model: session.run calls, executor milliseconds, rows run and rows from the cache per decided applicant over a pass. */
function modelRunsPerVerification(
  before: Awaited<ReturnType<typeof modelRuns>>,
  after: Awaited<ReturnType<typeof modelRuns>>,
  decided: number,
): Record<string, ModelRuns> {
  const per = (v: number) => Math.round((v / Math.max(1, decided)) * 10) / 10;
  return Object.fromEntries(
    Object.entries(after).map(([model, a]) => {
      const b = before[model] ?? { seconds: 0, runs: 0, rows: 0, cached: 0 };
      return [
        model,
        {
          runs: per(a.runs - b.runs),
          run_ms: Math.round(((a.seconds - b.seconds) * 1000) / Math.max(1, decided)),
          rows: per(a.rows - b.rows),
          cached_rows: per(a.cached - b.cached),
        },
      ];
    }),
  );
}

function writeResults(
  report: Parameters<typeof renderMarkdown>[0] & {
    summary: Summary;
    machine: { cpus: number; load_avg_start: number[]; load_avg_end: number[] };
  },
  withJson: boolean,
): void {
  mkdirSync(OUT, { recursive: true });
  if (withJson) writeFileSync(path.join(OUT, 'decision.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(OUT, 'decision.md'), renderMarkdown(report));
  const m = report.machine;
  writeFileSync(
    path.join(OUT, 'decision.svg'),
    renderSvg(
      report.summary,
      `${report.command} — ${report.generated_at} — ${m.cpus} CPUs, load avg ${m.load_avg_start[0]} → ${m.load_avg_end[0]} (shared machine)`,
    ),
  );
  log(`wrote ${path.relative(process.cwd(), path.join(OUT, `decision.{${withJson ? 'json,' : ''}md,svg}`))}`);
}

async function main(): Promise<void> {
  // `--render FILE`: draw decision.md and decision.svg again from a decision.json, running nothing.
  const renderIndex = process.argv.indexOf('--render');
  if (renderIndex > 0) return writeResults(JSON.parse(readFileSync(process.argv[renderIndex + 1], 'utf8')), false);
  prepareTestData(ROOT, log);
  const loadStart = load();
  log(
    `${options.applicants} applicants × ${options.passes} pass(es), ${options.concurrency} at a time; load average ${loadStart.join(' ')}`,
  );
  const stack = await startDecisionStack(log);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stack.stop().then(() => process.exit(130)));
  try {
    const webhook = stack.receiver.url();
    const drive = (a: Applicant, i: number) =>
      runApplicant(stack.baseUrl, stack.apiKey, webhook, a, i, options.poll_ms);

    log(`warm-up: ${options.warmup} applicants (not measured)`);
    await pool(await loadApplicants(options.warmup), options.concurrency, drive);

    const all: ApplicantTiming[] = [];
    const raw: Array<{
      pass: number;
      timings: ApplicantTiming[];
      window: { start: number; end: number };
      used: Record<ProcessName, number>;
      load: PassResult['load_avg_1m'];
      models: Record<string, ModelRuns>;
    }> = [];
    const errors: string[] = [];
    for (let pass = 1; pass <= options.passes; pass += 1) {
      const applicants = await loadApplicants(options.applicants, options.warmup + (pass - 1) * options.applicants);
      const loads: number[] = [os.loadavg()[0]];
      const sampler = setInterval(() => loads.push(os.loadavg()[0]), 2_000);
      const runsBefore = await modelRuns(stack);
      const before = cpuSnapshot(stack);
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
      const runsAfter = await modelRuns(stack);
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
    log('measuring the CPU cost of a status poll');
    const pollCalibration = await pollCost(stack, all.at(-1)!.session_id, options.concurrency, 5);
    const passes = raw.map((r) => ({
      ...summarisePass(r.pass, r.timings, r.window, r.used, r.load, pollCalibration.cpu_ms_per_poll),
      model_runs_per_verification: r.models,
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
      method: {
        applicants:
          'clean synthetic TD3 passports (astronaut, grace-hopper, bearded-man portraits), augmented selfies of the same photo, synthetic head-motion sequences that perform their challenge, pinned with sandbox.liveness_challenge; expected_name/dob from the passport',
        stack:
          'FerretDB (SQLite) + Redis + inference/src/main.ts (one executor process, declared model configs) + API + one worker, each its own process; LOG_LEVEL=warn; webhooks to a loopback receiver answering 200',
        document_read:
          'wall time of PUT /v1/capture/{id}/document/front as the client saw it (upload, decode, encrypt + store, verify-document over gRPC)',
        submit_to_decided: `headline (submit_to_decided_at_server): from sending POST /submit to the decided_at the worker wrote (report), same machine clock, no poll delay; submit_to_decided: to the first GET /v1/capture/{id} answering decision "done", polled every ${options.poll_ms} ms per applicant`,
        checks:
          'duration_ms per check from GET /v1/sessions/{id}/report: the gRPC call as the API (document, antispoof: at upload) or the worker (liveness, face_match: in parallel at decision) timed it',
        verifications_per_minute:
          'decided applicants / (first session created → last decision seen) per pass; headline = median of passes',
        model_runs_per_verification:
          "per pass, from the inference service's inference_run_seconds histogram (sum and count per model, executor time of session.run): runs and milliseconds per decided applicant; rows run from inference_batch_size (sum) and rows answered from the row cache (inference_row_cache_rows_total, hit + shared)",
        poll_cost:
          'after the passes, `concurrency` clients poll a decided session back to back for 5 s; CPU per poll per process; cpu_ms_per_verification_without_polls subtracts polls × that',
        cpu: 'utime + stime from /proc/<pid>/stat (inference: the front and its executor child) over each pass, divided by decided applicants; bench_client is this process (process.cpuUsage); includes status polling, session creation and report fetches; headline = median of passes',
        warmup: `${options.warmup} applicants before the first pass, not measured`,
      },
      targets: targets(passes),
      poll_cost: pollCalibration,
      summary,
      passes,
      errors,
      applicants: all,
    };
    writeResults(report, true);
    process.stdout.write(renderMarkdown(report));
    // An upload refused under load (a 503 past the check deadline) is a finding, listed in the
    // results; the run fails only when more than one applicant in twenty could not finish.
    if (errors.length * 20 > options.applicants * options.passes) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

main().catch((error: Error) => {
  log(`failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
