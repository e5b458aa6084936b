import { Writable } from 'node:stream';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { loadConfig, AppConfig } from '../../src/config/env';
import { startApi, RunningApi } from '../../src/entry-points/http/http-server';
import { createLogger } from '../../src/shared/logger';
import { issueAccount, IssuedAccount } from '../../../scripts/test-support/account-bootstrap';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';

export type { IssuedAccount };

export interface TestApi {
  baseUrl: string;
  config: AppConfig;
  /** Every log line the API wrote, for redaction assertions. */
  logLines: string[];
  createAccount(options?: { watchlist?: boolean; plan?: string }): Promise<IssuedAccount>;
  stop(): Promise<void>;
}

/**
 * The real API on port 0, over the suite's real FerretDB (or MONGODB_URI) and Redis, in a
 * database and key prefix of its own.
 */
export async function startTestApi(overrides: Record<string, string> = {}): Promise<TestApi> {
  const env = {
    ...isolatedTestEnv(),
    PORT: '0',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    NODE_ENV: 'test',
    ...overrides,
  };
  const config = loadConfig(env);
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const api: RunningApi = await startApi(config, createLogger('info', {}, sink));
  const baseUrl = `http://127.0.0.1:${api.port}`;
  const store = await connectMongo(config.MONGODB_URI);
  return {
    baseUrl,
    config,
    logLines,
    createAccount: (options = {}) => issueAccount(store, config, { name: 'Test account', ...options }),
    async stop() {
      await api.stop();
      await store.dropDatabase().catch(() => undefined);
      await store.close();
    },
  };
}
