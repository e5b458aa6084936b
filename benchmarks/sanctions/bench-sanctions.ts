import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { percentile as percentileOrNull } from '../../scripts/test-support/percentiles';
import {
  connectMongo,
  createSanctionsScreening,
  WATCHLIST_FORMATS,
  WatchlistRepository,
  WatchlistScreening,
} from '../../api/src/public-entry';
import { ScreeningSubject } from '../../api/src/domain/ports/sanctions-screening';
import { WatchlistEntry } from '../../api/src/domain/sanctions/watchlist-entry';
import { createLogger } from '../../api/src/shared/logger';
import { startFerretDb } from '../../scripts/stack/ferretdb';
import { listedPersonDocument, VARIANTS } from './document-variants';
import { seededRandom } from '../../scripts/test-support/seeded-random';
import { nonListedPeople } from './non-listed-people';
import { syntheticList } from './synthetic-list';

/** Every sample here is non-empty; NaN would mark one that was not. */
const percentile = (values: number[], p: number): number => percentileOrNull(values, p) ?? Number.NaN;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ROOT = path.resolve(__dirname, '../..');
const DATA = path.resolve(ROOT, 'api/test/sanctions/lists');
const RUNS = 5;

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

function memory() {
  gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, retained: usage.heapUsed + usage.external + usage.arrayBuffers };
}

/** Half listed persons as documents show them, half people who are not listed. */
function queries(entries: WatchlistEntry[], count: number, seed: number): ScreeningSubject[] {
  const random = seededRandom(seed);
  const listed = Array.from({ length: count / 2 }, (_, i) =>
    listedPersonDocument(entries[Math.floor(random() * entries.length)], VARIANTS[i % VARIANTS.length], random),
  );
  return [...listed, ...nonListedPeople(count / 2, seed)];
}

/**
 * Per-screening latency over RUNS passes of the queries; each pass's p50/p99, and their medians.
 * Wall time is what a caller waits; CPU time (getrusage) is the screening's own work, without the
 * time the process waited for a core, which on a shared 2-core machine dominates the tail.
 */
async function latency(screening: WatchlistScreening, subjects: ScreeningSubject[]) {
  for (const subject of subjects.slice(0, 200)) await screening.screen(subject); // warm the JIT
  type Run = { p50_ms: number; p99_ms: number; max_ms: number; cpu_p99_ms: number };
  const runs: Run[] = [];
  for (let run = 0; run < RUNS; run++) {
    const times: number[] = [];
    const cpu: number[] = [];
    for (const subject of subjects) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await screening.screen(subject);
      const used = process.cpuUsage(cpuStarted);
      times.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    runs.push({
      p50_ms: percentile(times, 50),
      p99_ms: percentile(times, 99),
      max_ms: Math.max(...times),
      cpu_p99_ms: percentile(cpu, 99),
    });
  }
  const median = (key: keyof Run) =>
    Math.round(
      percentile(
        runs.map((r) => r[key]),
        50,
      ) * 100,
    ) / 100;
  return {
    queries: subjects.length,
    runs: RUNS,
    p50_ms: median('p50_ms'),
    p99_ms: median('p99_ms'),
    cpu_p99_ms: median('cpu_p99_ms'),
    per_run: runs.map((r) => ({
      p50_ms: +r.p50_ms.toFixed(2),
      p99_ms: +r.p99_ms.toFixed(2),
      max_ms: +r.max_ms.toFixed(2),
      cpu_p99_ms: +r.cpu_p99_ms.toFixed(2),
    })),
  };
}

/** Loads `lists` through the store as `watchlist import` does, then a fresh screening process view of them. */
async function scenario(
  uri: string,
  lists: Array<{ name: string; format: string; entries: () => Promise<WatchlistEntry[]> }>,
  queryCount: number,
) {
  const connection = await connectMongo(uri);
  await connection.dropDatabase();
  const repository = new WatchlistRepository(connection);
  const imports = [];
  let all: WatchlistEntry[] = [];
  for (const list of lists) {
    const parsedAt = performance.now();
    const entries = await list.entries();
    const writeAt = performance.now();
    await repository.replaceList(list.name, list.format, entries, new Date());
    imports.push({
      list: list.name,
      persons: entries.length,
      parse_or_generate_s: seconds(writeAt - parsedAt),
      store_write_s: seconds(performance.now() - writeAt),
    });
    all = all.concat(entries);
  }
  const subjects = queries(all, queryCount, 11);
  all = [];
  const before = memory();
  const screening = createSanctionsScreening(connection, createLogger('silent'), {
    refreshIntervalMs: Number.POSITIVE_INFINITY,
  });
  const loadAt = performance.now();
  await screening.warm();
  const loadS = seconds(performance.now() - loadAt);
  const after = memory();
  const result = {
    imports,
    index: {
      ...screening.loaded,
      load_from_store_s: loadS,
      memory_retained_mb: mb(after.retained - before.retained),
      rss_growth_mb: mb(after.rss - before.rss),
      process_rss_mb: mb(after.rss),
    },
    screening: await latency(screening, subjects),
  };
  await connection.dropDatabase();
  await connection.close();
  return result;
}

