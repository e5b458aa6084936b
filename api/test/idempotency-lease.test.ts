/**
 * The Idempotency-Key lease on the real store (FerretDB): a key whose runner died is usable again
 * once its lease lapses, a runner that renews keeps its key however long it runs, and of requests
 * racing for a key, fresh or lapsed, exactly one runs.
 */
import { Connection } from 'mongoose';
import { isolatedTestEnv } from '../../scripts/test-support/test-env';
import { IdempotencyRepository } from '../src/data-access/idempotency.repository';
import { connectMongo } from '../src/data-access/mongo-connection';

const LEASE_MS = 10_000;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('the Idempotency-Key lease', () => {
  let store: Connection;
  let keys: IdempotencyRepository;
  let n = 0;
  const record = () => IdempotencyRepository.recordId('key_test', `order-${(n += 1)}`);
  const HASH = IdempotencyRepository.requestHash('POST', '/v1/sessions', '{"a":1}');

  beforeAll(async () => {
    store = await connectMongo(isolatedTestEnv().MONGODB_URI);
    keys = new IdempotencyRepository(store, LEASE_MS);
    await keys.init();
  });
  afterAll(async () => {
    await store.dropDatabase().catch(() => undefined);
    await store.close();
  });

  it("answers 409 (in flight) while a dead holder's lease lasts, and lets the next request re-run under the same session id once it lapses", async () => {
    const id = record();
    const first = await keys.claim(id, HASH, at(0));
    expect(first.kind).toBe('run');
    // The holder dies here: no renewal, no stored response.
    expect((await keys.claim(id, HASH, at(LEASE_MS - 1))).kind).toBe('in-flight');
    const retry = await keys.claim(id, HASH, at(LEASE_MS));
    expect(retry).toMatchObject({
      kind: 'run',
      reservedSessionId: first.kind === 'run' ? first.reservedSessionId : '',
    });
  });

  it('takes over a lapsed lease written by a process that is gone (a record with no holder, from before leases)', async () => {
    const id = record();
    await keys.model.create({
      _id: id,
      request_hash: HASH,
      locked_until: at(-1),
      reserved_session_id: 'ses_000000000000000000000001',
      created_at: at(-20_000),
      expires_at: at(86_400_000),
    });
    expect(await keys.claim(id, HASH, at(0))).toMatchObject({
      kind: 'run',
      reservedSessionId: 'ses_000000000000000000000001',
    });
  });

  it('keeps the key for a holder that renews, however long it runs, and stops renewing one whose lease was taken over', async () => {
    const id = record();
    const first = await keys.claim(id, HASH, at(0));
    if (first.kind !== 'run') throw new Error('expected to run');
    for (let t = LEASE_MS / 3; t <= 5 * LEASE_MS; t += LEASE_MS / 3) {
      expect(await keys.renew(id, first.holder, at(t))).toBe(true);
      expect((await keys.claim(id, HASH, at(t + LEASE_MS / 3))).kind).toBe('in-flight');
    }
    // It stalls past a whole lease: another request takes over, and the stalled one may no longer renew.
    const takeover = await keys.claim(id, HASH, at(7 * LEASE_MS));
    expect(takeover.kind).toBe('run');
    expect(await keys.renew(id, first.holder, at(7 * LEASE_MS + 1))).toBe(false);
  });

  it('lets a key be re-run after each 5xx, however many (a 5xx gives the lease up at once)', async () => {
    const id = record();
    for (let run = 0; run < 3; run += 1) {
      expect((await keys.claim(id, HASH, at(run))).kind).toBe('run');
      await keys.unlock(id);
    }
  });

  it('lets exactly one of ten requests racing for a fresh key run', async () => {
    const id = record();
    const claims = await Promise.all(Array.from({ length: 10 }, () => keys.claim(id, HASH, at(0))));
    expect(claims.filter((c) => c.kind === 'run')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'in-flight')).toHaveLength(9);
  });

  it('lets exactly one of ten requests racing for a lapsed lease take it over', async () => {
    const id = record();
    await keys.claim(id, HASH, at(0));
    const claims = await Promise.all(Array.from({ length: 10 }, () => keys.claim(id, HASH, at(2 * LEASE_MS))));
    expect(claims.filter((c) => c.kind === 'run')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'in-flight')).toHaveLength(9);
  });
});
