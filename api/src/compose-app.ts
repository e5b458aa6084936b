import { AppContext } from './app-context';
import { composeStores } from './compose-stores';
import { AppConfig } from './config/env';
import { CaptureWriteLimiter } from './data-access/capture-write-limiter';
import { permissiveWebhookTargetPolicy } from './data-access/permissive-webhook-target-policy';
import { publicWebhookTargetPolicy } from './data-access/public-webhook-target-policy';
import { RateLimitRepository } from './data-access/rate-limit.repository';
import { CachedAuthentication } from './data-access/cached-authentication';
import { CredentialCache } from './data-access/credential-cache';
import { storeTelemetry } from './data-access/store-telemetry';
import { UsageRepository } from './data-access/usage.repository';
import { systemClock } from './shared/clock';
import { Logger } from './shared/logger';

/** The API process: the shared stores (compose-stores.ts) and what only request handlers use. */
export async function composeApp(config: AppConfig, logger: Logger): Promise<AppContext & { close(): Promise<void> }> {
  const stores = await composeStores(config, logger);
  const {
    mongo,
    redis,
    sessions,
    accounts,
    attempts,
    idempotency,
    queue,
    deliveryLog,
    outbox,
    inference,
    sanctions,
    audit,
    ledger,
  } = stores;
  const rateLimits = new RateLimitRepository(redis, config.REDIS_PREFIX);
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
    rateLimits,
    authentication: new CachedAuthentication({ accounts, rateLimits, cache: new CredentialCache() }),
    queue,
    usage: new UsageRepository(redis, config.REDIS_PREFIX),
    deliveryLog,
    outbox,
    // Webhook targets must be public addresses: only the local stack opts out, and the API logs a warning when it does.
    webhookPolicy: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS ? permissiveWebhookTargetPolicy : publicWebhookTargetPolicy(),
    capture: {
      sessions,
      ...stores.capture,
      writes: new CaptureWriteLimiter(redis, config.REDIS_PREFIX, config.CAPTURE_MAX_WRITES),
      inference,
      queue,
      clock: systemClock,
      logger,
      publicBaseUrl: config.PUBLIC_BASE_URL,
    },
    sanctions,
    knownFaces: stores.knownFaces,
    fingerprints: stores.fingerprints,
    audit,
    ledger,
    storeTelemetry: storeTelemetry(mongo),
    readiness: [
      ...stores.readiness,
      ...(inference ? [{ name: 'inference', check: () => inference.checkReady() }] : []),
    ],
    close: () => stores.close(),
  };
}
