import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimit } from '../domain/rate-limits/plan-rate-limit';

export interface RateLimitOutcome {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1 while it runs). */
  resetSeconds: number;
}

/**
 * Per-key request counters in Redis through rate-limiter-flexible (an atomic INCR + PEXPIRE per
 * request in a fixed window), so every API process draws on one count. Counter keys carry the
 * key's id (a hash prefix), never the key.
 */
export class RateLimitRepository {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async consume(keyId: string, limit: RateLimit): Promise<RateLimitOutcome> {
    try {
      return outcome(true, limit, await this.limiterFor(limit).consume(keyId));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return outcome(false, limit, rejection);
      throw rejection;
    }
  }

  private limiterFor(limit: RateLimit): RateLimiterRedis {
    const id = `${limit.name}.${limit.points}.${limit.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.prefix}:ratelimit:${id}`,
        points: limit.points,
        duration: limit.windowSeconds,
        // The shared connection waits for Redis forever (BullMQ needs that); a request must not.
        rejectIfRedisNotReady: true,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

function outcome(allowed: boolean, limit: RateLimit, res: RateLimiterRes): RateLimitOutcome {
  return {
    allowed,
    limit: limit.points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
