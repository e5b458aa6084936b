import { createHash } from 'node:crypto';
import { Environment } from '../domain/environment';
import { AccountRecord } from '../domain/ports/account-store';

/** What authentication needs of a key and its account, as read from the store. */
export interface CredentialEntry {
  keyId: string;
  accountId: string;
  environment: Environment;
  /** When the key stops working (a rotation's grace period), or null: checked on every request. */
  expiresAt: Date | null;
  account: Pick<AccountRecord, 'watchlist' | 'plan' | 'planChanges'>;
}

export interface CachedCredential extends CredentialEntry {
  /** The accounts' generation read before the store read: the entry is good while Redis still holds it. */
  generation: string;
  cachedAtMs: number;
}

/**
 * Resolved keys and their accounts, process-local, least recently used first out. An entry is
 * served only after the caller has checked its generation against Redis; the age bound only
 * limits the damage if an announcement was lost (the admin command then fails and says so).
 * Entries are keyed by the key's hash: no API key is kept in memory.
 */
export class CredentialCache {
  private readonly entries = new Map<string, CachedCredential>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxAgeMs = 60_000,
    private readonly nowMs: () => number = Date.now,
  ) {}

  get(key: string): CachedCredential | undefined {
    const id = hashOf(key);
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    if (this.nowMs() - entry.cachedAtMs > this.maxAgeMs) return undefined;
    this.entries.set(id, entry); // most recently used last
    return entry;
  }

  set(key: string, entry: CredentialEntry, generation: string): void {
    const id = hashOf(key);
    this.entries.delete(id);
    this.entries.set(id, { ...entry, generation, cachedAtMs: this.nowMs() });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(hashOf(key));
  }

  /** Redis could not vouch for any entry (it was away): start again from the store. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

const hashOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
