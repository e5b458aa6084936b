import { Redis } from 'ioredis';
import { CreationCounter } from '../domain/ports/creation-counter';

/**
 * Session creations per API key per minute (the spec: recorded against the plan, not enforced).
 * Keys hold the key's hash prefix, never the key; counters expire after two days.
 */
export class UsageRepository implements CreationCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(keyId: string, at: Date): string {
    return `${this.prefix}:usage:session-creations:${keyId}:${at.toISOString().slice(0, 16)}`;
  }

  async recordSessionCreation(keyId: string, at: Date): Promise<void> {
    const key = this.key(keyId, at);
    await this.redis
      .multi()
      .incr(key)
      .expire(key, 2 * 24 * 3600)
      .exec();
  }

  async sessionCreations(keyId: string, at: Date): Promise<number> {
    return Number((await this.redis.get(this.key(keyId, at))) ?? 0);
  }
}
