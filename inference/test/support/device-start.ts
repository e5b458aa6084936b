/**
 * Starts the inference service's entry point with a device request and watches its readiness
 * probe (grpc.health.v1) until the process exits or a deadline passes, so a test can say both how
 * the start ended and that readiness never turned SERVING on the way.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInferenceClient } from '../../src/client/inference-client';

const root = join(__dirname, '../../..');
const tsx = join(root, 'node_modules/.bin/tsx');

export interface DeviceStart {
  /** null when the service was still running at the deadline (then it was stopped). */
  exitCode: number | null;
  output: string;
  elapsedMs: number;
  /** Every health status the probe answered (unanswered probes are not counted). */
  healthSeen: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `untilServing`: stop the service as soon as the probe answers SERVING (the start succeeded). */
export async function startWithDevice(
  env: Record<string, string>,
  deadlineMs: number,
  untilServing = false,
): Promise<DeviceStart> {
  const port = await freePort();
  const parentEnv = { ...process.env };
  delete parentEnv.LD_LIBRARY_PATH;
  const started = Date.now();
  const child = spawn(tsx, [join(root, 'inference/src/main.ts')], {
    cwd: root,
    env: {
      ...parentEnv,
      INFERENCE_PORT: String(port),
      INFERENCE_HOST: '127.0.0.1',
      INFERENCE_METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const client = createInferenceClient({ address: `127.0.0.1:${port}` });
  const healthSeen: string[] = [];
  try {
    while (exitCode === undefined && Date.now() - started < deadlineMs) {
      const status = await client.health('', 200).catch(() => undefined);
      if (status !== undefined) healthSeen.push(String(status));
      if (untilServing && status === 'SERVING') break;
      await Promise.race([exited, new Promise((r) => setTimeout(r, 50))]);
    }
  } finally {
    client.close();
  }
  if (exitCode === undefined) {
    child.kill('SIGTERM');
    await exited;
    return { exitCode: null, output, elapsedMs: Date.now() - started, healthSeen };
  }
  return { exitCode, output, elapsedMs: Date.now() - started, healthSeen };
}
