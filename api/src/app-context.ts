import { Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { AppConfig } from './config/env';
import { AccountRepository } from './data-access/account.repository';
import { JobQueueRepository } from './data-access/job-queue.repository';
import { SessionRepository } from './data-access/session.repository';
import { UsageRepository } from './data-access/usage.repository';
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
  queue: JobQueueRepository;
  usage: UsageRepository;
  webhookPolicy: WebhookTargetPolicy;
  readiness: ReadinessProbe[];
  /** The capture API's repositories (store, encrypted blobs, write limit, inference). */
  capture: CaptureDeps;
}
