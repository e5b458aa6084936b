import { Connection, Model } from 'mongoose';
import { accountModels } from '../src/data-access/account.model';
import { AuditLogRepository } from '../src/data-access/audit-log.repository';
import { BillingLedgerRepository } from '../src/data-access/billing-ledger.repository';
import { captureStateModel } from '../src/data-access/capture-state.model';
import { deliveryAttemptModel } from '../src/data-access/delivery-log.model';
import { idempotencyRecordModel, idempotentResponseModel } from '../src/data-access/idempotency-record.model';
import { connectMongo } from '../src/data-access/mongo-connection';
import { sessionAttemptModel } from '../src/data-access/session-attempt.model';
import { sessionModel } from '../src/data-access/session.model';
import { transitionClaimModel } from '../src/data-access/transition-claim.model';
import { InFlightSessions } from '../src/data-access/in-flight-sessions';
import { DeliveryLogIndex } from '../src/data-access/delivery-log-index.repository';
import { isolatedTestEnv } from '../../scripts/test-support/test-env';

/**
 * Every query shape the API and the worker send, the index that serves it on MongoDB, and what
 * the embedded FerretDB (SQLite) does with it. FerretDB 1.24's SQLite backend pushes down one
 * shape only, a filter that is exactly {_id: <string>}, and (with the patch in
 * scripts/build-ferretdb.sh) answers it from the _id index; every other filter is read whole and
 * filtered in FerretDB. So the request path reads by _id alone and checks the tenant in the
 * repository, and the sweeps read small collections of in-flight work keyed by session id (whole
 * on FerretDB, but they hold only what is unfinished) and then each session by _id. The shapes
 * marked 'scan' on `sessions` are the conditional writes, kept whole for MongoDB's atomicity,
 * and the retention sweep. Not listed: the one-time backfill of the in-flight collections (one
 * read of every session and delivery attempt) and the filters it replaces, used until it has run.
 *
 * The MongoDB column is checked against the indexes the models declare, with MongoDB's rule
 * for a usable index: its first key is an equality or range field of the filter, and a sort
 * follows the fields before it. The FerretDB column is checked with FerretDB's explain.
 */
interface Shape {
  what: string;
  collection: string;
  filter: Record<string, unknown>;
  sort?: Record<string, 1 | -1>;
  mongoIndex: string;
  ferretdb: 'id-index' | 'scan';
}

const id = 'ses_0123456789abcdefghijklmn';
const now = new Date();

