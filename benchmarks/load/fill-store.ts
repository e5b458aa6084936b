/**
 * Fills the store with decided production sessions, each with one delivered webhook attempt, as a
 * month of traffic leaves it: through the repositories' own code (SessionRepository.importMany
 * seals the personal fields as a create does; the delivery log's own writer), in batches, not
 * through the API (100,000 creates through the API would measure the API, for a quarter of an
 * hour, before the measurement starts).
 */
import {
  connectMongo,
  DeliveryLogRepository,
  PiiVault,
  SessionDocument,
  SessionRepository,
} from '../../api/src/public-entry';
import { parseMasterKeys } from '../../api/src/shared/master-keys';
import { newDeliveryId, newSessionId } from '../../api/src/shared/random-id';
import type { LoadAccount } from './load-stack';

const BATCH = 1_000;

/** Decided sessions by account index, for the reads of the mix. */
export type DecidedPool = string[][];

function decidedSession(account: LoadAccount, at: Date, verified: boolean): SessionDocument {
  const id = newSessionId();
  const checks = {
    document_authentic: 'PASS',
    face_match: verified ? 'PASS' : 'FAIL',
    liveness: 'PASS',
    name_match: 'PASS',
  };
  const result = {
    session_id: id,
    status: verified ? 'VERIFIED' : 'FAILED',
    confidence: verified ? 0.97 : 0.41,
    failure_reason: verified ? null : 'FACE_MATCH_BELOW_THRESHOLD',
    checks,
    decided_at: at.toISOString(),
    environment: 'production',
    metadata: { order: id.slice(4) },
  };
  const report = {
    session_id: id,
    decided_at: at.toISOString(),
    checks: Object.fromEntries(
      Object.entries(checks).map(([name, verdict]) => [
        name,
        {
          verdict,
          scores: [{ name: `${name}_score`, value: 0.9, threshold: 0.5 }],
          model: { name: `${name}-model`, version: '1.0.0', sha256: 'f'.repeat(64) },
          duration_ms: 42,
        },
      ]),
    ),
    document: { type: 'passport', country: 'FR' },
  };
  return {
    _id: id,
    account_id: account.account_id,
    environment: 'production',
    status: verified ? 'VERIFIED' : 'FAILED',
    failure_reason: verified ? null : 'FACE_MATCH_BELOW_THRESHOLD',
    return_url: 'https://example.com/done',
    webhook_url: 'https://example.com/hooks',
    expected_name: 'Jane Doe',
    expected_dob: '1990-01-01',
    expected_address: null,
    locale: 'en',
    metadata_json: JSON.stringify({ order: id.slice(4) }),
    created_at: at,
    updated_at: at,
    expires_at: new Date(at.getTime() + 3_600_000),
    started_at: at,
    decided_at: at,
    confidence: result.confidence,
    verified_until: null,
    credential_token: null,
    result_body: JSON.stringify(result),
    webhook_state: 'delivered',
    webhook_delivery_id: newDeliveryId(),
    report_json: JSON.stringify(report),
    attempt: 1,
    billed: true,
  };
}

export class StoreFiller {
  readonly pool: DecidedPool;
  stored = 0;

  private constructor(
    private readonly close: () => Promise<void>,
    private readonly sessions: SessionRepository,
    private readonly deliveries: DeliveryLogRepository,
    private readonly accounts: LoadAccount[],
  ) {
    this.pool = accounts.map(() => []);
  }

  static async open(env: Record<string, string>, accounts: LoadAccount[]): Promise<StoreFiller> {
    const store = await connectMongo(env.MONGODB_URI);
    const sessions = new SessionRepository(store, new PiiVault(store, parseMasterKeys(env.PII_MASTER_KEYS)));
    const deliveries = new DeliveryLogRepository(store);
    await Promise.all([sessions.init(), deliveries.init()]);
    return new StoreFiller(() => store.close(), sessions, deliveries, accounts);
  }

  /** Adds sessions until `total` are stored (counting those the mix created); answers the seconds it took. */
  async fillTo(total: number, createdByMix: number): Promise<number> {
    const started = Date.now();
    while (this.stored + createdByMix < total) {
      const count = Math.min(BATCH, total - this.stored - createdByMix);
      const at = new Date(Date.now() - 86_400_000);
      const docs = Array.from({ length: count }, (_, i) =>
        decidedSession(this.accounts[(this.stored + i) % this.accounts.length], at, (this.stored + i) % 10 !== 0),
      );
      await this.sessions.importMany(docs);
      // All at once: the writer batches them (one insertMany per 200) and resolves each once written.
      await Promise.all(
        docs.map((doc) =>
          this.deliveries.record({
            session_id: doc._id,
            account_id: doc.account_id,
            environment: 'production',
            delivery_id: doc.webhook_delivery_id!,
            round: 0,
            attempt: 1,
            attempted_at: at,
            status_code: 200,
            latency_ms: 35,
            error: null,
            result: 'delivered',
          }),
        ),
      );
      docs.forEach((doc, i) => this.pool[(this.stored + i) % this.accounts.length].push(doc._id));
      this.stored += count;
    }
    return (Date.now() - started) / 1000;
  }

  stop(): Promise<void> {
    return this.close();
  }
}
