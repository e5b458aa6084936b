import type { AccountRecord, ResolvedKey } from './account.repository';
import { CachedKeyLookup } from './cached-key-lookup';

const KEY = `vk_live_${'a'.repeat(32)}`;
const resolved: ResolvedKey = { keyId: 'k1', accountId: 'acc_1', environment: 'production' };
const account = { accountId: 'acc_1', name: 'A', plan: 'enterprise' } as AccountRecord;

/** A store that counts its reads; `expiresAt` and `known` stand for the key document as stored. */
function countingStore(state: { expiresAt: Date | null; known: boolean }) {
  const reads = { keys: 0, accounts: 0 };
  return {
    reads,
    keyRecord: () => {
      reads.keys += 1;
      return Promise.resolve(state.known ? { key: resolved, expiresAt: state.expiresAt } : null);
    },
    find: () => {
      reads.accounts += 1;
      return Promise.resolve(account);
    },
  };
}

describe('the key lookup of authentication', () => {
  it('reads a key and its account once within the reuse window, and again after it', async () => {
    let now = 1_000;
    const store = countingStore({ expiresAt: null, known: true });
    const lookup = new CachedKeyLookup(store, 2_000, () => now);
    for (let i = 0; i < 5; i += 1) {
      expect(await lookup.resolveKey(KEY, new Date())).toEqual(resolved);
      expect(await lookup.find('acc_1')).toBe(account);
    }
    expect(store.reads).toEqual({ keys: 1, accounts: 1 });
    now += 2_000;
    await lookup.resolveKey(KEY, new Date());
    await lookup.find('acc_1');
    expect(store.reads).toEqual({ keys: 2, accounts: 2 });
  });

  it('shares one read among requests that miss together', async () => {
    const store = countingStore({ expiresAt: null, known: true });
    const lookup = new CachedKeyLookup(store);
    await Promise.all(Array.from({ length: 16 }, () => lookup.resolveKey(KEY, new Date())));
    expect(store.reads.keys).toBe(1);
  });

  it("still ends a rotation's grace period on time: the expiry is checked on every request", async () => {
    const expiresAt = new Date('2026-01-01T00:00:10Z');
    const store = countingStore({ expiresAt, known: true });
    const lookup = new CachedKeyLookup(store, 60_000, () => 0);
    expect(await lookup.resolveKey(KEY, new Date('2026-01-01T00:00:09Z'))).toEqual(resolved);
    expect(await lookup.resolveKey(KEY, new Date('2026-01-01T00:00:10Z'))).toBeNull();
    expect(store.reads.keys).toBe(1);
  });

  it('never reuses an unknown key: each try reads the store', async () => {
    const state = { expiresAt: null, known: false };
    const store = countingStore(state);
    const lookup = new CachedKeyLookup(store, 60_000, () => 0);
    expect(await lookup.resolveKey(KEY, new Date())).toBeNull();
    state.known = true;
    expect(await lookup.resolveKey(KEY, new Date())).toEqual(resolved);
    expect(store.reads.keys).toBe(2);
  });

  it('forgets a failed read, so the next request tries the store again', async () => {
    let fail = true;
    const store = {
      keyRecord: () =>
        fail ? Promise.reject(new Error('store down')) : Promise.resolve({ key: resolved, expiresAt: null }),
      find: () => Promise.resolve(account),
    };
    const lookup = new CachedKeyLookup(store, 60_000, () => 0);
    await expect(lookup.resolveKey(KEY, new Date())).rejects.toThrow('store down');
    fail = false;
    expect(await lookup.resolveKey(KEY, new Date())).toEqual(resolved);
  });
});
