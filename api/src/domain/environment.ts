export type Environment = 'sandbox' | 'production';

export const KEY_PREFIX: Record<Environment, string> = { sandbox: 'vk_sand_', production: 'vk_live_' };

/** Who is asking: every session query is scoped by both, so no route can forget either. */
export interface Tenant {
  accountId: string;
  environment: Environment;
  /** Opaque id of the key used (a hash prefix), for usage records; never the key itself. */
  keyId: string;
  /** The account enabled the watchlist-screening add-on: results then carry checks.sanctions. */
  watchlist: boolean;
  /** The account's plan: production prices follow it. */
  plan: string;
}
