import { Writable } from 'node:stream';
import { AccountRepository } from '../../src/data-access/account.repository';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { loadConfig, AppConfig } from '../../src/config/env';
import { startApi, RunningApi } from '../../src/entry-points/http/http-server';
import { createAccount } from '../../src/domain/usecases/manage-accounts/manage-accounts.usecase';
import { systemClock } from '../../src/shared/clock';
import { createLogger } from '../../src/shared/logger';
import { SecretBox } from '../../src/shared/secret-box';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';

export interface IssuedAccount {
  account_id: string;
  sandbox_api_key: string;
  live_api_key: string;
  webhook_secret: string;
}

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
  const env = { ...isolatedTestEnv(), PORT: '0', LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', NODE_ENV: 'test', ...overrides };
  const config = loadConfig(env);
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const api: RunningApi = await startApi(config, createLogger('info', {}, sink));
  const baseUrl = `http://127.0.0.1:${api.port}`;
  const store = await connectMongo(config.MONGODB_URI);
  const accounts = new AccountRepository(store, new SecretBox(config.SECRET_ENCRYPTION_KEY));
  return {
    baseUrl,
    config,
    logLines,
    createAccount: (options = {}) =>
      createAccount({ accounts, clock: systemClock }, { name: 'Test account', plan: options.plan ?? 'starter', watchlist: options.watchlist ?? false }),
    async stop() {
      await api.stop();
      await store.dropDatabase().catch(() => undefined);
      await store.close();
    },
  };
}
