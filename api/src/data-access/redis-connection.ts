import { Redis } from 'ioredis';

/**
 * BullMQ needs maxRetriesPerRequest null on its connections; the API's own commands (usage counters,
 * readiness) share the same settings so a Redis restart is ridden out rather than crashing callers.
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}
