import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../stack/child-process';
import { freePort } from '../stack/free-port';
import { SERVICE_NODE_FLAGS } from '../../api/src/config/service-node-flags';

const ROOT = path.resolve(__dirname, '../..');
const LOG_DIR = path.join(ROOT, '.state', 'webhooks', 'test-logs');
export const WORKER_MAIN = path.join(ROOT, 'api/src/entry-points/worker/main.ts');
export const API_MAIN = path.join(ROOT, 'api/src/entry-points/http/main.ts');

/** Logs of earlier runs are kept a day for debugging, then dropped. */
function pruneOldLogs(): void {
  mkdirSync(LOG_DIR, { recursive: true });
  for (const name of readdirSync(LOG_DIR)) {
    const file = path.join(LOG_DIR, name);
    try {
      if (Date.now() - statSync(file).mtimeMs > 24 * 3600_000) rmSync(file, { force: true });
    } catch {
      // another test file pruned it first
    }
  }
}
pruneOldLogs();

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** The worker's health port or the API's port. */
  port: number;
  logFile: string;
  exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit (SIGKILL after 15 s). */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Where a caller other than the tests wants the logs, and how long a slow start may take. */
export interface SpawnTuning {
  /** Default: .state/webhooks/test-logs (pruned after a day). */
  logDir?: string;
  /** Default: 30 s. */
  readyTimeoutMs?: number;
}

/**
 * Runs a TypeScript entry point as its own node process (`node --import tsx`, not the tsx CLI,
 * which would put a relay process in between and make SIGKILL hit the wrong one).
 */
function spawnService(
  name: string,
  script: string,
  env: Record<string, string>,
  port: number,
  logDir = LOG_DIR,
): ServiceProcess {
  mkdirSync(logDir, { recursive: true });
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logFile = path.join(logDir, `${name}-${child.pid}.log`);
  const log = createWriteStream(logFile);
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    child,
    port,
    logFile,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(force);
      return code;
    },
  };
}

async function ok(url: string): Promise<boolean> {
  return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
}

/** A worker process, returned once its /readyz says it is consuming (or, if told, once it is alive). */
export async function startWorkerProcess(
  env: Record<string, string>,
  name = 'worker',
  until: 'ready' | 'alive' = 'ready',
  tuning: SpawnTuning = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const proc = spawnService(name, WORKER_MAIN, { ...env, WORKER_HEALTH_PORT: String(port) }, port, tuning.logDir);
  await waitFor(
    name,
    () => ok(`http://127.0.0.1:${port}/${until === 'ready' ? 'readyz' : 'healthz'}`),
    tuning.readyTimeoutMs ?? 30_000,
    proc.child,
  );
  return proc;
}

/** An API process (optionally another entry script wrapping it), returned once /healthz answers. */
export async function startApiProcess(
  env: Record<string, string>,
  script = API_MAIN,
  name = 'api',
  port?: number,
  tuning: SpawnTuning = {},
): Promise<ServiceProcess> {
  const listen = port ?? (await freePort());
  const proc = spawnService(name, script, { ...env, PORT: String(listen) }, listen, tuning.logDir);
  await waitFor(name, () => ok(`http://127.0.0.1:${listen}/healthz`), tuning.readyTimeoutMs ?? 30_000, proc.child);
  return proc;
}
