import { createHash } from 'node:crypto';
import { AccountRecord, AccountRepository, ResolvedKey } from './account.repository';

/** How long a key or an account read for authentication is reused (see CachedKeyLookup). */
export const KEY_LOOKUP_TTL_MS = 2_000;
/** Entries kept at most; past it the cache starts again empty (bounded memory whatever the key traffic). */
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

/**
 * Authentication's two store reads (the key by its hash, then its account), reused for 2 s. Every
 * keyed request made both: at 16 clients they were 2 of the ~4.5 store round trips of a request,
 * and the driver's work per round trip was the largest share of the API's CPU (bench:load's
 * profile, benchmarks/load/README.md). A key's expiry is still checked against the clock on each
 * request, so a rotation's grace period ends on time; what may lag by up to 2 s in a running API
 * is a change made by another process: a key retired at once, a plan or watchlist switched.
 * Unknown keys are never cached (each one reads the store, as before). Misses for the same key
 * share one read. Keys are held by their SHA-256, never as sent.
 */
export class CachedKeyLookup {
  private readonly keys = new Map<string, Entry<{ key: ResolvedKey; expiresAt: Date | null } | null>>();
  private readonly accounts = new Map<string, Entry<AccountRecord | null>>();

  constructor(
    private readonly store: Pick<AccountRepository, 'keyRecord' | 'find'>,
    private readonly ttlMs = KEY_LOOKUP_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  async resolveKey(key: string, now: Date): Promise<ResolvedKey | null> {
    const hash = createHash('sha256').update(key, 'utf8').digest('hex');
    const record = await this.reuse(this.keys, hash, () => this.store.keyRecord(key));
    return record && (record.expiresAt === null || record.expiresAt > now) ? record.key : null;
  }

  find(accountId: string): Promise<AccountRecord | null> {
    return this.reuse(this.accounts, accountId, () => this.store.find(accountId));
  }

  private async reuse<T>(entries: Map<string, Entry<T | null>>, id: string, read: () => Promise<T | null>) {
    const now = this.clock();
    const cached = entries.get(id);
    if (cached && now - cached.at < this.ttlMs) return cached.value;
    if (entries.size >= MAX_ENTRIES) entries.clear();
    const value = read();
    entries.set(id, { at: now, value });
    const forget = () => void (entries.get(id)?.value === value && entries.delete(id));
    try {
      const found = await value;
      // Only what exists is reused: an unknown id (a typo, a probe) reads the store each time.
      if (found === null) forget();
      return found;
    } catch (error) {
      forget();
      throw error;
    }
  }
}
