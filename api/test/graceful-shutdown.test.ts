import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../scripts/stack/free-port';
import { waitFor } from '../../scripts/stack/child-process';
import { isolatedTestEnv } from '../../scripts/test-support/test-env';
import { issueAccountAt } from '../../scripts/test-support/account-bootstrap';

const ROOT = path.resolve(__dirname, '../..');

async function issueSandboxKey(env: { MONGODB_URI: string; SECRET_ENCRYPTION_KEY: string }): Promise<string> {
  const issued = await issueAccountAt(env.MONGODB_URI, env, { name: 'Shutdown' });
  return issued.sandbox_api_key;
}

describe('the API process', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  const start = (env: Record<string, string>) => {
    const stderr: string[] = [];
    child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'api/src/entry-points/http/main.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    return { stderr, exited };
  };

  it('refuses to start with a bad configuration, naming every bad variable', async () => {
    const { stderr, exited } = start({ PORT: 'x', REDIS_URL: 'nope' });
    expect(await exited).toBe(78);
    const text = stderr.join('');
    for (const name of ['PORT', 'REDIS_URL', 'MONGODB_URI', 'SECRET_ENCRYPTION_KEY']) expect(text).toContain(name);
  });

  it('on SIGTERM stops reporting ready, finishes the request in flight, then exits 0', async () => {
    const port = await freePort();
    const env = isolatedTestEnv();
    const key = await issueSandboxKey(env);
    const { exited } = start({ ...env, PORT: String(port), LOG_LEVEL: 'silent' });
    const base = `http://127.0.0.1:${port}`;
    await waitFor('api', async () => (await fetch(`${base}/readyz`)).ok, 30_000, child);
    // A slow upload keeps one request in flight across the signal.
    const body = new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"return_url":'));
        await new Promise((r) => setTimeout(r, 1500));
        controller.enqueue(new TextEncoder().encode('"x"}'));
        controller.close();
      },
    });
    const inFlight = fetch(`${base}/v1/sessions`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': key },
      duplex: 'half',
    } as RequestInit);
    await new Promise((r) => setTimeout(r, 600));
    child?.kill('SIGTERM');
    const response = await inFlight;
    // Answered after its body arrived, i.e. after the signal: drained, not dropped.
    expect(response.status).toBe(422);
    expect(await exited).toBe(0);
  });
});
