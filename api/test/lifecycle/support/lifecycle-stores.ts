import { loadConfig } from '../../../src/config/env';
import { connectStores, Stores } from '../../../src/data-access/connect-stores';
import { createLogger } from '../../../src/shared/logger';

/**
 * The repositories the API and worker stand on, opened on a test stack's environment, for tests
 * that set an account's billing and retention or bill a decision directly. Accounts themselves
 * come from scripts/test-support/account-bootstrap.ts.
 */
export async function openStores(env: Record<string, string>): Promise<Stores & { close(): Promise<void> }> {
  const stores = await connectStores(loadConfig(env), createLogger('silent'));
  return {
    ...stores,
    async close() {
      await stores.queue.close();
      stores.redis.disconnect();
      await stores.mongo.close();
    },
  };
}
