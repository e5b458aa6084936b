import { composeStores, ProcessStores } from '../../../src/compose-stores';
import { loadConfig } from '../../../src/config/env';
import { createLogger } from '../../../src/shared/logger';

/**
 * The repositories the API and worker stand on (built by the same composition root), opened on a
 * test stack's environment, for tests that set an account's billing and retention or bill a
 * decision directly. Accounts themselves come from scripts/test-support/account-bootstrap.ts.
 */
export function openStores(env: Record<string, string>): Promise<ProcessStores> {
  return composeStores(loadConfig(env), createLogger('silent'));
}
