import { AppContext } from './app-context';
import { AppConfig } from './config/env';
import { InferenceRepository } from './data-access/inference.repository';
import { connectStores } from './data-access/connect-stores';
import { pingMongo } from './data-access/mongo-connection';
import { permissiveWebhookTargetPolicy } from './data-access/permissive-webhook-target-policy';
import { publicWebhookTargetPolicy } from './data-access/public-webhook-target-policy';
import { UsageRepository } from './data-access/usage.repository';
import { CaptureBlobRepository } from './data-access/capture-blob.repository';
import { CaptureStateRepository } from './data-access/capture-state.repository';
import { CaptureWriteLimiter } from './data-access/capture-write-limiter';
import { systemClock } from './shared/clock';
import { Logger } from './shared/logger';
import { SecretBox } from './shared/secret-box';

/** Wires the real repositories to their outside dependencies. */
export async function composeApp(config: AppConfig, logger: Logger): Promise<AppContext & { close(): Promise<void> }> {
  const { mongo, redis, sessions, accounts, queue } = await connectStores(config, logger);
  const inference = config.INFERENCE_URL ? new InferenceRepository(config.INFERENCE_URL) : null;
  const states = new CaptureStateRepository(mongo);
  await states.init();
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
    capture: {
      sessions,
      states,
      blobs: new CaptureBlobRepository(mongo, Buffer.from(config.CAPTURE_ENCRYPTION_KEY, 'base64')),
      sealer: new SecretBox(config.CAPTURE_ENCRYPTION_KEY),
      writes: new CaptureWriteLimiter(redis, config.REDIS_PREFIX, config.CAPTURE_MAX_WRITES),
      inference,
      queue,
      clock: systemClock,
      logger,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      retentionHours: config.CAPTURE_RETENTION_HOURS,
    },
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
