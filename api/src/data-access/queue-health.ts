import { Redis } from 'ioredis';
import { withTimeout } from './with-timeout';

const CHECK_TIMEOUT_MS = 1_500;
/** How long a good answer is trusted: short, so an outage is noticed within a couple of requests. */
const CACHE_OK_MS = 2_000;

/**
 * BullMQ keeps jobs in ordinary keys: under any eviction policy but noeviction, memory pressure
 * silently deletes queued deliveries. INFO is used rather than CONFIG GET because managed Redis
 * services often disable CONFIG.
 */
export async function checkQueueRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') throw new Error(`redis is not connected (${redis.status})`);
  const info = await withTimeout(redis.info('memory'), CHECK_TIMEOUT_MS, 'redis INFO');
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (policy !== 'noeviction') {
    throw new Error(
      `redis maxmemory-policy is ${policy ?? 'unknown'}; it must be noeviction or queued jobs can be evicted`,
    );
  }
}

/** Caches a passing check briefly so every transition does not cost a round trip; failures are never cached. */
export class QueueHealth {
  private okUntil = 0;

  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
  ) {}

  async check(): Promise<void> {
    if (this.redis.status === 'ready' && this.now() < this.okUntil) return;
    this.okUntil = 0;
    await checkQueueRedis(this.redis);
    this.okUntil = this.now() + CACHE_OK_MS;
  }
}