const QUERY_SHAPES: Shape[] = [
  {
    what: 'every session read by id (GET status/result/report/webhooks, capture, transitions, jobs)',
    collection: 'sessions',
    filter: { _id: id },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  // Conditional writes (transitions and their claim roll-forward, redaction, a settlement copied, a
  // redelivery opened, a ledger entry written, a decision requested): kept whole, because on
  // MongoDB the filter is what makes the write atomic; on FerretDB each is one read of `sessions`.
  {
    what: 'a conditional write on a session (transition, redaction, settlement, redelivery, ledger written)',
    collection: 'sessions',
    filter: { _id: id, status: 'PENDING', attempt: 2 },
    mongoIndex: '_id_',
    ferretdb: 'scan',
  },
  {
    what: 'GET /v1/credentials/{token}: the token, then its session by id',
    collection: 'credential_tokens',
    filter: { _id: 'cred_x' },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  // The sweeps read the in-flight collections (open sessions, owed webhooks and ledger entries):
  // whole on FerretDB, but they hold only unfinished work; each session is then read by _id.
  {
    what: 'expiry sweep: open sessions past their deadline',
    collection: 'open_sessions',
    filter: { due_at: { $lte: now } },
    sort: { due_at: 1 },
    mongoIndex: 'due_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'decision sweep: open sessions submitted',
    collection: 'open_sessions',
    filter: { decision_requested_at: { $ne: null } },
    sort: { decision_requested_at: 1 },
    mongoIndex: 'decision_requested_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'outbox sweep: owed webhooks, oldest first',
    collection: 'pending_webhooks',
    filter: {},
    sort: { since: 1 },
    mongoIndex: 'since_1',
    ferretdb: 'scan',
  },
  {
    what: 'billing sweep: owed ledger entries, oldest first',
    collection: 'pending_ledger_entries',
    filter: {},
    sort: { since: 1 },
    mongoIndex: 'since_1',
    ferretdb: 'scan',
  },
  {
    what: 'in-flight entry written or read by session id',
    collection: 'open_sessions',
    filter: { _id: id },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'in-flight entry removed if unchanged (attempt, round, or time written)',
    collection: 'pending_webhooks',
    filter: { _id: id, attempt: 1, round: 0 },
    mongoIndex: '_id_',
    ferretdb: 'scan',
  },
  // Retention reads ended, unredacted sessions: history by nature; only with a retention period set.
  {
    what: 'retention sweep (decided)',
    collection: 'sessions',
    filter: { redacted_at: null, status: { $in: ['VERIFIED', 'FAILED'] }, decided_at: { $lte: now } },
    mongoIndex: 'redacted_at_1_status_1_decided_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'retention sweep (expired)',
    collection: 'sessions',
    filter: { redacted_at: null, status: 'EXPIRED', updated_at: { $lte: now } },
    mongoIndex: 'redacted_at_1_status_1_decided_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'transition claim by id',
    collection: 'session_transitions',
    filter: { _id: `${id}:PENDING` },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'claim recovery window',
    collection: 'session_transitions',
    filter: { claimed_at: { $gte: now, $lt: now } },
    mongoIndex: 'claimed_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'authentication: API key by its hash, then its account',
    collection: 'api_keys',
    filter: { _id: 'f'.repeat(64) },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'account by id',
    collection: 'accounts',
    filter: { _id: 'acct_x' },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'key rotation: the other keys of an account',
    collection: 'api_keys',
    filter: { account_id: 'acct_x', environment: 'production', expires_at: null, _id: { $ne: 'k' } },
    mongoIndex: 'account_id_1_environment_1',
    ferretdb: 'scan',
  },
  {
    what: 'accounts with a retention period',
    collection: 'accounts',
    filter: { pii_retention_days: { $ne: null } },
    mongoIndex: 'pii_retention_days_1',
    ferretdb: 'scan',
  },
  {
    what: 'GET /v1/sessions/{id}/webhooks: the attempt ids of a session',
    collection: 'webhook_delivery_attempts_by_session',
    filter: { _id: id },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'GET /v1/sessions/{id}/webhooks: each attempt by id',
    collection: 'webhook_delivery_attempts',
    filter: { _id: 'att_x' },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'GET /v1/sessions/{id}/attempts',
    collection: 'session_attempts',
    filter: { session_id: id },
    sort: { attempt: 1 },
    mongoIndex: 'session_id_1_attempt_1',
    ferretdb: 'scan',
  },
  {
    what: 'archived attempt by id (webhook payload of an earlier attempt)',
    collection: 'session_attempts',
    filter: { _id: `${id}:1` },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'capture state by id',
    collection: 'capture_states',
    filter: { _id: `${id}:1` },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'capture purge sweep',
    collection: 'capture_states',
    filter: { purge_after: { $lte: now }, purged_at: null },
    mongoIndex: 'purge_after_1',
    ferretdb: 'scan',
  },
  {
    what: 'idempotency record by key',
    collection: 'idempotency_keys',
    filter: { _id: 'idem_x' },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'idempotency expiry',
    collection: 'idempotency_keys',
    filter: { expires_at: { $lte: now } },
    mongoIndex: 'expires_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'idempotent response expiry',
    collection: 'idempotency_responses',
    filter: { expires_at: { $lte: now } },
    mongoIndex: 'expires_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'audit log of a session',
    collection: 'audit_events',
    filter: { session_id: id },
    sort: { at: 1 },
    mongoIndex: 'session_id_1_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'audit log of an account',
    collection: 'audit_events',
    filter: { account_id: 'acct_x' },
    sort: { at: 1 },
    mongoIndex: 'account_id_1_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'billing ledger of an account-month',
    collection: 'billing_ledger',
    filter: { account_id: 'acct_x', month: '2026-11' },
    sort: { decided_at: 1 },
    mongoIndex: 'account_id_1_month_1_decided_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'billing ledger of a session',
    collection: 'billing_ledger',
    filter: { session_id: id },
    sort: { attempt: 1 },
    mongoIndex: 'session_id_1_attempt_1',
    ferretdb: 'scan',
  },
];

/**
 * MongoDB's rule, simplified: the index's first key is in the filter, and a sort key is among its
 * keys; with no filter, the index's first key is the sort's (an index scan in sort order).
 */
function serves(indexKeys: string[], shape: Shape): boolean {
  const fields = Object.keys(shape.filter);
  if (fields.length === 0) return Object.keys(shape.sort ?? {})[0] === indexKeys[0];
  if (!fields.includes(indexKeys[0])) return false;
  return Object.keys(shape.sort ?? {}).every((key) => indexKeys.includes(key));
}

describe('the queries the API makes and the indexes that serve them', () => {
  let connection: Connection;

  beforeAll(async () => {
    connection = await connectMongo(isolatedTestEnv().MONGODB_URI);
    const { Account, ApiKey } = accountModels(connection);
    const models = [
      sessionModel,
      transitionClaimModel,
      deliveryAttemptModel,
      sessionAttemptModel,
      captureStateModel,
      idempotencyRecordModel,
      idempotentResponseModel,
    ].map((m) => m(connection) as unknown as Model<unknown>);
    await Promise.all(
      [...models, Account as unknown as Model<unknown>, ApiKey as unknown as Model<unknown>].map((m) => m.init()),
    );
    await Promise.all([
      new AuditLogRepository(connection).init(),
      new BillingLedgerRepository(connection).init(),
      new InFlightSessions(connection).init(),
      new DeliveryLogIndex(connection).init(),
    ]);
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it.each(QUERY_SHAPES.map((shape) => [shape.what, shape] as const))(
    '%s: served by its declared index on MongoDB, and FerretDB plans it as listed',
    async (_what, shape) => {
      const indexes = await connection.db!.collection(shape.collection).indexes();
      const index = indexes.find((i) => i.name === shape.mongoIndex);
      expect(index).toBeDefined();
      expect(serves(Object.keys(index!.key), shape)).toBe(true);

      const explained = await connection.db!.command({
        explain: {
          find: shape.collection,
          filter: shape.filter,
          ...(shape.sort ? { sort: shape.sort } : {}),
        },
        verbosity: 'queryPlanner',
      });
      if (explained.serverInfo?.ferretdbVersion === undefined) {
        // MongoDB (MONGODB_URI): the winning plan must use the index named above.
        expect(JSON.stringify(explained.queryPlanner.winningPlan)).toMatch(
          shape.mongoIndex === '_id_' ? /IDHACK|EXPRESS_IXSCAN|"_id_"/ : new RegExp(`"${shape.mongoIndex}"`),
        );
        return;
      }
      const plan = (explained.queryPlanner?.Plan ?? []).join(' ');
      if (shape.ferretdb === 'id-index') {
        expect(explained.filterPushdown).toBe(true);
        expect(plan).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
      } else {
        expect(explained.filterPushdown).toBe(false);
        expect(plan).toMatch(/SCAN/);
      }
    },
  );
});
