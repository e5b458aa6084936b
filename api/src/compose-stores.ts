import { Connection } from 'mongoose';
import { Redis } from 'ioredis';
import type { ReadinessProbe } from './app-context';
import { AppConfig, chipTrustAnchorPaths } from './config/env';
import { AccountRepository } from './data-access/account.repository';
import { RedisAccountChanges } from './data-access/account-generation';
import { AccountChanges, noAccountChanges } from './domain/ports/account-changes';
import { AuditLogRepository } from './data-access/audit-log.repository';
import { BillingLedgerRepository } from './data-access/billing-ledger.repository';
import { CaptureBlobRepository } from './data-access/capture-blob.repository';
import { PkijsChipVerifier } from './data-access/chip/chip-verifier';
import { loadTestCscas, loadTrustAnchors } from './data-access/chip-trust/trust-anchors';
import { CaptureStateRepository } from './data-access/capture-state.repository';
import { DeliveryLogRepository } from './data-access/delivery-log.repository';
import { IdempotencyRepository } from './data-access/idempotency.repository';
import { InferenceRepository } from './data-access/inference.repository';
import { JobQueueRepository } from './data-access/job-queue.repository';
import { connectMongo, pingMongo } from './data-access/mongo-connection';
import { openVault, VaultKeys } from './data-access/open-vault';
import { PiiVault } from './data-access/pii-vault';
import { connectRedis } from './data-access/redis-connection';
import { SessionAttemptRepository } from './data-access/session-attempt.repository';
import { sessionModel } from './data-access/session.model';
import { SessionRepository } from './data-access/session.repository';
import { createSanctionsScreening } from './data-access/watchlist-screening';
import { WebhookOutboxRepository } from './data-access/webhook-outbox.repository';
import { SanctionsScreening } from './domain/ports/sanctions-screening';
import { AppError } from './shared/app-error';
import { Logger } from './shared/logger';
import { TextSealer } from './shared/sealer';
import { KnownFaceRepository } from './data-access/known-face.repository';
import { CaptureFingerprintRepository } from './data-access/capture-fingerprint.repository';

/** What the API and the worker both stand on, built one way (see composeStores). */
export interface ProcessStores {
  mongo: Connection;
  redis: Redis;
  vault: PiiVault;
  sessions: SessionRepository;
  accounts: AccountRepository;
  attempts: SessionAttemptRepository;
  idempotency: IdempotencyRepository;
  audit: AuditLogRepository;
  ledger: BillingLedgerRepository;
  deliveryLog: DeliveryLogRepository;
  outbox: WebhookOutboxRepository;
  queue: JobQueueRepository;
  capture: {
    states: CaptureStateRepository;
    blobs: CaptureBlobRepository;
    sealer: TextSealer;
    retentionHours: number | undefined;
    /** The API inspects chip uploads with it; the worker verifies them at the decision. */
    chip: PkijsChipVerifier;
  };
  /** Null without INFERENCE_URL. */
  inference: InferenceRepository | null;
  sanctions: SanctionsScreening;
  /** The account's verified faces (known_face): the worker searches and adds, redaction forgets. */
  knownFaces: KnownFaceRepository;
  fingerprints: CaptureFingerprintRepository;
  /** The store and the queue (Redis reachable, with maxmemory-policy noeviction, or queued deliveries may be evicted). */
  readiness: ReadinessProbe[];
  /**
   * Stops everything in the one order: the inference channel, the buffered writers flushed, what
   * the process added (`beforeClients`, e.g. the worker's HTTP agent), the queue, Redis, the store.
   */
  close(beforeClients?: () => void | Promise<void>): Promise<void>;
}

/**
 * The composition root of the service's outside dependencies: the API process, the worker
 * process (composeStores) and the admin CLI and stack tools (composeAdminStores) build their
 * stores and repositories here and nowhere else. Redis errors become one warning line each while
 * it is away (readiness reports the outage) instead of raw stack traces on stderr.
 */
