import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AppContext } from '../../api/src/app-context';
import { composeApp } from '../../api/src/compose-app';
import { loadConfig } from '../../api/src/config/env';
import { createHttpApp } from '../../api/src/entry-points/http/app';
import { createLogger } from '../../api/src/shared/logger';
import { issueAccountAt } from '../../scripts/test-support/account-bootstrap';
import { startStackPieces } from '../../scripts/test-support/stack-pieces';

const ROOT = path.resolve(__dirname, '../..');
const STATE = path.join(ROOT, '.state', 'bench-api-layers');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);

/** The baseline: a counter that never calls Redis and never refuses, in place of the real limiter. */
const unlimited = {
  consume: () => Promise.resolve({ allowed: true, limit: 0, remaining: 0, resetSeconds: 1 }),
} as unknown as AppContext['rateLimits'];

type Variant = { name: string; rateLimited: boolean; idempotencyKey: boolean };
const VARIANTS: Variant[] = [
  { name: 'without (no rate limit, no Idempotency-Key)', rateLimited: false, idempotencyKey: false },
  { name: 'rate limit only', rateLimited: true, idempotencyKey: false },
  { name: 'rate limit + Idempotency-Key', rateLimited: true, idempotencyKey: true },
];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** CLIENTS loops creating sessions for SECONDS; answers requests per second (201s only; anything else is counted apart). */
async function drive(baseUrl: string, apiKey: string, withKey: boolean): Promise<{ rps: number; errors: number }> {
  const body = JSON.stringify({
    return_url: 'https://example.com/done',
    webhook_url: 'https://example.com/webhooks',
    expected_name: 'Jane Doe',
  });
  const until = Date.now() + SECONDS * 1000;
  let ok = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < until) {
        const headers: Record<string, string> = { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' };
        if (withKey) headers['Idempotency-Key'] = randomUUID();
        const res = await fetch(`${baseUrl}/v1/sessions`, { method: 'POST', headers, body });
        await res.arrayBuffer();
        if (res.status === 201) ok += 1;
        else errors += 1;
      }
    }),
  );
  return { rps: ok / ((performance.now() - started) / 1000), errors };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * `npm run bench:api-layers`: POST /v1/sessions requests per second through the real API (its
 * own FerretDB and Redis), with and without the rate-limit and idempotency layers, in alternating
 * rounds so background load falls on all variants alike. The baseline swaps only the limiter for
 * one that never counts; everything else (auth, validation, the session insert, the expiry job)
 * is the same code. A production key on the enterprise plan, so the limit itself never refuses.
 */
async function main(): Promise<void> {
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true });
  const pieces = await startStackPieces(STATE, { database: 'bench', prefix: 'bench' });
  const config = loadConfig({
    ...pieces.env,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
  });
  const ctx = await composeApp(config, createLogger('warn'));
  const servers: Server[] = [];
  try {
    const account = await issueAccountAt(config.MONGODB_URI, config, { name: 'Bench', plan: 'enterprise' });
    const urls = new Map<Variant, string>();
    for (const variant of VARIANTS) {
      const server = createServer(createHttpApp(variant.rateLimited ? ctx : { ...ctx, rateLimits: unlimited }));
      servers.push(server);
      urls.set(variant, await listen(server));
    }
    await drive(urls.get(VARIANTS[0])!, account.live_api_key, false); // warm-up: JIT, connections, indexes
    const samples = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
    let errors = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const variant of VARIANTS) {
        const run = await drive(urls.get(variant)!, account.live_api_key, variant.idempotencyKey);
        samples.get(variant)!.push(run.rps);
        errors += run.errors;
        console.log(
          `round ${round + 1} ${variant.name}: ${run.rps.toFixed(1)} req/s${run.errors ? ` (${run.errors} non-201)` : ''}`,
        );
      }
    }
    const baseline = median(samples.get(VARIANTS[0])!);
    const rows = VARIANTS.map((v) => {
      const values = samples.get(v)!;
      return {
        variant: v.name,
        rounds_rps: values.map((x) => Math.round(x * 10) / 10),
        median_rps: Math.round(median(values) * 10) / 10,
        vs_baseline: `${(((median(values) - baseline) / baseline) * 100).toFixed(1)}%`,
      };
    });
    const result = {
      measured_at: new Date().toISOString(),
      host: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`,
      load_average: os.loadavg().map((l) => Math.round(l * 100) / 100),
      store: 'FerretDB 1.24 (SQLite)',
      seconds_per_run: SECONDS,
      rounds: ROUNDS,
      clients: CLIENTS,
      non_201: errors,
      rows,
    };
    const dir = path.join(ROOT, 'benchmarks', 'results');
    writeFileSync(path.join(dir, 'api-layers.json'), `${JSON.stringify(result, null, 2)}\n`);
    const md = [
      '# POST /v1/sessions with and without the rate-limit and idempotency layers',
      '',
      `\`npm run bench:api-layers\` (${result.measured_at}; ${result.host}; load average ${result.load_average.join(' ')}; ${result.store}; ${CLIENTS} clients, ${ROUNDS} alternating rounds of ${SECONDS} s each; ${errors} non-201 answers).`,
      '',
      '| variant | req/s per round | median req/s | vs baseline |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.variant} | ${r.rounds_rps.join(', ')} | ${r.median_rps} | ${r.vs_baseline} |`),
      '',
    ].join('\n');
    writeFileSync(path.join(dir, 'api-layers.md'), md);
    console.log(md);
  } finally {
    for (const server of servers) server.close();
    await ctx.close();
    await pieces.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
