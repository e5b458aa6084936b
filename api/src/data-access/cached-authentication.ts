import { Tenant } from '../domain/environment';
import { AccountRecord } from '../domain/ports/account-store';
import { planAt } from '../domain/pricing/plan-at';
import { rateLimitFor } from '../domain/rate-limits/plan-rate-limit';
import { StoredKey } from './account.repository';
import { CachedCredential, CredentialCache, CredentialEntry } from './credential-cache';
import { GatedOutcome, RateLimitOutcome } from './rate-limit.repository';

export interface Authenticated {
  tenant: Tenant;
  /** The request already counted against the rate limit (a cache hit is checked and counted in one Redis call), or null. */
  counted: RateLimitOutcome | null;
}

interface Deps {
  accounts: { findKey(key: string): Promise<StoredKey | null>; find(accountId: string): Promise<AccountRecord | null> };
  rateLimits: {
    consumeIfCurrent(cached: string, keyId: string, limit: ReturnType<typeof rateLimitFor>): Promise<GatedOutcome>;
    generation(): Promise<string>;
  };
  cache: CredentialCache;
}

/**
 * API key → tenant, with the key and its account cached in the process. A cached entry is used
 * only if the accounts' generation in Redis is still the one it was read under, checked in the
 * rate limiter's own Redis call: a hit costs that one call and no store read. On a miss or a stale
 * entry the generation is read first and the store second, so an entry can only be tagged with a
 * generation at or before the one its store read saw (writers store, then advance). Without Redis
 * nothing is cached or served from the cache. A key's expiry is checked against the clock on every
 * request; it never comes back once passed, so an expired entry answers without Redis.
 */
export class CachedAuthentication {
  constructor(private readonly deps: Deps) {}

  async authenticate(key: string, now: Date): Promise<Authenticated | null> {
    const cached = this.deps.cache.get(key);
    if (cached && expired(cached, now)) return null;
    let generation: string | null;
    try {
      if (cached) {
        const tenant = tenantOf(cached, now);
        const gated = await this.deps.rateLimits.consumeIfCurrent(
          cached.generation,
          tenant.keyId,
          rateLimitFor(tenant),
        );
        if (gated.outcome) return { tenant, counted: gated.outcome };
        generation = gated.generation;
      } else {
        generation = await this.deps.rateLimits.generation();
      }
    } catch {
      // Redis is away (the rate limiter logs it next): nothing cached can be vouched for.
      this.deps.cache.clear();
      generation = null;
    }
    return this.fromStore(key, now, generation);
  }

  private async fromStore(key: string, now: Date, generation: string | null): Promise<Authenticated | null> {
    const stored = await this.deps.accounts.findKey(key);
    const account = stored ? await this.deps.accounts.find(stored.accountId) : null;
    if (!stored || !account) {
      this.deps.cache.delete(key);
      return null;
    }
    const entry: CredentialEntry = {
      ...stored,
      account: { watchlist: account.watchlist, plan: account.plan, planChanges: account.planChanges },
    };
    if (generation === null) this.deps.cache.delete(key);
    else this.deps.cache.set(key, entry, generation);
    return expired(entry, now) ? null : { tenant: tenantOf(entry, now), counted: null };
  }
}

const expired = (entry: CredentialEntry, now: Date): boolean =>
  entry.expiresAt !== null && entry.expiresAt.getTime() <= now.getTime();

function tenantOf(entry: CredentialEntry | CachedCredential, now: Date): Tenant {
  return {
    keyId: entry.keyId,
    accountId: entry.accountId,
    environment: entry.environment,
    watchlist: entry.account.watchlist,
    plan: planAt(entry.account, now),
  };
}
