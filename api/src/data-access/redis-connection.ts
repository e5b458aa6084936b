import { Redis } from 'ioredis';

/**
 * BullMQ needs maxRetriesPerRequest null on its connections; the API's own commands (usage counters,
 * readiness) share the same settings so a Redis restart is ridden out rather than crashing callers.
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}

export async function pingRedis(redis: Redis): Promise<void> {
  const answer = await Promise.race([
    redis.ping(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('redis ping timed out')), 2_000)),
  ]);
  if (answer !== 'PONG') throw new Error(`unexpected redis ping answer: ${answer}`);
}
