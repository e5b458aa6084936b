import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectMongo, webhookSettlementModel } from '../../api/src/public-entry';
import { issueAccount } from '../../scripts/test-support/account-bootstrap';
import { ServiceProcess, startApiProcess, startWorkerProcess } from '../../scripts/test-support/service-process';
import { createSession, simulate } from '../../scripts/test-support/sessions-api';
import { startStackPieces } from '../../scripts/test-support/stack-pieces';
import { WebhookReceiver } from '../../scripts/test-support/webhook-receiver';

const ROOT = path.resolve(__dirname, '../..');
const STATE = path.join(ROOT, '.state', 'webhooks', 'bench');
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const WORKER_CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ?? '50';
const STALL_MS = 60_000;

/** CPU time a process has used so far, in ms (Linux /proc; clock ticks are 10 ms). */
function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Runs `task` over `items` with `width` in flight. */
async function pool<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}

/**
 * `npm run bench:webhooks`: SESSIONS sessions completed through sandbox simulation on the real
 * API, then delivered by WORKERS real worker processes to a loopback receiver that verifies both
 * signatures of every request. The delivery rate is measured from the first request the receiver
 * saw to the last acknowledged one, with the whole backlog queued (so it is the delivery path's
 * own rate, not the API's); "lost" compares the decided sessions with what was acknowledged.
 */
async function main(): Promise<void> {
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true });
  const running: Array<{ stop(): Promise<unknown> }> = [];
  const stopAll = async () => {
    for (const proc of running.splice(0).reverse()) await proc.stop().catch(() => undefined);
  };
  // Interrupted (Ctrl-C, a timeout): leave no server or worker behind.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stopAll().then(() => process.exit(130)));
  try {
    const pieces = await startStackPieces(STATE, { database: 'bench', prefix: 'bench' });
    running.push(pieces);
    const env: Record<string, string> = {
      ...pieces.env,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      WORKER_CONCURRENCY: WORKER_CONCURRENCY,
    };
    const store = await connectMongo(env.MONGODB_URI);
    // Enterprise: its sandbox rate limit (3000 requests a minute) covers two requests per session at the default size.
    const account = await issueAccount(store, env, { name: 'Bench', plan: 'enterprise' });
    const receiver = new WebhookReceiver(account.webhook_secret);
    await receiver.start();
    running.push(receiver);

    const api: ServiceProcess = await startApiProcess(env);
    running.push({ stop: () => api.kill('SIGTERM') });
    const baseUrl = `http://127.0.0.1:${api.port}`;
    const ids: string[] = [];
    const decideStarted = Date.now();
    await pool(
      Array.from({ length: SESSIONS }, (_, i) => i),
      CLIENTS,
      async (i) => {
        const id = await createSession(baseUrl, account.sandbox_api_key, receiver.url());
        const status = await simulate(baseUrl, account.sandbox_api_key, id, i % 2 === 0 ? 'VERIFIED' : 'FAILED');
        if (status !== 200) throw new Error(`simulate answered ${status}`);
        ids.push(id);
      },
    );
    const decideSeconds = (Date.now() - decideStarted) / 1000;
    console.log(
      `decided ${ids.length} sessions in ${decideSeconds.toFixed(1)} s (${(ids.length / decideSeconds).toFixed(0)}/s, ${CLIENTS} clients)`,
    );

    const workerPids: number[] = [];
    for (let w = 0; w < WORKERS; w += 1) {
      const worker = await startWorkerProcess(env, `bench-worker${w + 1}`);
      workerPids.push(worker.child.pid!);
      running.push({ stop: () => worker.kill('SIGTERM') });
    }
    const cpuOf = () => ({
      store: cpuMs(pieces.ferretdb.child.pid),
      redis: cpuMs(pieces.redis.child.pid),
      workers: workerPids.reduce((sum, pid) => sum + cpuMs(pid), 0),
      receiver: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
    });
    const cpuBefore = cpuOf();
    const acked = new Set<string>();
    let lastProgress = Date.now();
    let lastAckAt = 0;
    while (acked.size < ids.length && Date.now() - lastProgress < STALL_MS) {
      await new Promise((r) => setTimeout(r, 200));
      const before = acked.size;
      for (const copy of receiver.copies) {
        if (
          copy.answered === 200 &&
          copy.bioSignatureValid &&
          copy.standardSignatureValid &&
          !acked.has(copy.sessionId)
        ) {
          acked.add(copy.sessionId);
          lastAckAt = Math.max(lastAckAt, copy.at);
        }
      }
      if (acked.size > before) lastProgress = Date.now();
    }
    const cpuAfter = cpuOf();
    const cpuPerDelivery = Object.fromEntries(
      Object.entries(cpuAfter).map(([k, v]) => [
        k,
        Number(((v - cpuBefore[k as keyof typeof cpuBefore]) / Math.max(1, acked.size)).toFixed(2)),
      ]),
    );
    const firstAt = Math.min(...receiver.copies.map((c) => c.at));
    const deliverySeconds = (lastAckAt - firstAt) / 1000;
    const delivered = await webhookSettlementModel(store).countDocuments({ state: 'delivered' });
    const result = {
      sessions: ids.length,
      workers: WORKERS,
      worker_concurrency: Number(WORKER_CONCURRENCY),
      deliveries_acknowledged: acked.size,
      lost: ids.length - acked.size,
      requests_seen: receiver.copies.length,
      duplicates: receiver.copies.length - acked.size,
      invalid_signatures: receiver.copies.filter((c) => !c.bioSignatureValid || !c.standardSignatureValid).length,
      store_delivered: delivered,
      delivery_seconds: Number(deliverySeconds.toFixed(2)),
      deliveries_per_second: Number(((acked.size - 1) / deliverySeconds).toFixed(1)),
      decisions_per_second: Number((ids.length / decideSeconds).toFixed(1)),
      /** From the moment the workers were ready to the last acknowledgement, per delivery. */
      cpu_ms_per_delivery: cpuPerDelivery,
      /** Other work on the machine competes for its 2 cores: the figure depends on it. */
      load_average_1m: Number(os.loadavg()[0].toFixed(2)),
      measured_at: new Date().toISOString(),
    };
    writeFileSync(path.join(STATE, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
    await store.close();
    if (result.lost > 0 || result.invalid_signatures > 0) process.exitCode = 1;
  } finally {
    await stopAll();
  }
}

main().catch((error) => {
  console.error(`bench failed: ${(error as Error).stack}`);
  process.exit(1);
});
