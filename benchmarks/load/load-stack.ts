/**
 * The benchmark's own stack, started as `npm start` starts it: FerretDB over SQLite and Redis
 * (scripts/test-support/stack-pieces.ts, the same FerretDB settings as the local stack), the API
 * and one worker, each its own process so each one's CPU and memory can be read from /proc. The
 * accounts are on the enterprise plan, spread over several keys, so that the plan's rate limit is
 * not what is measured. No inference service: the traffic mix never submits a capture.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { issueAccountAt } from '../../scripts/test-support/account-bootstrap';
import { API_MAIN, startApiProcess, startWorkerProcess } from '../../scripts/test-support/service-process';
import { startStackPieces } from '../../scripts/test-support/stack-pieces';

const ROOT = path.resolve(__dirname, '../..');
const STATES = path.join(ROOT, '.state', 'bench');

export interface LoadAccount {
  account_id: string;
  key: string;
}

export interface LoadStack {
  baseUrl: string;
  accounts: LoadAccount[];
  env: Record<string, string>;
  pids: Partial<Record<'api' | 'worker' | 'ferretdb' | 'redis', number>>;
  stop(): Promise<void>;
}

export interface StoreSettings {
  ferretdbBin?: string;
  pool?: number;
  synchronous?: 'normal' | 'full';
  noWorker?: boolean;
  cacheMiB?: number;
}

export async function startLoadStack(
  accountCount: number,
  store: StoreSettings,
  label: string,
  log: (line: string) => void,
): Promise<LoadStack> {
  // One state folder per label, so two runs (e.g. a soak beside a fill) never share a store.
  const STATE = path.join(STATES, label);
  const { ferretdbBin, pool, synchronous } = store;
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true });
  const running: Array<{ stop(): Promise<unknown> }> = [];
  const stop = async () => {
    for (const part of running.splice(0).reverse()) await part.stop().catch(() => undefined);
  };
  try {
    const pieces = await startStackPieces(
      STATE,
      { database: 'bench_load', prefix: 'bench-load' },
      { bin: ferretdbBin, synchronous, cacheMiB: store.cacheMiB },
    );
    running.push(pieces);
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...pieces.env,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    if (pool) env.MONGODB_URI = `${env.MONGODB_URI}${env.MONGODB_URI.includes('?') ? '&' : '?'}maxPoolSize=${pool}`;
    const accounts: LoadAccount[] = [];
    for (let i = 0; i < accountCount; i += 1) {
      const issued = await issueAccountAt(env.MONGODB_URI, env, {
        name: `Load bench ${i + 1}`,
        plan: 'enterprise',
      });
      accounts.push({ account_id: issued.account_id, key: issued.live_api_key });
    }
    log(
      `FerretDB and Redis up, ${accountCount} enterprise accounts; starting the API${store.noWorker ? ' (no worker)' : ' and a worker'}`,
    );
    const tuning = { logDir: path.join(STATE, 'logs'), readyTimeoutMs: 60_000 };
    const api = await startApiProcess(env, API_MAIN, 'api', undefined, tuning);
    running.push({ stop: () => api.kill('SIGTERM') });
    const worker = store.noWorker ? null : await startWorkerProcess(env, 'worker', 'alive', tuning);
    if (worker) running.push({ stop: () => worker.kill('SIGTERM') });
    return {
      baseUrl: `http://127.0.0.1:${api.port}`,
      accounts,
      env,
      pids: {
        api: api.child.pid!,
        ...(worker ? { worker: worker.child.pid! } : {}),
        ferretdb: pieces.ferretdb.child.pid!,
        redis: pieces.redis.child.pid!,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
