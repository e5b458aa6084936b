import { AppContext } from './app-context';
import { AppConfig } from './config/env';
import { AccountRepository } from './data-access/account.repository';
import { InferenceRepository } from './data-access/inference.repository';
import { JobQueueRepository } from './data-access/job-queue.repository';
import { connectMongo, pingMongo } from './data-access/mongo-connection';
import { permissiveWebhookTargetPolicy } from './data-access/permissive-webhook-target-policy';
import { publicWebhookTargetPolicy } from './data-access/public-webhook-target-policy';
import { connectRedis } from './data-access/redis-connection';
import { SessionRepository } from './data-access/session.repository';
import { UsageRepository } from './data-access/usage.repository';
import { systemClock } from './shared/clock';
import { Logger } from './shared/logger';
import { SecretBox } from './shared/secret-box';

/** Wires the real repositories to their outside dependencies. */
export async function composeApp(config: AppConfig, logger: Logger): Promise<AppContext & { close(): Promise<void> }> {
  const mongo = await connectMongo(config.MONGODB_URI);
  const redis = connectRedis(config.REDIS_URL);
  const sessions = new SessionRepository(mongo);
  const accounts = new AccountRepository(mongo, new SecretBox(config.SECRET_ENCRYPTION_KEY));
  await Promise.all([sessions.init(), accounts.init()]);
  // Without a listener ioredis prints every reconnect failure; readiness already reports the outage.
  const queue = new JobQueueRepository(redis, config.REDIS_PREFIX, (error) => logger.warn({ err: error.message }, 'redis connection error'));
  const inference = config.INFERENCE_URL ? new InferenceRepository(config.INFERENCE_URL) : null;
  return {
    config,
    logger,
    clock: systemClock,
    mongo,
    redis,
    accounts,
    sessions,
    queue,
    usage: new UsageRepository(redis, config.REDIS_PREFIX),
    // Egress safety (issue 5): only the local stack opts out, and the API logs a warning when it does.
    webhookPolicy: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS ? permissiveWebhookTargetPolicy : publicWebhookTargetPolicy(),
    readiness: [
      { name: 'store', check: () => pingMongo(mongo) },
      // Reachable and maxmemory-policy noeviction: otherwise Redis may evict queued deliveries.
      { name: 'queue', check: () => queue.checkReady() },
      ...(inference ? [{ name: 'inference', check: () => inference.checkReady() }] : []),
    ],
    async close() {
      inference?.close();
      await queue.close();
      redis.disconnect();
      await mongo.close();
    },
  };
}
