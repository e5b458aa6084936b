import { AppContext } from './app-context';
import { AppConfig } from './config/env';
import { IdempotencyRepository } from './data-access/idempotency.repository';
import { AuditLogRepository } from './data-access/audit-log.repository';
import { BillingLedgerRepository } from './data-access/billing-ledger.repository';
import { InferenceRepository } from './data-access/inference.repository';
import { connectStores } from './data-access/connect-stores';
import { pingMongo } from './data-access/mongo-connection';
import { permissiveWebhookTargetPolicy } from './data-access/permissive-webhook-target-policy';
import { publicWebhookTargetPolicy } from './data-access/public-webhook-target-policy';
import { RateLimitRepository } from './data-access/rate-limit.repository';
import { SessionAttemptRepository } from './data-access/session-attempt.repository';
import { UsageRepository } from './data-access/usage.repository';
import { DeliveryLogRepository } from './data-access/delivery-log.repository';
import { WebhookOutboxRepository } from './data-access/webhook-outbox.repository';
import { sessionModel } from './data-access/session.model';
import { connectCaptureStores } from './data-access/connect-capture-stores';
import { CaptureWriteLimiter } from './data-access/capture-write-limiter';
import { createSanctionsScreening } from './data-access/watchlist-screening';
import { systemClock } from './shared/clock';
import { Logger } from './shared/logger';

/** Wires the real repositories to their outside dependencies. */
export async function composeApp(config: AppConfig, logger: Logger): Promise<AppContext & { close(): Promise<void> }> {
  const { mongo, redis, sessions, vault, accounts, queue } = await connectStores(config, logger);
  const attempts = new SessionAttemptRepository(mongo, vault);
  const idempotency = new IdempotencyRepository(mongo, config.IDEMPOTENCY_LOCK_SECONDS * 1000);
  const audit = new AuditLogRepository(mongo);
  const ledger = new BillingLedgerRepository(mongo);
  await Promise.all([attempts.init(), idempotency.init(), audit.init(), ledger.init()]);
  const inference = config.INFERENCE_URL ? new InferenceRepository(config.INFERENCE_URL) : null;
  const capture = await connectCaptureStores(config, mongo, vault);
  const sanctions = createSanctionsScreening(mongo, logger, { refreshIntervalMs: config.WATCHLIST_REFRESH_SECONDS * 1000 });
  // Loaded in the background: a large list must not hold up start; screening waits for it if need be.
  sanctions.warm().catch((error: Error) => logger.warn({ err: error.message }, 'watchlists not loaded at start'));
  return {
    config,
    logger,
    clock: systemClock,
    mongo,
    redis,
    accounts,
    sessions,
    attempts,
    idempotency,
    rateLimits: new RateLimitRepository(redis, config.REDIS_PREFIX),
    queue,
    usage: new UsageRepository(redis, config.REDIS_PREFIX),
    deliveryLog: new DeliveryLogRepository(mongo),
    outbox: new WebhookOutboxRepository(sessionModel(mongo), vault),
    // Egress safety (issue 5): only the local stack opts out, and the API logs a warning when it does.
    webhookPolicy: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS ? permissiveWebhookTargetPolicy : publicWebhookTargetPolicy(),
    capture: {
      sessions,
      ...capture,
      writes: new CaptureWriteLimiter(redis, config.REDIS_PREFIX, config.CAPTURE_MAX_WRITES),
      inference,
      queue,
      clock: systemClock,
      logger,
      publicBaseUrl: config.PUBLIC_BASE_URL,
    },
    sanctions,
    audit,
    ledger,
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
