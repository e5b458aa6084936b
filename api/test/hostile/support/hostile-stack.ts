import { readFileSync } from 'node:fs';
import { Connection } from 'mongoose';
import { issueAccount, IssuedAccount } from '../../../../scripts/test-support/account-bootstrap';
import { ServiceProcess, startApiProcess } from '../../../../scripts/test-support/service-process';
import { isolatedTestEnv } from '../../../../scripts/test-support/test-env';
import { countCaptureBlobs } from '../../../src/data-access/capture-blob.repository';
import { connectMongo } from '../../../src/data-access/mongo-connection';

/** Deadlines shrunk so each hostile case ends in seconds (production defaults are in api/README.md). */
export const SHORT_DEADLINES = {
  HTTP_HEADERS_TIMEOUT_SECONDS: '2',
  HTTP_REQUEST_TIMEOUT_SECONDS: '3',
  HTTP_RESPONSE_TIMEOUT_SECONDS: '5',
};

/**
 * The real API as its own process (a crash shows as an exit, and its memory can be read from
 * /proc), over the suite's FerretDB and Redis, with one account. No inference service: every
 * hostile case must be refused before a check would run, and a test that reaches one gets a 503.
 */
export class HostileStack {
  private constructor(
    readonly api: ServiceProcess,
    readonly account: IssuedAccount,
    readonly store: Connection,
    readonly env: Record<string, string>,
  ) {}

  static async start(overrides: Record<string, string> = {}): Promise<HostileStack> {
    const env = {
      ...isolatedTestEnv(),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      ...SHORT_DEADLINES,
      ...overrides,
    };
    const store = await connectMongo(env.MONGODB_URI);
    const account = await issueAccount(store, env, { name: 'Hostile clients' });
    const api = await startApiProcess(env, undefined, 'api-hostile');
    return new HostileStack(api, account, store, env);
  }

  get port(): number {
    return this.api.port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.api.port}`;
  }

  /** Whether the API process is still alive. */
  get alive(): boolean {
    return this.api.child.exitCode === null && this.api.child.signalCode === null;
  }

  /** The API process's resident memory in MiB (VmRSS). */
  rssMiB(): number {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${this.api.child.pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  }

  /** A session and its started capture: the id and the capture token a device would hold. */
  async capture(): Promise<{ id: string; token: string }> {
    const created = await fetch(`${this.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.account.sandbox_api_key },
      body: JSON.stringify({
        return_url: 'https://example.com/done',
        webhook_url: 'http://127.0.0.1:9/hook',
        expected_name: 'Jane Doe',
      }),
    });
    const { session_id: id } = (await created.json()) as { session_id: string };
    const started = await fetch(`${this.baseUrl}/v1/capture/${id}/start`, { method: 'POST' });
    const { capture_token: token } = (await started.json()) as { capture_token: string };
    if (!id || !token) throw new Error(`could not open a capture (${created.status}, ${started.status})`);
    return { id, token };
  }

  /** The API still serves: a session read with the key answers 200. */
  async serves(id: string): Promise<boolean> {
    const res = await fetch(`${this.baseUrl}/v1/sessions/${id}`, {
      headers: { 'x-api-key': this.account.sandbox_api_key },
      signal: AbortSignal.timeout(5_000),
    });
    return res.status === 200;
  }

  storedBlobs(): Promise<number> {
    return countCaptureBlobs(this.store);
  }

  async stop(): Promise<void> {
    await this.api.kill('SIGTERM');
    await this.store.dropDatabase().catch(() => undefined);
    await this.store.close();
  }
}
