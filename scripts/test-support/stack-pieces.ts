import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ManagedProcess } from '../stack/child-process';
import { FerretDbOptions, startFerretDb } from '../stack/ferretdb';
import { startRedis } from '../stack/redis';

/** What an API or worker process needs to reach the pieces, with fresh encryption keys. */
export interface StackEnv {
  MONGODB_URI: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  SECRET_ENCRYPTION_KEY: string;
  CAPTURE_ENCRYPTION_KEY: string;
  PII_MASTER_KEYS: string;
}

export interface StackPieces {
  env: StackEnv;
  /** The server processes, for callers that read their CPU or memory. */
  ferretdb: ManagedProcess;
  redis: ManagedProcess;
  /** Redis first, then FerretDB; resolves once both have exited. */
  stop(): Promise<void>;
}

/**
 * A FerretDB and a Redis of the caller's own under `stateDir` (for benchmarks, which must not share
 * the test suite's or the local stack's servers), in database `database` with key prefix `prefix`.
 * Tests use the servers of the jest global setup instead (test-env.ts).
 */
export async function startStackPieces(
  stateDir: string,
  names: { database: string; prefix: string },
  ferretDb: FerretDbOptions = {},
): Promise<StackPieces> {
  const ferret = await startFerretDb(path.join(stateDir, 'ferretdb'), undefined, ferretDb);
  const redis = await startRedis(path.join(stateDir, 'redis')).catch(async (error: unknown) => {
    await ferret.process.stop();
    throw error;
  });
  return {
    env: {
      MONGODB_URI: `${ferret.uri}${names.database}`,
      REDIS_URL: redis.url,
      REDIS_PREFIX: names.prefix,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CAPTURE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PII_MASTER_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    },
    ferretdb: ferret.process,
    redis: redis.process,
    async stop() {
      await redis.process.stop();
      await ferret.process.stop();
    },
  };
}
