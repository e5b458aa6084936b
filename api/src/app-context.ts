import { CaptureFingerprints } from './domain/ports/capture-fingerprints';
import { KnownFaces } from './domain/ports/known-faces';
import { Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { AppConfig } from './config/env';
import { AccountRepository } from './data-access/account.repository';
import { AuditLogRepository } from './data-access/audit-log.repository';
import { BillingLedgerRepository } from './data-access/billing-ledger.repository';
import { IdempotencyRepository } from './data-access/idempotency.repository';
import { JobQueueRepository } from './data-access/job-queue.repository';
import { RateLimitRepository } from './data-access/rate-limit.repository';
import { CachedAuthentication } from './data-access/cached-authentication';
import { SessionAttemptRepository } from './data-access/session-attempt.repository';
import { DeliveryLogRepository } from './data-access/delivery-log.repository';
import { WebhookOutboxRepository } from './data-access/webhook-outbox.repository';
import { SessionRepository } from './data-access/session.repository';
import { StoreTelemetry } from './data-access/store-telemetry';
import { UsageRepository } from './data-access/usage.repository';
import { SanctionsScreening } from './domain/ports/sanctions-screening';
import { WebhookTargetPolicy } from './domain/ports/webhook-target-policy';
import { CaptureDeps } from './domain/usecases/capture/capture-deps';
import { Clock } from './shared/clock';
import { Logger } from './shared/logger';

/** Readiness of one outside dependency; throws with a reason when it is not reachable. */
export type ReadinessProbe = { name: string; check: () => Promise<void> };

/** Everything a request handler may use, built once at start (see compose-app.ts). */
export interface AppContext {
  config: AppConfig;
  logger: Logger;
  clock: Clock;
  mongo: Connection;
  redis: Redis;
  accounts: AccountRepository;
  sessions: SessionRepository;
  attempts: SessionAttemptRepository;
  idempotency: IdempotencyRepository;
  rateLimits: RateLimitRepository;
  /** API key → tenant, cached per process and vouched for by Redis on every request. */
  authentication: CachedAuthentication;
  queue: JobQueueRepository;
  usage: UsageRepository;
  deliveryLog: DeliveryLogRepository;
  outbox: WebhookOutboxRepository;
  webhookPolicy: WebhookTargetPolicy;
  /** The watchlist-screening add-on (accounts opt in; sanctions hits fail a decision). */
  sanctions: SanctionsScreening;
  /** The account's verified faces: a redaction forgets the session's. */
  knownFaces: KnownFaces;
  fingerprints: CaptureFingerprints;
  readiness: ReadinessProbe[];
  /** Append-only record of reads of personal data, redactions and admin actions, so every access can be answered for. */
  audit: AuditLogRepository;
  /** One entry per billable production decision: the invoice is the sum of the ledger, never of counters. */
  ledger: BillingLedgerRepository;
  /** The capture API's repositories (store, encrypted blobs, write limit, inference). */
  capture: CaptureDeps;
  /** Store round-trip times and busy retries, for /metrics. */
  storeTelemetry: StoreTelemetry;
}
