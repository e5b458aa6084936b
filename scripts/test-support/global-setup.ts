import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFerretDb } from '../stack/ferretdb';
import { startRedis } from '../stack/redis';

/**
 * Starts the test suite's own FerretDB and Redis (never the local stack's), unless MONGODB_URI /
 * REDIS_URL point at servers to use instead. Test files then pick their own database name and key
 * prefix from these base addresses, so they never share data.
 */
export default async function globalSetup(): Promise<void> {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'bioverify-test-'));
  const stack: Array<{ stop(): Promise<void> }> = [];
  if (process.env.MONGODB_URI) {
    process.env.TEST_MONGODB_URI = process.env.MONGODB_URI;
  } else {
    const ferret = await startFerretDb(path.join(stateDir, 'ferretdb'));
    stack.push(ferret.process);
    process.env.TEST_MONGODB_URI = ferret.uri;
  }
  if (process.env.REDIS_URL) {
    process.env.TEST_REDIS_URL = process.env.REDIS_URL;
  } else {
    const redis = await startRedis(path.join(stateDir, 'redis'));
    stack.push(redis.process);
    process.env.TEST_REDIS_URL = redis.url;
  }
  process.env.TEST_STATE_DIR = stateDir;
  (globalThis as { __TEST_STACK__?: unknown }).__TEST_STACK__ = { stack, stateDir };
}
