/**
 * The billing ledger on the real store, Redis, API and a worker process: what a production
 * decision bills, once, at which price, and what is never billed. Production cannot simulate, so
 * decisions come from the decide-session use case with a chosen outcome.
 */
import { BillingLedgerRepository } from '../../src/data-access/billing-ledger.repository';
import { billDecision } from '../../src/domain/usecases/bill-decision/bill-decision.usecase';
import { billingReport } from '../../src/domain/usecases/billing-report/billing-report.usecase';
import { decideSession } from '../../src/domain/usecases/decide-session/decide-session.usecase';
import { Decision } from '../../src/domain/usecases/decide-session/decision';
import { priceFor } from '../../src/domain/pricing/price-for';
import { systemClock } from '../../src/shared/clock';
import { createLogger } from '../../src/shared/logger';
import { WebhookStack } from '../webhooks/support/webhook-stack';
import { call } from '../support/http';
import { issueAccount } from '../../../scripts/test-support/account-bootstrap';
import { openStores } from './support/lifecycle-stores';
import { keysOf, sessionCalls, waitUntil } from './support/lifecycle-sessions';

const verified = (country: string | null): Decision => ({
  status: 'VERIFIED',
  failure_reason: null,
  checks: { document: 'PASS', liveness: 'PASS', antispoof: 'PASS', face_match: 'PASS' },
  confidence: 0.9,
  person: {
    name: 'Jeanne Dupont',
    dob: '1990-01-02',
    document_type: 'passport',
    document_country: country as string,
    document_jurisdiction: null,
    address: null,
  },
  document_expiry: null,
  report: null,
});

describe('the billing ledger (real store, Redis, API, worker)', () => {
  let stack: WebhookStack;
  let stores: Awaited<ReturnType<typeof openStores>>;
  let accounts: Awaited<ReturnType<typeof openStores>>['accounts'];
  let ledger: BillingLedgerRepository;
  let sandboxKey: string;
  let liveKey: string;
  let accountId: string;
  let create: ReturnType<typeof sessionCalls>['create'];
  let simulate: ReturnType<typeof sessionCalls>['simulate'];

  beforeAll(async () => {
    // The worker's billing sweep runs every second, so an entry owed by a dead decider is seen written.
    stack = await WebhookStack.start({ LIFECYCLE_SWEEP_INTERVAL_SECONDS: '1' });
    await stack.startApi();
    await stack.startWorker();
    stores = await openStores(stack.env);
    accounts = stores.accounts;
    ledger = new BillingLedgerRepository(stack.store);
    ({ sandboxKey, liveKey, accountId } = keysOf(stack));
    ({ create, simulate } = sessionCalls(stack));
  }, 120_000);
  afterAll(async () => {
    await stores?.close();
    await stack?.stop();
  }, 60_000);

  const logger = createLogger('silent');
  const billing = () => ({ ledger, accounts, sessions: stack.sessions, clock: systemClock });
  const decide = (id: string, decision: Decision, withBilling = true) =>
    decideSession(
      {
        queue: { assertWritable: () => Promise.resolve(), enqueueWebhook: () => Promise.resolve() },
        clock: systemClock,
        logger,
        ...(withBilling ? { billing: billing() } : {}),
      },
      { _id: id, environment: 'production', metadata_json: null, attempt: 1 },
      decision,
      async (from, update) => {
        const written = await stack.sessions.transitionBySystem(id, from, update);
        if (!written) throw new Error('lost');
        return written;
      },
    );

  it('bills a production decision once however many deciders race, at the price of the document country on the plan in force', async () => {
    const id = await create(liveKey);
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => decide(id, verified('DE'))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const session = await stack.session(id);
    await Promise.all(Array.from({ length: 10 }, () => billDecision(billing(), session!)));
    const entries = await ledger.forSession(id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      _id: `${id}:1`,
      status: 'VERIFIED',
      plan: 'starter',
      country: 'DE',
      country_source: 'document',
      ...(() => {
        const p = priceFor('starter', 'DE')!;
        return { currency: p.currency, amount: p.unit_amount };
      })(),
    });
  });

  it('never bills sandbox, cancelled or expired sessions', async () => {
    const sandbox = await create(sandboxKey);
    await simulate(sandboxKey, sandbox);
    const cancelled = await create(liveKey);
    expect((await call(stack.baseUrl, 'DELETE', `/v1/sessions/${cancelled}`, { key: liveKey })).status).toBe(200);
    const expired = await create(liveKey);
    await stack.sessions.transitionBySystem(expired, ['PENDING'], {
      status: 'EXPIRED',
      updated_at: new Date(),
    });
    for (const id of [sandbox, cancelled, expired]) {
      expect(await billDecision(billing(), (await stack.session(id))!)).toBe('not-billable');
      expect(await ledger.forSession(id)).toEqual([]);
    }
  });

  it("writes an entry owed by a decision whose process died before billing, by the worker's billing sweep, and bills an unreadable country at the account's default", async () => {
    await accounts.setBillingDefaults(accountId, { default_country: 'FR' });
    const id = await create(liveKey);
    await decide(id, verified(null), false);
    expect((await stack.session(id))?.ledger_pending).toBe(true);
    // The sweep writes the entry, then clears the mark: wait for both, as a reader would.
    await waitUntil(
      'the billing sweep',
      async () => (await ledger.forSession(id)).length === 1 && (await stack.session(id))?.ledger_pending === undefined,
    );
    expect(await ledger.forSession(id)).toEqual([
      expect.objectContaining({
        country: 'FR',
        country_source: 'account_default',
        amount: priceFor('starter', 'FR')!.unit_amount,
      }),
    ]);
  }, 30_000);

  it("applies a plan change from its effective date and totals the month's entries by country and currency", async () => {
    const other = await issueAccount(stack.store, stack.env, { name: 'Upgrader' });
    const key = other.live_api_key;
    const first = await create(key);
    await decide(first, verified('DE'));
    await accounts.addPlanChange(other.account_id, { plan: 'enterprise', effective_from: new Date() });
    const second = await create(key);
    await decide(second, verified('DE'));
    const third = await create(key);
    await decide(third, verified('US'));
    const amounts = (await Promise.all([first, second, third].map((id) => ledger.forSession(id)))).map((e) => [
      e[0]?.plan,
      e[0]?.amount,
    ]);
    expect(amounts).toEqual([
      ['starter', priceFor('starter', 'DE')!.unit_amount],
      ['enterprise', priceFor('enterprise', 'DE')!.unit_amount],
      ['enterprise', priceFor('enterprise', 'US')!.unit_amount],
    ]);
    const report = await billingReport(ledger, other.account_id, new Date().toISOString().slice(0, 7));
    expect(report.verifications).toBe(3);
    expect(report.totals).toEqual([
      {
        country: 'DE',
        currency: 'EUR',
        verifications: 2,
        amount: priceFor('starter', 'DE')!.unit_amount + priceFor('enterprise', 'DE')!.unit_amount,
      },
      {
        country: 'US',
        currency: 'USD',
        verifications: 1,
        amount: priceFor('enterprise', 'US')!.unit_amount,
      },
    ]);
  });
});
