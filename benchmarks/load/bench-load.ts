/**
 * npm run bench:load -- [--clients 1,4,16,64] [--duration 10] [--fills 100,100000] [--soak 600]
 * The API under the integrators' mix at each client count, after the store is filled to each
 * size; CPU and memory of the API, worker and store; optional soak. See README.md beside it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scrapeApi, telemetryBetween } from './api-telemetry';
import { StoreFiller } from './fill-store';
import { parseLoadOptions } from './load-options';
import { LoadResults, LoadStep, renderChart, renderMarkdown, SoakFigures } from './load-report';
import { startLoadStack } from './load-stack';
import { measureUsage, rssMiB } from './process-usage';
import { runMix } from './traffic-mix';

const RESULTS = path.resolve(__dirname, '../results');
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const log = (line: string) => process.stdout.write(`[bench:load] ${line}\n`);

async function soak(
  stack: Awaited<ReturnType<typeof startLoadStack>>,
  filler: StoreFiller,
  clients: number,
  seconds: number,
  without: string[],
): Promise<SoakFigures> {
  const apiRss: number[] = [],
    storeRss: number[] = [];
  const statuses: Record<string, number> = {};
  let answered = 0;
  // One-minute rounds (the last may be shorter); RSS is read after each, the first round being the warm-up.
  for (let left = seconds; left > 0; left -= 60) {
    const round = await runMix(stack.baseUrl, stack.accounts, filler.pool, clients, Math.min(60, left), without);
    answered += round.requests_per_s * round.duration_s;
    for (const [code, n] of Object.entries(round.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
    apiRss.push(Math.round(rssMiB(stack.pids.api!)));
    storeRss.push(Math.round(rssMiB(stack.pids.ferretdb!)));
    log(`soak: ${seconds - left + Math.min(60, left)} s, ${round.requests_per_s} req/s, API RSS ${apiRss.at(-1)} MiB`);
  }
  const afterWarmup = apiRss.slice(1);
  const growth =
    afterWarmup.length >= 2 ? Math.round(((afterWarmup.at(-1)! - afterWarmup[0]) / afterWarmup[0]) * 1000) / 10 : null;
  const serverErrors = Object.entries(statuses)
    .filter(([code]) => code.startsWith('5'))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    clients,
    duration_s: seconds,
    requests_per_s: Math.round(answered / seconds),
    statuses,
    server_errors: serverErrors,
    api_rss_mib: afterWarmup,
    store_rss_mib: storeRss.slice(1),
    api_rss_growth_pct: growth,
  };
}

async function main(): Promise<void> {
  const options = parseLoadOptions(process.argv.slice(2));
  const results: LoadResults = {
    meta: {
      label: options.label,
      date: new Date().toISOString(),
      machine: `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), shared with other users`,
      loadavg_start: loadavg(),
      options,
      store: `${options.ferretdbBin ? `FerretDB ${path.basename(options.ferretdbBin)}` : 'FerretDB v1.24.2-idpush (scripts/build-ferretdb.sh)'} over SQLite, synchronous=${options.synchronous ?? 'full'}, page cache ${options.cacheMiB ?? 64} MiB, API pool ${options.pool ?? 'driver default (100)'}${options.noWorker ? ', no worker' : ', one worker'}`,
    },
    fills: [],
    read_by_id: [],
    steps: [],
    soak: null,
  };
  const stack = await startLoadStack(options.accounts, options, options.label, log);
  const filler = await StoreFiller.open(stack.env, stack.accounts);
  let createdByMix = 0;
  try {
    for (const target of options.fills) {
      const seconds = await filler.fillTo(target, createdByMix);
      const stored = filler.stored + createdByMix;
      results.fills.push({
        stored,
        seconds,
        via: 'SessionRepository.importMany + the delivery log writer, 1,000 per batch',
      });
      log(`store filled to ${stored} sessions in ${seconds.toFixed(1)} s (load average ${loadavg()})`);
      // The read by id alone, one client, on the store as filled (before any mix leaves work behind in it).
      const probe = await runMix(stack.baseUrl, stack.accounts, filler.pool, 1, options.probeS, [
        'create',
        'result',
        'report',
        'deliveries',
      ]);
      results.read_by_id.push({ stored, loadavg: loadavg(), ...probe.operations.status });
      log(
        `read by id at ${stored} stored, 1 client: p50 ${probe.operations.status.p50_ms} ms, p99 ${probe.operations.status.p99_ms} ms (${probe.operations.status.n} reads)`,
      );
      for (const clients of options.clients) {
        if (options.warmupS > 0)
          createdByMix += (
            await runMix(stack.baseUrl, stack.accounts, filler.pool, clients, options.warmupS, options.without)
          ).created;
        const before = await scrapeApi(stack.baseUrl);
        const { result, usage } = await measureUsage(stack.pids, () =>
          runMix(stack.baseUrl, stack.accounts, filler.pool, clients, options.durationS, options.without),
        );
        const api = telemetryBetween(before, await scrapeApi(stack.baseUrl), options.durationS);
        createdByMix += result.created;
        const step: LoadStep = { ...result, stored, usage, loadavg: loadavg(), api };
        results.steps.push(step);
        const ops = Object.entries(step.operations)
          .map(([op, f]) => `${op} p50 ${f.p50_ms} p99 ${f.p99_ms} max ${f.max_ms}`)
          .join('; ');
        log(
          `${stored} stored, ${clients} clients, load average ${step.loadavg}: ${step.requests_per_s} req/s (${step.operations.create.per_s} creates/s), ${JSON.stringify(step.statuses)}, no answer ${step.errors + step.timeouts}; ${ops}; API ${usage.api?.cpu_pct}% ${usage.api?.rss_mib} MiB, FerretDB ${usage.ferretdb?.cpu_pct}% ${usage.ferretdb?.rss_mib} MiB, worker ${usage.worker?.cpu_pct}%`,
        );
        log(`  API: ${JSON.stringify(api)}`);
      }
    }
    if (options.soakS > 0)
      results.soak = await soak(stack, filler, options.soakClients, options.soakS, options.without);
  } finally {
    results.meta.loadavg_end = loadavg();
    await filler.stop().catch(() => undefined);
    await stack.stop();
  }
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(path.join(RESULTS, `${options.label}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(RESULTS, `${options.label}.md`), renderMarkdown(results));
  writeFileSync(path.join(RESULTS, `${options.label}.svg`), renderChart(results));
  log(`results in benchmarks/results/${options.label}.{json,md,svg}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
