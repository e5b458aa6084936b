import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../../scripts/stack/child-process';
import { startFerretDb } from '../../scripts/stack/ferretdb';
import { issueAccountAt, IssuedAccount } from '../../scripts/test-support/account-bootstrap';
import { ServiceProcess, startApiProcess } from '../../scripts/test-support/service-process';
import { isolatedTestEnv } from '../../scripts/test-support/test-env';
import type { ApiError, CreatedSession, SessionStatus } from './support/api-bodies';
import { call, CallResult } from './support/http';

/**
 * A store that is busy (another writer holds SQLite's write lock) or gone (FerretDB stopped):
 * each request is retried where that is safe and otherwise answered 503 with Retry-After in the
 * contract's error shape, never 500. FerretDB here is this file's own, with a short busy timeout
 * so a held lock turns into SQLITE_BUSY in 300 ms rather than FerretDB's 10 s.
 */
const BUSY_TIMEOUT_MS = 300;
const DATABASE = 'store_faults';

/** An sqlite3 shell holding the database's write lock until released. */
class WriteLock {
  private constructor(private readonly shell: ChildProcessWithoutNullStreams) {}

  static async take(file: string): Promise<WriteLock> {
    const shell = spawn('sqlite3', [file]);
    const lock = new WriteLock(shell);
    let out = '';
    shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    shell.stdin.write("BEGIN IMMEDIATE;\nSELECT 'locked';\n");
    await waitFor('the sqlite3 shell to hold the write lock', () => out.includes('locked'), 10_000, shell);
    return lock;
  }

  async release(): Promise<void> {
    const exited = new Promise((resolve) => this.shell.once('exit', resolve));
    this.shell.stdin.end('ROLLBACK;\n.quit\n');
    await exited;
  }
}

const sessionBody = {
  return_url: 'https://example.com/done',
  webhook_url: 'https://example.com/hook',
  expected_name: 'Jane Doe',
};

function expectUnavailable(res: CallResult): void {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  const body = res.json as ApiError; // a 503 answers in the error shape (call checks it against the document)
  expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(typeof body.request_id).toBe('string');
}

describe('a busy or unreachable session store', () => {
  let dir: string;
  let ferret: Awaited<ReturnType<typeof startFerretDb>>;
  let port: number;
  let api: ServiceProcess;
  let account: IssuedAccount;
  let baseUrl: string;
  const key = () => account.live_api_key;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bv-store-faults-'));
    ferret = await startFerretDb(dir, undefined, { busyTimeoutMs: BUSY_TIMEOUT_MS });
    port = Number(new URL(ferret.uri).port);
    const env = { ...isolatedTestEnv(), MONGODB_URI: `${ferret.uri}${DATABASE}` };
    account = await issueAccountAt(env.MONGODB_URI, env, { name: 'Store faults', plan: 'enterprise' });
    api = await startApiProcess({
      ...env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    baseUrl = `http://127.0.0.1:${api.port}`;
  });
  afterAll(async () => {
    await api?.kill('SIGTERM');
    await ferret?.process.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = () => call<CreatedSession>(baseUrl, 'POST', '/v1/sessions', { key: key(), body: sessionBody });

  it('answers a create 503 with Retry-After while another writer holds the lock, and reads still answer', async () => {
    const existing = await create();
    expect(existing.status).toBe(201);
    const lock = await WriteLock.take(path.join(dir, `${DATABASE}.sqlite`));
    try {
      expectUnavailable(await create());
      const read = await call(baseUrl, 'GET', `/v1/sessions/${existing.json.session_id}`, { key: key() });
      expect(read.status).toBe(200); // WAL: readers do not wait for the writer
    } finally {
      await lock.release();
    }
    expect((await create()).status).toBe(201);
  });

  it('retries a create that meets a lock released within the retry budget, and creates it once', async () => {
    const lock = await WriteLock.take(path.join(dir, `${DATABASE}.sqlite`));
    const pending = create();
    // A try that meets the lock fails after about twice the busy timeout (~620 ms measured: the
    // busy handler waits at two statements), and the insert starts within ~200 ms of the request.
    // At 1 s the first try has failed, and the second (25-75 ms after it) is still waiting.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await lock.release();
    const res = await pending;
    expect(res.status).toBe(201);
    const read = await call<SessionStatus>(baseUrl, 'GET', `/v1/sessions/${res.json.session_id}`, { key: key() });
    expect(read.json.status).toBe('PENDING');
  });

  it('answers 503 with Retry-After, never 500, while the store is down, and serves again once it is back', async () => {
    const existing = (await create()).json.session_id;
    await ferret.process.stop();
    try {
      const answers = await Promise.all([
        call(baseUrl, 'GET', `/v1/sessions/${existing}`, { key: key() }),
        call(baseUrl, 'GET', `/v1/sessions/${existing}/webhooks`, { key: key() }),
        create(),
      ]);
      for (const res of answers) expectUnavailable(res);
    } finally {
      ferret = await startFerretDb(dir, port, { busyTimeoutMs: BUSY_TIMEOUT_MS });
    }
    await waitFor(
      'the API to reach the store again',
      async () => (await call(baseUrl, 'GET', `/v1/sessions/${existing}`, { key: key() })).status === 200,
      30_000,
    );
    expect((await create()).status).toBe(201);
  });
});