/**
 * `npm run bench:sanctions [-- --persons 1000000]`: screening latency against the real OFAC SDN and
 * UN lists, then a synthetic list of a million persons imported through the store, loaded into a
 * screening index (time and memory) and screened. Writes benchmarks/results/sanctions.{json,md}.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      persons: { type: 'string', default: '1000000' },
      out: { type: 'string', default: path.join(ROOT, 'benchmarks/results') },
    },
  });
  const persons = Number(values.persons);
  const state = path.join(ROOT, '.state', 'sanctions-bench');
  rmSync(state, { recursive: true, force: true });
  const ferret = await startFerretDb(path.join(state, 'ferretdb'));
  try {
    process.stderr.write('[bench:sanctions] real lists\n');
    const real = await scenario(
      ferret.uri,
      [
        {
          name: 'ofac-sdn',
          format: 'ofac-sdn-csv',
          entries: () => WATCHLIST_FORMATS['ofac-sdn-csv'].read(path.join(DATA, 'sdn.csv')),
        },
        {
          name: 'un-consolidated',
          format: 'un-xml',
          entries: () => WATCHLIST_FORMATS['un-xml'].read(path.join(DATA, 'UN_consolidated.xml')),
        },
      ],
      2000,
    );
    process.stderr.write(
      `[bench:sanctions] real lists p99 ${real.screening.p99_ms} ms; synthetic ${persons} persons\n`,
    );
    const synthetic =
      persons === 0
        ? null
        : await scenario(
            ferret.uri,
            [{ name: 'synthetic', format: 'ftm-jsonl', entries: () => Promise.resolve(syntheticList(persons, 11)) }],
            2000,
          );
    const summary = {
      machine: {
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model,
        load_average_1m: os.loadavg()[0],
        node: process.version,
      },
      targets: { real_lists_p99_ms: 20, synthetic_million_p99_ms: 100 },
      real_lists: real,
      synthetic,
    };
    mkdirSync(values.out, { recursive: true });
    writeFileSync(path.join(values.out, 'sanctions.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const row = (label: string, r: typeof real) =>
      `| ${label} | ${r.index.entries} | ${r.index.names} | ${r.imports.map((i) => `${i.store_write_s} s`).join(' + ')} | ${r.index.load_from_store_s} s | ${r.index.memory_retained_mb} MB (RSS ${r.index.process_rss_mb} MB) | ${r.screening.p50_ms} ms | ${r.screening.p99_ms} ms | ${r.screening.cpu_p99_ms} ms |`;
    const md = [
      '# Sanctions screening benchmark (`npm run bench:sanctions`)',
      '',
      `Machine: ${summary.machine.cpus} × ${summary.machine.cpu_model}, load average ${summary.machine.load_average_1m?.toFixed(2)} at the end, Node ${summary.machine.node}. One \`screen()\` through the same WatchlistScreening the API uses; medians of ${RUNS} passes over ${real.screening.queries} queries (half listed persons as documents show them, half faker people). Targets: p99 ≤ 20 ms on the real lists, ≤ 100 ms on a million persons.`,
      '',
      '| lists | persons | names indexed | import to store | load + index | memory retained | p50 | p99 (wall) | p99 (CPU) |',
      '|---|---|---|---|---|---|---|---|---|',
      row('OFAC SDN + UN', real),
      ...(synthetic ? [row('synthetic', synthetic)] : []),
      '',
    ].join('\n');
    writeFileSync(path.join(values.out, 'sanctions.md'), md);
    process.stdout.write(`${md}\n`);
  } finally {
    await ferret.process.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
