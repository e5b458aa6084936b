import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { issueAccountAt } from '../test-support/account-bootstrap';
import { startInferenceProcess } from '../test-support/inference-process';
import { API_MAIN, startApiProcess, startWorkerProcess } from '../test-support/service-process';
import { startStackPieces } from '../test-support/stack-pieces';

const ROOT = path.resolve(__dirname, '../..');

export interface FuzzStack {
  baseUrl: string;
  /** A sandbox key on the enterprise plan, whose rate limit leaves room for a long run. */
  apiKey: string;
  logDir: string;
  /** Whether the API process is still running (a fuzz case must never stop it). */
  apiAlive(): boolean;
  stop(): Promise<void>;
}

/**
 * The stack as `npm start` runs it, each piece its own process: FerretDB and Redis of its own (in a
 * temporary folder, so the local stack's and the test suite's data are untouched), the inference
 * service with the real models, the API and one worker.
 */
export async function startFuzzStack(log: (line: string) => void = () => undefined): Promise<FuzzStack> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'bioverify-fuzz-'));
  const running: Array<{ stop(): Promise<unknown> }> = [];
  const stop = async () => {
    for (const part of running.splice(0).reverse()) await part.stop().catch(() => undefined);
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    const pieces = await startStackPieces(stateDir, { database: 'fuzz', prefix: 'fuzz' });
    running.push(pieces);
    log('FerretDB and Redis up; starting the inference service');
    const inference = await startInferenceProcess(process.env.MODEL_REPOSITORY ?? path.join(ROOT, 'models'));
    running.push(inference);
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...pieces.env,
      INFERENCE_URL: inference.address,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    const account = await issueAccountAt(env.MONGODB_URI, env, { name: 'Fuzz', plan: 'enterprise' });
    const tuning = { logDir: path.join(stateDir, 'logs'), readyTimeoutMs: 60_000 };
    const api = await startApiProcess(env, API_MAIN, 'api', undefined, tuning);
    running.push({ stop: () => api.kill('SIGTERM') });
    const worker = await startWorkerProcess(env, 'worker', 'ready', tuning);
    running.push({ stop: () => worker.kill('SIGTERM') });
    log(`stack up: API http://127.0.0.1:${api.port}`);
    return {
      baseUrl: `http://127.0.0.1:${api.port}`,
      apiKey: account.sandbox_api_key,
      logDir: tuning.logDir,
      apiAlive: () => api.child.exitCode === null && api.child.signalCode === null,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
