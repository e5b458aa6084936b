import { IdempotencyRepository } from './data-access/idempotency.repository';
import { Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { composeStores } from './compose-stores';
import { AppConfig } from './config/env';
import { AccountRepository } from './data-access/account.repository';
import { AuditLogRepository } from './data-access/audit-log.repository';
import { BillingLedgerRepository } from './data-access/billing-ledger.repository';
import { SessionAttemptRepository } from './data-access/session-attempt.repository';
import { DeliveryLogRepository } from './data-access/delivery-log.repository';
import { JobQueueRepository } from './data-access/job-queue.repository';
import { backfillInFlight } from './data-access/in-flight-backfill';
import { SessionExpiryRepository } from './data-access/session-expiry.repository';
import { SessionRepository } from './data-access/session.repository';
import { WebhookOutboxRepository } from './data-access/webhook-outbox.repository';
import { WebhookSender } from './data-access/webhook-sender';
import { CachedWebhookSecrets } from './data-access/cached-webhook-secrets';
import { ClaimRecoveryRepository } from './data-access/claim-recovery.repository';
import { CaptureBlobRepository } from './data-access/capture-blob.repository';
import { CaptureStateRepository } from './data-access/capture-state.repository';
import { InferenceRepository } from './data-access/inference.repository';
import { PkijsChipVerifier } from './data-access/chip/chip-verifier';
import { CaptureFingerprintRepository } from './data-access/capture-fingerprint.repository';
import { KnownFaceRepository } from './data-access/known-face.repository';
import { SanctionsScreening } from './domain/ports/sanctions-screening';
import { Clock, systemClock } from './shared/clock';
import { TextSealer } from './shared/sealer';
import { Logger } from './shared/logger';

/** Everything job handlers may use, built once per worker process (the stores come from compose-stores.ts, shared with the API and the admin CLI). */
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
  chip: PkijsChipVerifier;
  fingerprints: CaptureFingerprintRepository;
  knownFaces: KnownFaceRepository;
  /** Null without INFERENCE_URL: decisions then wait (and readiness says why). */
  inference: InferenceRepository | null;
  sanctions: SanctionsScreening;
  retentionHours: number | undefined;
  readiness: Array<{ name: string; check: () => Promise<void> }>;
  close(): Promise<void>;
}

export async function composeWorker(config: AppConfig, logger: Logger): Promise<WorkerContext> {
  const stores = await composeStores(config, logger);
  const { sessions, accounts } = stores;
  // Sessions stored before the in-flight collections existed: entered once, in the background (on
  // FerretDB it is one read of every session; the sweeps catch up with those sessions when it ends).
  void backfillInFlight(stores.mongo, sessions.inFlight).then(
    (seen) => seen !== null && logger.info({ sessions: seen }, 'in-flight collections backfilled from stored sessions'),
    (error: Error) => logger.warn({ err: error.message }, 'in-flight backfill failed; the next start runs it again'),
  );
  const sender = new WebhookSender({
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    maxSocketsPerHost: config.WORKER_CONCURRENCY,
  });
  return {
    config,
    logger,
    clock: systemClock,
    mongo: stores.mongo,
    redis: stores.redis,
    accounts,
    secrets: new CachedWebhookSecrets(accounts),
    sessions,
    attempts: stores.attempts,
    audit: stores.audit,
    ledger: stores.ledger,
    claims: new ClaimRecoveryRepository(sessions),
    outbox: stores.outbox,
    expiry: new SessionExpiryRepository(sessions),
    idempotency: stores.idempotency,
    deliveryLog: stores.deliveryLog,
    queue: stores.queue,
    sender,
    ...stores.capture,
    inference: stores.inference,
    sanctions: stores.sanctions,
    fingerprints: stores.fingerprints,
    knownFaces: stores.knownFaces,
    readiness: stores.readiness,
    // The sender's sockets close after the writers flushed and before the queue and store do.
    close: () => stores.close(() => sender.close()),
  };
}
