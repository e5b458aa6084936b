import { Redis } from 'ioredis';
import { generationKey, RedisAccountChanges } from '../src/data-access/account-generation';
import { RateLimitRepository } from '../src/data-access/rate-limit.repository';
import { isolatedTestEnv } from '../../scripts/test-support/test-env';

const LIMIT = { name: 'starter.sandbox', points: 2, windowSeconds: 60 };

/** The accounts' generation and the rate counter: the Lua scripts on the suite's real Redis. */
describe('the accounts generation in Redis', () => {
  const env = isolatedTestEnv();
  let redis: Redis;
  let limits: RateLimitRepository;
  let changes: RedisAccountChanges;

  beforeAll(async () => {
    redis = new Redis(env.REDIS_URL);
    await new Promise((resolve) => redis.once('ready', resolve));
    limits = new RateLimitRepository(redis, env.REDIS_PREFIX);
    changes = new RedisAccountChanges(redis, env.REDIS_PREFIX);
  });
  afterAll(() => redis.disconnect());

  it('counts a request only while the caller cached under the current generation, and names the new one after a change', async () => {
    const before = await limits.generation();
    const current = await limits.consumeIfCurrent(before, 'key-a', LIMIT);
    expect(current).toEqual({
      generation: before,
      outcome: { allowed: true, limit: 2, remaining: 1, resetSeconds: 60 },
    });
    await changes.announce();
    const stale = await limits.consumeIfCurrent(before, 'key-a', LIMIT);
    expect(stale.outcome).toBeNull();
    expect(BigInt(stale.generation)).toBe(BigInt(before) + 1n);
    // The stale call counted nothing: the next counted request is the second of the window.
    expect((await limits.consume('key-a', LIMIT)).remaining).toBe(0);
  });

  it('refuses past the limit in the window, with the time left, as rate-limiter-flexible did on the same counter', async () => {
    await limits.consume('key-b', LIMIT);
    await limits.consume('key-b', LIMIT);
    const over = await limits.consume('key-b', LIMIT);
    expect(over).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 60 });
    const ttl = await redis.pttl(`${env.REDIS_PREFIX}:ratelimit:starter.sandbox.2.60:key-b`);
    expect(ttl).toBeGreaterThan(58_000);
    expect(await redis.get(`${env.REDIS_PREFIX}:ratelimit:starter.sandbox.2.60:key-b`)).toBe('3');
  });

  it('restarts a lost generation from the server clock, so no value seen before the loss comes back', async () => {
    const before = await limits.generation();
    await redis.del(generationKey(env.REDIS_PREFIX));
    const restarted = await limits.generation();
    expect(BigInt(restarted)).toBeGreaterThan(BigInt(before));
    const [seconds] = await redis.time();
    expect(Number(BigInt(restarted) / 1_000_000n)).toBeCloseTo(Number(seconds), -1);
  });

  it('refuses to count on a connection that is not ready, instead of waiting for Redis', async () => {
    const offline = new Redis(env.REDIS_URL, { lazyConnect: true });
    await expect(new RateLimitRepository(offline, env.REDIS_PREFIX).consume('key-c', LIMIT)).rejects.toThrow(
      'Redis connection is not ready',
    );
    offline.disconnect();
  });
});
