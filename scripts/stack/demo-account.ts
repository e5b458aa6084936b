import { existsSync, writeFileSync } from 'node:fs';
import { composeAdminStores } from '../../api/src/compose-stores';
import { createAccount } from '../../api/src/domain/usecases/manage-accounts/manage-accounts.usecase';
import { systemClock } from '../../api/src/shared/clock';
import { VaultKeys } from '../../api/src/data-access/open-vault';

/**
 * On a first start with an empty store, issues a demo account, saves its keys (0600) and prints
 * them once with a ready-to-paste curl. Later starts only say where the keys are.
 */
export async function ensureDemoAccount(
  mongoUri: string,
  keys: VaultKeys,
  savePath: string,
  baseUrl: string,
): Promise<void> {
  const stores = await composeAdminStores({ MONGODB_URI: mongoUri, ...keys });
  try {
    const { accounts } = stores;
    if ((await accounts.count()) > 0) {
      if (existsSync(savePath)) console.log(`\nDemo account keys: ${savePath}`);
      return;
    }
    const created = await createAccount(
      { accounts, clock: systemClock },
      { name: 'Local demo', plan: 'starter', watchlist: false },
    );
    writeFileSync(savePath, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
    console.log(`
Created a local demo account (shown once; saved to ${savePath}):
  account_id       ${created.account_id}
  sandbox_api_key  ${created.sandbox_api_key}
  live_api_key     ${created.live_api_key}
  webhook_secret   ${created.webhook_secret}

Create a session:
  curl -s -X POST ${baseUrl}/v1/sessions \\
    -H 'X-Api-Key: ${created.sandbox_api_key}' -H 'Content-Type: application/json' \\
    -d '{"return_url":"https://example.com/done","webhook_url":"http://127.0.0.1:9999/webhook","expected_name":"Jane Doe","metadata":{"order":"42"}}'
`);
  } finally {
    await stores.close();
  }
}
