import express from 'express';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppContext } from '../../../app-context';
import { IdempotencyClaim } from '../../../data-access/idempotency.repository';
import { systemClock } from '../../../shared/clock';
import { idempotency } from './idempotency';

const LEASE_MS = 300;

/** The key store behind its interface: every claim runs, and each renewal is recorded. */
function keyStore() {
  const renewals: number[] = [];
  const started = Date.now();
  return {
    renewals,
    store: {
      leaseMs: LEASE_MS,
      claim: (): Promise<IdempotencyClaim> =>
        Promise.resolve({ kind: 'run', recordId: 'r', reservedSessionId: 'ses_x', holder: 'h' }),
      renew: () => {
        renewals.push(Date.now() - started);
        return Promise.resolve(true);
      },
      complete: () => Promise.resolve(),
      unlock: () => Promise.resolve(),
    },
  };
}

describe('the Idempotency-Key middleware keeps its lease while the request runs', () => {
  let server: Server;
  let base: string;
  const keys = keyStore();
  beforeAll(async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.tenant = { keyId: 'key_1' };
      next();
    });
    const ctx = {
      idempotency: keys.store,
      clock: systemClock,
      logger: { warn: () => undefined },
    } as unknown as Pick<AppContext, 'idempotency' | 'clock' | 'logger'>;
    app.post('/slow', idempotency(ctx), async (_req, res) => {
      await new Promise((r) => setTimeout(r, 4 * LEASE_MS));
      res.status(201).json({ ok: true });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('renews every third of the lease for as long as the request runs, and stops once it has answered', async () => {
    const res = await fetch(`${base}/slow`, { method: 'POST', headers: { 'Idempotency-Key': 'order-1' } });
    expect(res.status).toBe(201);
    const whileRunning = keys.renewals.length;
    // 4 leases long at a renewal every 100 ms: about 12 (timers on a loaded machine may slip).
    expect(whileRunning).toBeGreaterThanOrEqual(8);
    const gaps = keys.renewals.slice(1).map((t, i) => t - keys.renewals[i]);
    expect(Math.max(...gaps)).toBeLessThan(LEASE_MS);
    await new Promise((r) => setTimeout(r, 3 * LEASE_MS));
    expect(keys.renewals.length).toBe(whileRunning);
  });
});
