import { Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { AppConfig } from '../config/env';
import { Logger } from '../shared/logger';
import { AccountRepository } from './account.repository';
import { JobQueueRepository } from './job-queue.repository';
import { connectMongo } from './mongo-connection';
import { openVault } from './open-vault';
import { PiiVault } from './pii-vault';
import { connectRedis } from './redis-connection';
import { SessionRepository } from './session.repository';

export interface Stores {
  mongo: Connection;
  redis: Redis;
  sessions: SessionRepository;
  vault: PiiVault;
  accounts: AccountRepository;
  queue: JobQueueRepository;
}

/**
 * What the API and the workers both stand on: the store with its indexes built, Redis, and the
 * queue producer. Redis errors become one warning line each while it is away (readiness reports
 * the outage) instead of raw stack traces on stderr.
 */
export async function connectStores(config: AppConfig, logger: Logger): Promise<Stores> {
  const mongo = await connectMongo(config.MONGODB_URI);
  const redis = connectRedis(config.REDIS_URL);
  const onRedisError = (error: Error) => logger.warn({ err: error.message }, 'redis connection error');
  redis.on('error', onRedisError);
  const vault = openVault(mongo, config);
  const sessions = new SessionRepository(mongo, vault);
  const accounts = new AccountRepository(mongo, vault);
  await Promise.all([sessions.init(), accounts.init()]);
  const queue = new JobQueueRepository(redis, config.REDIS_PREFIX, onRedisError);
  return { mongo, redis, sessions, vault, accounts, queue };
}
