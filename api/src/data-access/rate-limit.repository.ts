import { Redis } from 'ioredis';
import { RateLimit } from '../domain/rate-limits/plan-rate-limit';
import { generationCommands, generationKey } from './account-generation';

export interface RateLimitOutcome {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1 while it runs). */
  resetSeconds: number;
}

/** A request counted (outcome) or, when the caller's cached generation was stale, not (null). */
export interface GatedOutcome {
  generation: string;
  outcome: RateLimitOutcome | null;
}

/**
 * Per-key request counters in Redis (an atomic INCR + PEXPIRE per request in a fixed window, one
 * Lua script), so every API process draws on one count. Counter keys carry the key's id (a hash
 * prefix), never the key. The same script reads the accounts' generation (account-generation.ts),
 * so a request served from the credential cache costs one Redis round trip and no store read.
 */
export class RateLimitRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async consume(keyId: string, limit: RateLimit): Promise<RateLimitOutcome> {
    const { outcome } = await this.gate('', keyId, limit);
    return outcome as RateLimitOutcome;
  }

  /** Counts the request only if the accounts' generation is still `cached`; answers the generation either way. */
  consumeIfCurrent(cached: string, keyId: string, limit: RateLimit): Promise<GatedOutcome> {
    return this.gate(cached, keyId, limit);
  }

  /** The accounts' generation, read before a store read whose result will be cached under it. */
  async generation(): Promise<string> {
    this.requireReady();
    return String(await generationCommands(this.redis).bvAccountsRead(generationKey(this.prefix)));
  }

  private async gate(cached: string, keyId: string, limit: RateLimit): Promise<GatedOutcome> {
    this.requireReady();
    const counter = `${this.prefix}:ratelimit:${limit.name}.${limit.points}.${limit.windowSeconds}:${keyId}`;
    const reply = await generationCommands(this.redis).bvAccountsGate(
      generationKey(this.prefix),
      counter,
      cached,
      limit.windowSeconds,
    );
    const generation = String(reply[0]);
    if (reply.length < 3) return { generation, outcome: null };
    const consumed = Number(reply[1]);
    const msBeforeNext = Number(reply[2]);
    return {
      generation,
      outcome: {
        allowed: consumed <= limit.points,
        limit: limit.points,
        remaining: Math.max(0, limit.points - consumed),
        resetSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
      },
    };
  }

  /** The shared connection waits for Redis forever (BullMQ needs that); a request must not. */
  private requireReady(): void {
    if (this.redis.status !== 'ready') throw new Error('Redis connection is not ready');
  }
}
