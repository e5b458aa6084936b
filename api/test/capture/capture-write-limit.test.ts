import { Redis } from 'ioredis';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';
import { CaptureWriteLimiter } from '../../src/data-access/capture-write-limiter';
import { connectRedis } from '../../src/data-access/redis-connection';

describe('the capture write limit, counted in the real Redis', () => {
  const env = isolatedTestEnv();
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis(env.REDIS_URL);
  });
  afterAll(() => redis.quit());

  it('allows a session attempt its limit of writes and refuses the next, however many API processes count them', async () => {
    const one = new CaptureWriteLimiter(redis, env.REDIS_PREFIX, 3);
    const other = new CaptureWriteLimiter(redis, env.REDIS_PREFIX, 3);
    const answers = [
      await one.allow('ses_a', 1),
      await other.allow('ses_a', 1),
      await one.allow('ses_a', 1),
      await other.allow('ses_a', 1),
    ];
    expect(answers).toEqual([true, true, true, false]);
  });

  it('counts each attempt of a session apart, so a retry starts with its full allowance', async () => {
    const limiter = new CaptureWriteLimiter(redis, env.REDIS_PREFIX, 1);
    expect([await limiter.allow('ses_b', 1), await limiter.allow('ses_b', 1), await limiter.allow('ses_b', 2)]).toEqual(
      [true, false, true],
    );
  });

  it('keeps its count where the earlier counter kept it, with an expiry, so counts made before an upgrade still hold', async () => {
    await redis.set(`${env.REDIS_PREFIX}:capture-writes:ses_c:1`, '2', 'EX', 3600);
    const limiter = new CaptureWriteLimiter(redis, env.REDIS_PREFIX, 3);
    expect([await limiter.allow('ses_c', 1), await limiter.allow('ses_c', 1)]).toEqual([true, false]);
    expect(await redis.pttl(`${env.REDIS_PREFIX}:capture-writes:ses_c:1`)).toBeGreaterThan(0);
    expect(await redis.keys(`${env.REDIS_PREFIX}:capture-writes:*`)).toEqual(
      expect.arrayContaining([`${env.REDIS_PREFIX}:capture-writes:ses_a:1`]),
    );
  });
});