export async function composeStores(config: AppConfig, logger: Logger): Promise<ProcessStores> {
  const mongo = await connectMongo(config.MONGODB_URI);
  const redis = connectRedis(config.REDIS_URL);
  const onRedisError = (error: Error) => logger.warn({ err: error.message }, 'redis connection error');
  redis.on('error', onRedisError);
  const vault = openVault(mongo, config);
  const sessions = new SessionRepository(mongo, vault);
  const accounts = new AccountRepository(mongo, vault, new RedisAccountChanges(redis, config.REDIS_PREFIX));
  const attempts = new SessionAttemptRepository(mongo, vault);
  const idempotency = new IdempotencyRepository(mongo, config.IDEMPOTENCY_LOCK_SECONDS * 1000);
  const audit = new AuditLogRepository(mongo);
  const ledger = new BillingLedgerRepository(mongo);
  const deliveryLog = new DeliveryLogRepository(mongo);
  const states = new CaptureStateRepository(mongo);
  await Promise.all([
    sessions.init(),
    accounts.init(),
    attempts.init(),
    idempotency.init(),
    audit.init(),
    ledger.init(),
    deliveryLog.init(),
    states.init(),
  ]);
  const queue = new JobQueueRepository(redis, config.REDIS_PREFIX, onRedisError);
  const outbox = new WebhookOutboxRepository(sessionModel(mongo), vault);
  const inference = config.INFERENCE_URL ? new InferenceRepository(config.INFERENCE_URL) : null;
  const sanctions = createSanctionsScreening(mongo, logger, {
    refreshIntervalMs: config.WATCHLIST_REFRESH_SECONDS * 1000,
  });
  // Loaded in the background: a large list must not hold up start; screening waits for it if need be.
  sanctions.warm().catch((error: Error) => logger.warn({ err: error.message }, 'watchlists not loaded at start'));
  return {
    mongo,
    redis,
    vault,
    sessions,
    accounts,
    attempts,
    idempotency,
    audit,
    ledger,
    deliveryLog,
    outbox,
    queue,
    inference,
    sanctions,
    knownFaces: new KnownFaceRepository(mongo, config.CAPTURE_ENCRYPTION_KEY, vault),
    fingerprints: new CaptureFingerprintRepository(mongo, config.CAPTURE_ENCRYPTION_KEY),
    capture: {
      states,
      blobs: new CaptureBlobRepository(mongo, vault),
      sealer: vault,
      retentionHours: config.CAPTURE_RETENTION_HOURS,
      chip: new PkijsChipVerifier(loadTrustAnchors(chipTrustAnchorPaths(config.CHIP_TRUST_ANCHORS)), loadTestCscas()),
    },
    readiness: [
      { name: 'store', check: () => pingMongo(mongo) },
      { name: 'queue', check: () => queue.checkReady() },
    ],
    async close(beforeClients) {
      inference?.close();
      await Promise.all([outbox.flush(), deliveryLog.flush()]);
      await beforeClients?.();
      await queue.close();
      redis.disconnect();
      await mongo.close();
    },
  };
}

export interface AdminStores {
  mongo: Connection;
  accounts: AccountRepository;
  /** The vault, or a VALIDATION_ERROR naming PII_MASTER_KEYS where the command needs it and it is not set. */
  requireVault(): PiiVault;
  close(): Promise<void>;
}

/**
 * What the admin CLI and the stack tools open: the store, the vault when PII_MASTER_KEYS is given,
 * and Redis when REDIS_URL is (changing an existing account or key must announce the change to the
 * API processes' caches, so without it only creating accounts works).
 */
export async function composeAdminStores(
  env: { MONGODB_URI: string; REDIS_URL?: string; REDIS_PREFIX?: string } & Partial<VaultKeys>,
): Promise<AdminStores> {
  const mongo = await connectMongo(env.MONGODB_URI);
  // A command must fail, not wait forever, when Redis is away: its change is stored but unannounced.
  const redis = env.REDIS_URL ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, connectTimeout: 5_000 }) : null;
  redis?.on('error', () => undefined); // the failed command reports it
  const changes = redis ? new RedisAccountChanges(redis, env.REDIS_PREFIX ?? 'bv') : noAccountChanges;
  const { vault, accounts } = await accountsOn(mongo, env, changes);
  return {
    mongo,
    accounts,
    requireVault() {
      if (!vault)
        throw new AppError(
          'VALIDATION_ERROR',
          'set PII_MASTER_KEYS (the new key first when rotating, the old ones after it)',
        );
      return vault;
    },
    async close() {
      redis?.disconnect();
      await mongo.close();
    },
  };
}

/**
 * The accounts on an open store. Webhook secrets are sealed by the vault, so without
 * PII_MASTER_KEYS only the commands that never seal or open one work (plans, billing defaults).
 */
export async function accountsOn(
  mongo: Connection,
  keys: Partial<VaultKeys>,
  changes: AccountChanges = noAccountChanges,
): Promise<{ vault: PiiVault | null; accounts: AccountRepository }> {
  const vault = keys.PII_MASTER_KEYS ? openVault(mongo, { ...keys, PII_MASTER_KEYS: keys.PII_MASTER_KEYS }) : null;
  const missing = (): Promise<string> =>
    Promise.reject(new AppError('VALIDATION_ERROR', 'set PII_MASTER_KEYS: webhook secrets are sealed by the vault'));
  const accounts = new AccountRepository(mongo, vault ?? { seal: missing, open: missing }, changes);
  await Promise.all([vault?.init(), accounts.init()]);
  return { vault, accounts };
}
