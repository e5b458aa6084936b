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
import type { QueryShape } from './support/query-shapes/query-shape';
import { SESSION_QUERY_SHAPES } from './support/query-shapes/session-query-shapes';
import { ACCOUNT_QUERY_SHAPES } from './support/query-shapes/account-query-shapes';

/**
 * Every query shape the API and the worker send, the index that serves it on MongoDB, and what
 * the embedded FerretDB (SQLite) does with it. FerretDB 1.24's SQLite backend, as patched by
 * scripts/build-ferretdb.sh, answers a filter that is exactly {_id: <string>} from the _id index,
 * narrows one holding an _id beside other conditions (the conditional writes, kept whole for
 * MongoDB's atomicity) or an _id $in list to those documents by the same index and filters them;
 * every other filter is read whole and filtered in FerretDB. So the request path reads by _id and
 * checks the tenant in the repository, and the sweeps read small collections of in-flight work
 * keyed by session id (whole on FerretDB, but they hold only what is unfinished) and then each
 * session by _id. The shapes marked 'scan' on `sessions` are the retention sweep's. Not listed: the one-time backfill of the in-flight collections (one
 * read of every session and delivery attempt) and the filters it replaces, used until it has run.
 *
 * The MongoDB column is checked against the indexes the models declare, with MongoDB's rule
 * for a usable index: its first key is an equality or range field of the filter, and a sort
 * follows the fields before it. The FerretDB column is checked with FerretDB's explain.
 */
const QUERY_SHAPES: QueryShape[] = [...SESSION_QUERY_SHAPES, ...ACCOUNT_QUERY_SHAPES];

/** What FerretDB's (or MongoDB's) explain answers, as far as the test reads it. */
interface Explained {
  serverInfo?: { ferretdbVersion?: string };
  queryPlanner?: { winningPlan?: unknown; Plan?: string[] };
  filterPushdown?: boolean;
}

/**
 * MongoDB's rule, simplified: the index's first key is in the filter, and a sort key is among its
 * keys; with no filter, the index's first key is the sort's (an index scan in sort order).
 */
function serves(indexKeys: string[], shape: QueryShape): boolean {
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
      // The known-face repository declares no index of its own: its collection only needs to exist.
      connection.db!.createCollection('known_faces'),
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

      const explained = (await connection.db!.command({
        explain: {
          find: shape.collection,
          filter: shape.filter,
          ...(shape.sort ? { sort: shape.sort } : {}),
        },
        verbosity: 'queryPlanner',
      })) as Explained;
      if (explained.serverInfo?.ferretdbVersion === undefined) {
        // MongoDB (MONGODB_URI): the winning plan must use the index named above.
        expect(JSON.stringify(explained.queryPlanner?.winningPlan)).toMatch(
          shape.mongoIndex === '_id_' ? /IDHACK|EXPRESS_IXSCAN|"_id_"/ : new RegExp(`"${shape.mongoIndex}"`),
        );
        return;
      }
      const plan = (explained.queryPlanner?.Plan ?? []).join(' ');
      if (shape.ferretdb === 'id-index' || shape.ferretdb === 'id-index-then-filter') {
        // filterPushdown: whether the SQL holds the whole filter; the rest is filtered after the read.
        expect(explained.filterPushdown).toBe(shape.ferretdb === 'id-index');
        expect(plan).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
      } else {
        expect(explained.filterPushdown).toBe(false);
        expect(plan).toMatch(/SCAN/);
      }
    },
  );
});
