/** The store of Idempotency-Keys, as the sweep sees it: the store has no TTL index to drop old ones. */
export interface IdempotencyKeys {
  /** Drops the keys past their lifetime; how many went. */
  purgeExpired(now: Date): Promise<number>;
}
