import { IdempotencyRepository } from './data-access/idempotency.repository';
import { Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { AppConfig } from './config/env';
import { AccountRepository } from './data-access/account.repository';
import { AuditLogRepository } from './data-access/audit-log.repository';
import { BillingLedgerRepository } from './data-access/billing-ledger.repository';
import { SessionAttemptRepository } from './data-access/session-attempt.repository';
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
import { createSanctionsScreening } from './data-access/watchlist-screening';
import { SanctionsScreening } from './domain/ports/sanctions-screening';
import { Clock, systemClock } from './shared/clock';
import { TextSealer } from './shared/sealer';
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
  attempts: SessionAttemptRepository;
  audit: AuditLogRepository;
  ledger: BillingLedgerRepository;
  claims: ClaimRecoveryRepository;
  outbox: WebhookOutboxRepository;
  expiry: SessionExpiryRepository;
  idempotency: IdempotencyRepository;
  deliveryLog: DeliveryLogRepository;
  queue: JobQueueRepository;
  sender: WebhookSender;
  states: CaptureStateRepository;
  blobs: CaptureBlobRepository;
  sealer: TextSealer;
  /** Null without INFERENCE_URL: decisions then wait (and readiness says why). */
  inference: InferenceRepository | null;
  sanctions: SanctionsScreening;
  retentionHours: number | undefined;
  readiness: Array<{ name: string; check: () => Promise<void> }>;
  close(): Promise<void>;
}

export async function composeWorker(config: AppConfig, logger: Logger): Promise<WorkerContext> {
  const { mongo, redis, sessions, vault, accounts, queue } = await connectStores(config, logger);
  const deliveryLog = new DeliveryLogRepository(mongo);
  const attempts = new SessionAttemptRepository(mongo, vault);
  const audit = new AuditLogRepository(mongo);
  const ledger = new BillingLedgerRepository(mongo);
  await Promise.all([deliveryLog.init(), attempts.init(), audit.init(), ledger.init()]);
  const outbox = new WebhookOutboxRepository(sessionModel(mongo), vault);
  const capture = await connectCaptureStores(config, mongo, vault);
  const sanctions = createSanctionsScreening(mongo, logger, { refreshIntervalMs: config.WATCHLIST_REFRESH_SECONDS * 1000 });
  sanctions.warm().catch((error: Error) => logger.warn({ err: error.message }, 'watchlists not loaded at start'));
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
    attempts,
    audit,
    ledger,
    claims: new ClaimRecoveryRepository(sessions),
    outbox,
    expiry: new SessionExpiryRepository(sessions),
    idempotency: new IdempotencyRepository(mongo, config.IDEMPOTENCY_LOCK_SECONDS * 1000),
    deliveryLog,
    queue,
    sender,
    ...capture,
    inference,
    sanctions,
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
