import { Redis } from 'ioredis';

/**
 * Counts capture writes per session attempt in Redis (one INCR, atomic across API processes), so
 * a session takes at most CAPTURE_MAX_WRITES uploads however many processes serve it. Only ids
 * and counts are stored here, never images.
 */
export class CaptureWriteLimiter {
  constructor(private readonly redis: Redis, private readonly prefix: string, readonly limit: number) {}

  /** Counts this write; true while the session is within its limit. */
  async allow(sessionId: string, attempt: number): Promise<boolean> {
    const key = `${this.prefix}:capture-writes:${sessionId}:${attempt}`;
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, 7 * 24 * 3600).exec()) as [[Error | null, number]];
    return count <= this.limit;
  }
}
