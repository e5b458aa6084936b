import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { CaptureWriteLimit } from '../domain/ports/capture-stores';

/** A capture lives a few hours at most; the count outlives it comfortably and then goes. */
const COUNT_KEPT_SECONDS = 7 * 24 * 3600;

/**
 * Counts capture writes per session attempt in Redis through rate-limiter-flexible (the library
 * behind the API's per-key limits), atomic across API processes, so a session takes at most
 * CAPTURE_MAX_WRITES uploads however many processes serve it. The key is the one the hand-written
 * counter used (`<prefix>:capture-writes:<session>:<attempt>`), so counts survive the change.
 * Only ids and counts are stored here, never images.
 */
export class CaptureWriteLimiter implements CaptureWriteLimit {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: Redis,
    prefix: string,
    readonly limit: number,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}:capture-writes`,
      points: limit,
      duration: COUNT_KEPT_SECONDS,
    });
  }

  /** Counts this write; true while the session is within its limit. */
  async allow(sessionId: string, attempt: number): Promise<boolean> {
    try {
      await this.limiter.consume(`${sessionId}:${attempt}`);
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return false;
      throw rejection;
    }
  }
}
