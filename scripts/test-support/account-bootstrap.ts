import { Connection } from 'mongoose';
import { accountsOn, composeAdminStores } from '../../api/src/compose-stores';
import { createAccount } from '../../api/src/domain/usecases/manage-accounts/manage-accounts.usecase';
import { systemClock } from '../../api/src/shared/clock';
import { VaultKeys } from '../../api/src/data-access/open-vault';

export interface IssuedAccount {
  account_id: string;
  sandbox_api_key: string;
  live_api_key: string;
  webhook_secret: string;
}

/** The stack's environment (or config): the vault's keys are read from it. */
export type StoreKeys = { [K in keyof VaultKeys]?: string | undefined };

export interface AccountRequest {
  name: string;
  /** starter unless told. */
  plan?: string;
  watchlist?: boolean;
}

/**
 * Issues an account straight into the store through the same use case as `npm run admin --
 * accounts create`: one key per environment and a webhook secret, shown only here. Every test and
 * benchmark bootstraps its accounts through this file (the dependency-cruiser rule
 * accounts-through-the-bootstrap refuses another copy).
 */
export async function issueAccount(
  store: Connection,
  keys: StoreKeys,
  request: AccountRequest,
): Promise<IssuedAccount> {
  if (!keys.PII_MASTER_KEYS)
    throw new Error('issuing an account needs PII_MASTER_KEYS: its webhook secret is sealed by the vault');
  const { accounts } = await accountsOn(store, keys);
  return createAccount(
    { accounts, clock: systemClock },
    { name: request.name, plan: request.plan ?? 'starter', watchlist: request.watchlist ?? false },
  );
}

/** The same for a caller that holds no connection: one of its own, closed before this returns. */
export async function issueAccountAt(
  mongoUri: string,
  keys: StoreKeys,
  request: AccountRequest,
): Promise<IssuedAccount> {
  const stores = await composeAdminStores({ ...keys, MONGODB_URI: mongoUri });
  try {
    return await issueAccount(stores.mongo, keys, request);
  } finally {
    await stores.close();
  }
}
