/**
 * The benchmark's own stack, every part in its own process as in production so each one's CPU
 * can be read from /proc: FerretDB and Redis (scripts/test-support/stack-pieces.ts), the inference
 * service on the repository's real models (scripts/test-support/inference-process.ts:
 * `inference/src/main.ts` with its executor child), the API and one worker (`node --import tsx
 * <entry point>`), a sandbox account (scripts/test-support/account-bootstrap.ts), and a loopback
 * webhook receiver that answers 200 and notes when each copy arrived. Nothing here comes from a
 * folder's test/ (benchmarks use only the shared scripts/test-support).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { issueAccountAt } from '../../scripts/test-support/account-bootstrap';
import { API_MAIN, startApiProcess, startWorkerProcess } from '../../scripts/test-support/service-process';
import { startStackPieces } from '../../scripts/test-support/stack-pieces';
import { startInferenceProcess, type InferenceProcess } from '../../scripts/test-support/inference-process';
import { cpuSecondsOf, descendants } from '../../scripts/test-support/process-tree';

export const ROOT = path.resolve(__dirname, '../..');
const DEFAULT_STATE = path.join(ROOT, '.state', 'bench', 'decision');

export interface DecisionStackOptions {
  /** Where the stack's servers keep their data (wiped first); default .state/bench/decision. */
  stateDir?: string;
  /** Added to the API's and the worker's environment (store-profile.ts preloads its monitor so). */
  serviceEnv?: Record<string, string>;
  /** Another FerretDB build, to compare one with the other; default scripts/build-ferretdb.sh's. */
  ferretdbBin?: string;
}

/** user + system CPU (ms) a process and its live descendants have used so far (Linux /proc). */
export function cpuMs(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + cpuSecondsOf(p) * 1000, 0);
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
  inference: InferenceProcess;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startDecisionStack(
  log: (line: string) => void,
  options: DecisionStackOptions = {},
): Promise<DecisionStack> {
  const stateDir = options.stateDir ?? DEFAULT_STATE;
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  const running: Array<{ stop(): Promise<unknown> }> = [];
  const stop = async () => {
    for (const part of running.splice(0).reverse()) await part.stop().catch(() => undefined);
  };
  try {
    const pieces = await startStackPieces(
      stateDir,
      { database: 'bench_decision', prefix: 'bench-decision' },
      options.ferretdbBin ? { bin: options.ferretdbBin } : {},
    );
    running.push(pieces);
    log('FerretDB and Redis up; starting the inference service (model warm-up)');
    const inference = await startInferenceProcess(path.join(ROOT, 'models'));
    running.push(inference);
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...pieces.env,
      INFERENCE_URL: inference.address,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    // Enterprise: the benchmark's load, not a plan's rate limit, is what it measures.
    const account = await issueAccountAt(env.MONGODB_URI, env, {
      name: 'Decision bench',
      plan: 'enterprise',
    });
    const receiver = new Receiver();
    await receiver.start();
    running.push(receiver);
    log('inference ready; starting the API and a worker');
    const tuning = { logDir: path.join(stateDir, 'logs'), readyTimeoutMs: 60_000 };
    const serviceEnv = { ...env, ...options.serviceEnv };
    const api = await startApiProcess(serviceEnv, API_MAIN, 'api', undefined, tuning);
    running.push({ stop: () => api.kill('SIGTERM') });
    const worker = await startWorkerProcess(serviceEnv, 'worker', 'ready', tuning);
    running.push({ stop: () => worker.kill('SIGTERM') });
    return {
      baseUrl: `http://127.0.0.1:${api.port}`,
      apiKey: account.sandbox_api_key,
      receiver,
      pids: {
        inference: inference.pid,
        api: api.child.pid!,
        worker: worker.child.pid!,
        ferretdb: pieces.ferretdb.child.pid!,
        redis: pieces.redis.child.pid!,
      },
      inference,
      env,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
