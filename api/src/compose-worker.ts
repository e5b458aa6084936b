import { IdempotencyRepository } from './data-access/idempotency.repository';
import { Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { AppConfig } from './config/env';
import { AccountRepository } from './data-access/account.repository';
import { DeliveryLogRepository } from './data-access/delivery-log.repository';
import { JobQueueRepository } from './data-access/job-queue.repository';
import { connectStores } from './data-access/connect-stores';
import { pingMongo } from './data-access/mongo-connection';
import { SessionExpiryRepository } from './data-access/session-expiry.repository';
import { SessionRepository } from './data-access/session.repository';
import { sessionModel } from './data-access/session.model';
import { WebhookOutboxRepository } from './data-access/webhook-outbox.repository';
import { WebhookSender } from './data-access/webhook-sender';
import { CachedWebhookSecrets } from './data-access/cached-webhook-secrets';
import { ClaimRecoveryRepository } from './data-access/claim-recovery.repository';
import { CaptureBlobRepository } from './data-access/capture-blob.repository';
import { CaptureStateRepository } from './data-access/capture-state.repository';
import { connectCaptureStores } from './data-access/connect-capture-stores';
import { InferenceRepository } from './data-access/inference.repository';
import { unscreenedSanctions } from './data-access/unscreened-sanctions';
import { SanctionsScreening } from './domain/ports/sanctions-screening';
import { Clock, systemClock } from './shared/clock';
import { SecretBox } from './shared/secret-box';
import { Logger } from './shared/logger';

/** Everything job handlers may use, built once per worker process (the API's twin is compose-app.ts, beside it). */
export interface WorkerContext {
  config: AppConfig;
  logger: Logger;
  clock: Clock;
  mongo: Connection;
  redis: Redis;
  accounts: AccountRepository;
  secrets: CachedWebhookSecrets;
  sessions: SessionRepository;
  claims: ClaimRecoveryRepository;
  outbox: WebhookOutboxRepository;
  expiry: SessionExpiryRepository;
  idempotency: IdempotencyRepository;
  deliveryLog: DeliveryLogRepository;
  queue: JobQueueRepository;
  sender: WebhookSender;
  states: CaptureStateRepository;
  blobs: CaptureBlobRepository;
  sealer: SecretBox;
  /** Null without INFERENCE_URL: decisions then wait (and readiness says why). */
  inference: InferenceRepository | null;
  sanctions: SanctionsScreening;
  retentionHours: number | undefined;
  readiness: Array<{ name: string; check: () => Promise<void> }>;
  close(): Promise<void>;
}

export async function composeWorker(config: AppConfig, logger: Logger): Promise<WorkerContext> {
  const { mongo, redis, sessions, accounts, queue } = await connectStores(config, logger);
  const deliveryLog = new DeliveryLogRepository(mongo);
  await deliveryLog.init();
  const outbox = new WebhookOutboxRepository(sessionModel(mongo));
  const capture = await connectCaptureStores(config, mongo);
  const inference = config.INFERENCE_URL ? new InferenceRepository(config.INFERENCE_URL) : null;
  const sender = new WebhookSender({
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    maxSocketsPerHost: config.WORKER_CONCURRENCY,
  });
  return {
    config,
    logger,
    clock: systemClock,
    mongo,
    redis,
    accounts,
    secrets: new CachedWebhookSecrets(accounts),
    sessions,
    claims: new ClaimRecoveryRepository(sessions),
    outbox,
    expiry: new SessionExpiryRepository(sessions),
    idempotency: new IdempotencyRepository(mongo, config.IDEMPOTENCY_LOCK_SECONDS * 1000),
    deliveryLog,
    queue,
    sender,
    ...capture,
    inference,
    sanctions: unscreenedSanctions,
    readiness: [
      { name: 'store', check: () => pingMongo(mongo) },
      { name: 'queue', check: () => queue.checkReady() },
    ],
    async close() {
      inference?.close();
      await Promise.all([outbox.flush(), deliveryLog.flush()]);
      sender.close();
      await queue.close();
      redis.disconnect();
      await mongo.close();
    },
  };
}
