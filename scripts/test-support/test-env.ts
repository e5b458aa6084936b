import { randomBytes } from 'node:crypto';

/**
 * Base addresses of the suite's servers, with a database name and Redis prefix unique to the
 * calling test file, so files never see each other's data or the local stack's.
 */
export function isolatedTestEnv(): {
  MONGODB_URI: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  SECRET_ENCRYPTION_KEY: string;
  CAPTURE_ENCRYPTION_KEY: string;
  PII_MASTER_KEYS: string;
} {
  const base = process.env.TEST_MONGODB_URI;
  const redis = process.env.TEST_REDIS_URL;
  if (!base || !redis) throw new Error('the jest global setup did not run (TEST_MONGODB_URI / TEST_REDIS_URL unset)');
  const suffix = randomBytes(6).toString('hex');
  const url = new URL(base);
  url.pathname = `/bv_test_${suffix}`;
  return {
    MONGODB_URI: url.toString(),
    REDIS_URL: redis,
    REDIS_PREFIX: `test-${suffix}`,
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CAPTURE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PII_MASTER_KEYS: `test-${suffix}:${randomBytes(32).toString('base64')}`,
  };
}
