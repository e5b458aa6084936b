import { AccountRecord } from '../domain/ports/account-store';
import { StoredKey } from './account.repository';
import { CachedAuthentication } from './cached-authentication';
import { CredentialCache } from './credential-cache';
import { GatedOutcome } from './rate-limit.repository';

const KEY = 'vk_sand_0123456789abcdef0123456789abcdef';
const NOW = new Date('2026-11-27T12:00:00Z');
const COUNTED = { allowed: true, limit: 100, remaining: 99, resetSeconds: 60 };

/** The store and Redis behind their ports, with every call recorded. */
function world() {
  const calls: string[] = [];
  const state = {
    generation: '7',
    redisUp: true,
    key: { keyId: 'k1', accountId: 'acct_1', environment: 'sandbox', expiresAt: null } as StoredKey | null,
    account: { accountId: 'acct_1', name: 'A', plan: 'starter', watchlist: false, planChanges: [] } as AccountRecord,
  };
  const accounts = {
    findKey: (): Promise<StoredKey | null> => {
      calls.push('store.key');
      return Promise.resolve(state.key && { ...state.key });
    },
    find: (): Promise<AccountRecord | null> => {
      calls.push('store.account');
      return Promise.resolve({ ...state.account });
    },
  };
  const rateLimits = {
    consumeIfCurrent: (cached: string): Promise<GatedOutcome> => {
      calls.push(`redis.gate@${cached}`);
      if (!state.redisUp) return Promise.reject(new Error('Redis connection is not ready'));
      return Promise.resolve({ generation: state.generation, outcome: cached === state.generation ? COUNTED : null });
    },
    generation: (): Promise<string> => {
      calls.push('redis.generation');
      return state.redisUp
        ? Promise.resolve(state.generation)
        : Promise.reject(new Error('Redis connection is not ready'));
    },
  };
  const cache = new CredentialCache();
  const auth = new CachedAuthentication({ accounts, rateLimits, cache });
  const takeCalls = () => calls.splice(0);
  return { state, auth, cache, takeCalls };
}

describe('authentication through the credential cache', () => {
  it('reads the generation before the store on a miss, then serves the key from one Redis call that also counts it', async () => {
    const { auth, takeCalls } = world();
    const first = await auth.authenticate(KEY, NOW);
    expect(first).toEqual({
      tenant: { keyId: 'k1', accountId: 'acct_1', environment: 'sandbox', watchlist: false, plan: 'starter' },
      counted: null,
    });
    expect(takeCalls()).toEqual(['redis.generation', 'store.key', 'store.account']);
    const second = await auth.authenticate(KEY, NOW);
    expect(second?.counted).toEqual(COUNTED);
    expect(takeCalls()).toEqual(['redis.gate@7']);
  });

  it('reads the store again once the generation moved, and sees the change (an account moved to another plan)', async () => {
    const { state, auth, takeCalls } = world();
    await auth.authenticate(KEY, NOW);
    state.account.plan = 'growth';
    state.generation = '8';
    takeCalls();
    const after = await auth.authenticate(KEY, NOW);
    expect([after?.tenant.plan, after?.counted]).toEqual(['growth', null]);
    expect(takeCalls()).toEqual(['redis.gate@7', 'store.key', 'store.account']);
    expect((await auth.authenticate(KEY, NOW))?.counted).toEqual(COUNTED);
    expect(takeCalls()).toEqual(['redis.gate@8']);
  });

  it('refuses a key retired without a grace period as soon as the generation moves, though it was cached', async () => {
    const { state, auth } = world();
    expect(await auth.authenticate(KEY, NOW)).not.toBeNull();
    state.key = { ...(state.key as StoredKey), expiresAt: NOW };
    state.generation = '8';
    expect(await auth.authenticate(KEY, NOW)).toBeNull();
  });

  it('stops a cached key at the end of its grace period by the clock alone, with no store or Redis call', async () => {
    const { state, auth, takeCalls } = world();
    const end = new Date(NOW.getTime() + 3_600_000);
    state.key = { ...(state.key as StoredKey), expiresAt: end };
    await auth.authenticate(KEY, NOW);
    takeCalls();
    expect(await auth.authenticate(KEY, new Date(end.getTime() - 1))).not.toBeNull();
    expect(await auth.authenticate(KEY, end)).toBeNull();
    expect(takeCalls()).toEqual(['redis.gate@7']);
  });

  it('applies a plan change scheduled in the cached account when its time comes, without a store read', async () => {
    const { state, auth } = world();
    const from = new Date(NOW.getTime() + 1_000);
    state.account.planChanges = [{ plan: 'scale', effective_from: from }];
    expect((await auth.authenticate(KEY, NOW))?.tenant.plan).toBe('starter');
    expect((await auth.authenticate(KEY, from))?.tenant.plan).toBe('scale');
  });

  it('reads the store on every request and caches nothing while Redis is away, and drops what it had cached', async () => {
    const { state, auth, cache, takeCalls } = world();
    await auth.authenticate(KEY, NOW);
    expect(cache.size).toBe(1);
    state.redisUp = false;
    takeCalls();
    expect((await auth.authenticate(KEY, NOW))?.counted).toBeNull();
    expect(await auth.authenticate(KEY, NOW)).not.toBeNull();
    expect(takeCalls()).toEqual([
      'redis.gate@7',
      'store.key',
      'store.account',
      'redis.generation',
      'store.key',
      'store.account',
    ]);
    expect(cache.size).toBe(0);
  });

  it('caches no unknown key', async () => {
    const { state, auth, cache } = world();
    state.key = null;
    expect(await auth.authenticate(KEY, NOW)).toBeNull();
    expect(cache.size).toBe(0);
  });
});

describe('the credential cache', () => {
  const entry = {
    keyId: 'k',
    accountId: 'a',
    environment: 'sandbox' as const,
    expiresAt: null,
    account: { watchlist: false, plan: 'starter' },
  };

  it('keeps at most its size, dropping the least recently used first', () => {
    const cache = new CredentialCache(2);
    cache.set('one', entry, '1');
    cache.set('two', entry, '1');
    cache.get('one');
    cache.set('three', entry, '1');
    expect([cache.get('one') !== undefined, cache.get('two') !== undefined, cache.get('three') !== undefined]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('forgets an entry older than its age bound', () => {
    let now = 0;
    const cache = new CredentialCache(10, 1_000, () => now);
    cache.set('one', entry, '1');
    now = 1_000;
    expect(cache.get('one')?.generation).toBe('1');
    now = 1_001;
    expect(cache.get('one')).toBeUndefined();
  });
});
