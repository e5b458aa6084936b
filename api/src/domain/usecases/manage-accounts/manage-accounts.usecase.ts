import { AppError } from '../../../shared/app-error';
import { Clock } from '../../../shared/clock';
import { newAccountId } from '../../../shared/random-id';
import { Environment } from '../../environment';
import { AccountAdmin } from '../../ports/account-store';
import { PLANS } from '../get-price/get-price.usecase';
import { newApiKey, newWebhookSecret } from './issue-credentials';

interface Deps {
  accounts: AccountAdmin;
  clock: Clock;
}

/** Issues an account with one key per environment and a webhook secret, each shown only here. */
export async function createAccount(deps: Deps, input: { name: string; plan: string; watchlist: boolean }) {
  if (!input.name.trim())
    throw new AppError('VALIDATION_ERROR', 'The account needs a name.', [
      { field: 'name', message: 'must not be empty' },
    ]);
  if (!PLANS.includes(input.plan)) {
    throw new AppError('VALIDATION_ERROR', `Unknown plan; choose one of ${PLANS.join(', ')}.`, [
      { field: 'plan', message: 'unknown plan' },
    ]);
  }
  const now = deps.clock.now();
  const accountId = newAccountId();
  const sandboxKey = newApiKey('sandbox');
  const liveKey = newApiKey('production');
  const webhookSecret = newWebhookSecret();
  await deps.accounts.create(
    { accountId, name: input.name.trim(), plan: input.plan, watchlist: input.watchlist, webhookSecret },
    now,
  );
  await deps.accounts.addKey(accountId, 'sandbox', sandboxKey, now);
  await deps.accounts.addKey(accountId, 'production', liveKey, now);
  return {
    account_id: accountId,
    sandbox_api_key: sandboxKey,
    live_api_key: liveKey,
    webhook_secret: webhookSecret,
  };
}

/**
 * Issues a new key and retires the old ones after `graceHours` (0: at once), so an integrator can
 * roll the new key out before the old one stops working.
 */
export async function rotateApiKey(deps: Deps, accountId: string, environment: Environment, graceHours: number) {
  await requireAccount(deps.accounts, accountId);
  const now = deps.clock.now();
  const key = newApiKey(environment);
  await deps.accounts.addKey(accountId, environment, key, now);
  const oldKeysExpireAt = new Date(now.getTime() + graceHours * 3_600_000);
  const retired = await deps.accounts.expireKeys(accountId, environment, oldKeysExpireAt, key);
  const field = environment === 'sandbox' ? 'sandbox_api_key' : 'live_api_key';
  return {
    account_id: accountId,
    [field]: key,
    retired_keys: retired,
    old_keys_expire_at: oldKeysExpireAt.toISOString(),
  };
}

export async function rotateWebhookSecret(deps: Deps, accountId: string) {
  await requireAccount(deps.accounts, accountId);
  const webhookSecret = newWebhookSecret();
  await deps.accounts.replaceWebhookSecret(accountId, webhookSecret);
  return { account_id: accountId, webhook_secret: webhookSecret };
}

async function requireAccount(accounts: AccountAdmin, accountId: string) {
  if (!(await accounts.find(accountId))) throw AppError.notFound('account');
}
