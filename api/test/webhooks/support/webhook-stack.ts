import { Connection } from 'mongoose';
import { isolatedTestEnv } from '../../../../scripts/test-support/test-env';
import { loadConfig } from '../../../src/config/env';
import { DeliveryLogRepository } from '../../../src/data-access/delivery-log.repository';
import { connectMongo } from '../../../src/data-access/mongo-connection';
import { SessionDocument, sessionModel } from '../../../src/data-access/session.model';
import { Model } from 'mongoose';
import { SessionRepository } from '../../../src/data-access/session.repository';
import { PiiVault } from '../../../src/data-access/pii-vault';
import { parseMasterKeys } from '../../../src/shared/master-keys';
import { WebhookOutboxRepository } from '../../../src/data-access/webhook-outbox.repository';
import { startApi, RunningApi } from '../../../src/entry-points/http/http-server';
import { createLogger } from '../../../src/shared/logger';
import { issueAccount } from '../../../../scripts/test-support/account-bootstrap';
import { ServiceProcess, startWorkerProcess } from '../../../../scripts/test-support/service-process';
import { WebhookReceiver } from '../../../../scripts/test-support/webhook-receiver';

/** Worker timings shrunk so faults resolve in seconds: retries 0.2 s apart, a dead worker's job handed over in ~3 s. */
export const FAST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_INTERVAL_SECONDS: '0.2',
  WORKER_LOCK_DURATION_MS: '3000',
  WORKER_STALLED_INTERVAL_MS: '1000',
  OUTBOX_SWEEP_INTERVAL_SECONDS: '1',
  EXPIRY_SWEEP_INTERVAL_SECONDS: '1',
  WORKER_CONCURRENCY: '20',
  SHUTDOWN_GRACE_MS: '5000',
};

export interface Issued {
  account_id: string;
  sandbox_api_key: string;
  webhook_secret: string;
}

/**
 * One test file's world: its own database and Redis prefix on the suite's servers (or a Redis of
 * its own), one account, a verifying loopback receiver, worker processes on demand, and a direct
 * view of the store to check that nothing is missing there.
 */
export class WebhookStack {
  readonly workers: ServiceProcess[] = [];
  readonly outbox: WebhookOutboxRepository;
  /** The store's own view of sessions, for tests that check or arrange what is stored. */
  readonly sessionModel: Model<SessionDocument>;
  api: RunningApi | null = null;
  private constructor(
    readonly env: Record<string, string>,
    readonly account: Issued,
    readonly receiver: WebhookReceiver,
    readonly store: Connection,
    readonly sessions: SessionRepository,
    readonly deliveryLog: DeliveryLogRepository,
  ) {
    this.sessionModel = sessionModel(store);
    this.outbox = new WebhookOutboxRepository(this.sessionModel, sessions.vault);
  }

  /**
   * Moves a session's deadline as time passing would: on the session and on the open-session
   * entry the expiry sweep reads (a test that edits one alone makes a state no write makes).
   */
  async moveDeadline(id: string, at: Date): Promise<void> {
    await this.sessionModel.updateOne({ _id: id }, { $set: { expires_at: at } });
    await this.store.collection('open_sessions').updateOne({ _id: id as never }, { $set: { due_at: at } });
  }

  static async start(overrides: Record<string, string> = {}): Promise<WebhookStack> {
    const env = { ...isolatedTestEnv(), ...FAST_ENV, ...overrides };
    const store = await connectMongo(env.MONGODB_URI);
    const issued = await issueAccount(store, env, { name: 'Webhook receiver' });
    const receiver = new WebhookReceiver(issued.webhook_secret);
    await receiver.start();
    const vault = new PiiVault(store, parseMasterKeys(env.PII_MASTER_KEYS));
    return new WebhookStack(
      env,
      issued,
      receiver,
      store,
      new SessionRepository(store, vault),
      new DeliveryLogRepository(store),
    );
  }

  /** The API in this test process (for fault tests on the API itself, see scripts/test-support/service-process.ts). */
  async startApi(overrides: Record<string, string> = {}): Promise<string> {
    this.api = await startApi(loadConfig({ ...this.env, PORT: '0', ...overrides }), createLogger('silent'));
    return this.baseUrl;
  }

  get baseUrl(): string {
    if (!this.api) throw new Error('the API is not started');
    return `http://127.0.0.1:${this.api.port}`;
  }

  async startWorker(
    overrides: Record<string, string> = {},
    until: 'ready' | 'alive' = 'ready',
  ): Promise<ServiceProcess> {
    const worker = await startWorkerProcess({ ...this.env, ...overrides }, `worker${this.workers.length + 1}`, until);
    this.workers.push(worker);
    return worker;
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.kill('SIGKILL')));
    await this.api?.stop();
    await this.receiver.stop();
    await this.store.dropDatabase().catch(() => undefined);
    await this.store.close();
  }

  /** The stored session with its personal fields opened (they are sealed at rest). */
  session(id: string): Promise<SessionDocument | null> {
    return this.sessions.findForApplicant(id);
  }

  /** The webhook state as GET /webhooks reports it (a settled round counts before the sweep copies it). */
  async webhookState(id: string): Promise<string | undefined> {
    const session = await this.session(id);
    return session ? this.outbox.effectiveState(session) : undefined;
  }
}
