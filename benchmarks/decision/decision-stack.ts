/**
 * The benchmark's own stack, every part in its own process as in production so each one's CPU
 * can be read from /proc: FerretDB and Redis (scripts/stack), the inference service on the
 * repository's real models (benchmarks/inference/service-process.ts: `inference/src/main.ts`
 * with its executor child), the API and one worker (`node --import tsx <entry point>`), a
 * sandbox account, and a loopback webhook receiver that answers 200 and notes when each copy
 * arrived. Nothing here comes from api/test (benchmarks must not import test support).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startFerretDb } from '../../scripts/stack/ferretdb';
import { startRedis } from '../../scripts/stack/redis';
import { waitFor } from '../../scripts/stack/child-process';
import { freePort } from '../../scripts/stack/free-port';
import { AccountRepository } from '../../api/src/data-access/account.repository';
import { connectMongo } from '../../api/src/data-access/mongo-connection';
import { createAccount } from '../../api/src/domain/usecases/manage-accounts/manage-accounts.usecase';
import { systemClock } from '../../api/src/shared/clock';
import { SecretBox } from '../../api/src/shared/secret-box';
import { startServiceProcess, type ServiceProcess } from '../inference/service-process';

export const ROOT = path.resolve(__dirname, '../..');
const STATE = path.join(ROOT, '.state', 'bench', 'decision');
const CLOCK_TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** user + system CPU (ms) a process and its live descendants have used so far (Linux /proc). */
export function cpuMs(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return sum + (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
    } catch {
      return sum; // exited between ps and the read
    }
  }, 0);
}

interface Child { pid: number; stop(): Promise<void> }

/** An API or worker entry point as its own node process (no tsx CLI relay in between). */
async function startNode(name: string, script: string, env: Record<string, string>, probe: string): Promise<Child> {
  mkdirSync(path.join(STATE, 'logs'), { recursive: true });
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(path.join(STATE, 'logs', `${name}.log`));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(name, async () => (await fetch(probe, { signal: AbortSignal.timeout(2_000) })).ok, 60_000, child);
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}

/** Answers 200 to every webhook and notes when each session's first copy arrived. */
class Receiver {
  readonly arrivals = new Map<string, number>();
  private server: Server | null = null;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        try {
          const id = (JSON.parse(Buffer.concat(chunks).toString()) as { session_id?: string }).session_id;
          if (id && !this.arrivals.has(id)) this.arrivals.set(id, at);
        } catch {
          // not JSON: still acknowledged
        }
        res.statusCode = 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(): string {
    return `http://127.0.0.1:${this.port}/webhooks`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export interface DecisionStack {
  baseUrl: string;
  apiKey: string;
  receiver: Receiver;
  /** The processes whose CPU the benchmark reads, by name. */
  pids: Record<'inference' | 'api' | 'worker' | 'ferretdb' | 'redis', number>;
  inference: ServiceProcess;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startDecisionStack(log: (line: string) => void): Promise<DecisionStack> {
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true });
  const running: Array<{ stop(): Promise<unknown> }> = [];
  const stop = async () => {
    for (const part of running.splice(0).reverse()) await part.stop().catch(() => undefined);
  };
  try {
    const ferret = await startFerretDb(path.join(STATE, 'ferretdb'));
    running.push(ferret.process);
    const redis = await startRedis(path.join(STATE, 'redis'));
    running.push(redis.process);
    log('FerretDB and Redis up; starting the inference service (model warm-up)');
    const inference = await startServiceProcess(path.join(ROOT, 'models'));
    running.push(inference);
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      MONGODB_URI: `${ferret.uri}bench_decision`,
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'bench-decision',
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CAPTURE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PII_MASTER_KEYS: `bench:${randomBytes(32).toString('base64')}`,
      INFERENCE_URL: inference.address,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    const store = await connectMongo(env.MONGODB_URI!);
    const accounts = new AccountRepository(store, new SecretBox(env.SECRET_ENCRYPTION_KEY!));
    await accounts.init();
    const account = await createAccount({ accounts, clock: systemClock }, { name: 'Decision bench', plan: 'starter', watchlist: false });
    await store.close();
    const receiver = new Receiver();
    await receiver.start();
    running.push(receiver);
    log('inference ready; starting the API and a worker');
    const apiPort = await freePort();
    const api = await startNode('api', 'api/src/entry-points/http/main.ts', { ...env, PORT: String(apiPort) }, `http://127.0.0.1:${apiPort}/healthz`);
    running.push(api);
    const healthPort = await freePort();
    const worker = await startNode('worker', 'api/src/entry-points/worker/main.ts', { ...env, WORKER_HEALTH_PORT: String(healthPort) }, `http://127.0.0.1:${healthPort}/readyz`);
    running.push(worker);
    return {
      baseUrl: `http://127.0.0.1:${apiPort}`,
      apiKey: account.sandbox_api_key,
      receiver,
      pids: { inference: inference.pid, api: api.pid, worker: worker.pid, ferretdb: ferret.process.child.pid!, redis: redis.process.child.pid! },
      inference,
      env,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
