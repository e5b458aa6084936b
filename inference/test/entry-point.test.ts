/**
 * The service's own entry point, run as operators run it (`tsx inference/src/main.ts`): it
 * refuses a bad repository naming the model, refuses bad environment naming the variable,
 * and serves then drains on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { descendants } from '../../scripts/test-support/process-tree';
import { createInferenceClient } from '../src/client/inference-client';
import { TINY_MODEL, tinyRepository } from './fixtures/tiny-repository';

const root = join(__dirname, '../..');
const tsx = join(root, 'node_modules/.bin/tsx');

function run(env: Record<string, string>) {
  const child = spawn(tsx, [join(root, 'inference/src/main.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('inference/src/main.ts', () => {
  it('exits non-zero naming the model and the problem when a checksum is wrong', async () => {
    const repo = tinyRepository({ editConfig: (c) => ({ ...c, sha256: '0'.repeat(64) }) });
    const service = run({ MODEL_REPOSITORY: repo, INFERENCE_PORT: '0', INFERENCE_METRICS_PORT: '0' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(/start-up failed: model "tiny-affine": checksum mismatch/);
  });

  it('names each bad environment variable', async () => {
    const service = run({ INFERENCE_PORT: 'eighty', INFERENCE_EXECUTOR: 'gpu-magic' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(/INFERENCE_PORT/);
    expect(service.output()).toMatch(/INFERENCE_EXECUTOR/);
  });

  it('serves on INFERENCE_PORT, then drains and exits 0 on SIGTERM leaving no executor behind', async () => {
    const port = await freePort();
    const service = run({
      MODEL_REPOSITORY: tinyRepository(),
      INFERENCE_PORT: String(port),
      INFERENCE_HOST: '127.0.0.1',
      INFERENCE_METRICS_PORT: '0',
    });
    const deadline = Date.now() + 30_000;
    while (!service.output().includes('ready:') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const client = createInferenceClient({ address: `127.0.0.1:${port}` });
    await expect(client.modelReady(TINY_MODEL)).resolves.toBe(true);
    client.close();
    const processes = descendants(service.child.pid!);
    expect(processes.length).toBeGreaterThanOrEqual(2); // the service and its model's executor
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('SIGTERM: draining');
    await new Promise((r) => setTimeout(r, 200));
    expect(processes.filter(alive)).toEqual([]);
  });
});
