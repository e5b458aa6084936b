/**
 * Redaction, the retention sweep, the audit trail and the billing ledger on the real store, Redis,
 * API and a worker process. Decisions come from the sandbox simulation or, for production (which
 * cannot simulate), from the decide-session use case with a chosen outcome; the full captured
 * production session is in personal-data-at-rest.test.ts.
 */
import { AuditLogRepository } from '../../src/data-access/audit-log.repository';
import { BillingLedgerRepository } from '../../src/data-access/billing-ledger.repository';
import { billDecision } from '../../src/domain/usecases/bill-decision/bill-decision.usecase';
import { billingReport } from '../../src/domain/usecases/billing-report/billing-report.usecase';
import { decideSession } from '../../src/domain/usecases/decide-session/decide-session.usecase';
import { Decision } from '../../src/domain/usecases/decide-session/decision';
import { priceFor } from '../../src/domain/pricing/price-for';
import { systemClock } from '../../src/shared/clock';
import { createLogger } from '../../src/shared/logger';
import { WebhookStack } from '../webhooks/support/webhook-stack';
import { call, validSession } from '../support/http';
import { issueAccount } from '../../../scripts/test-support/account-bootstrap';
import { openStores } from './support/lifecycle-stores';

const waitUntil = async (what: string, check: () => Promise<boolean>, ms = 20_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

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

describe('redaction, retention, audit and billing (real store, Redis, API, worker)', () => {
  let stack: WebhookStack;
  let stores: Awaited<ReturnType<typeof openStores>>;
  let accounts: Awaited<ReturnType<typeof openStores>>['accounts'];
  let ledger: BillingLedgerRepository;
  let audit: AuditLogRepository;
  let sandboxKey: string;
  let liveKey: string;
  let accountId: string;
  let kept: { account_id: string; sandbox_api_key: string };

  beforeAll(async () => {
    // Retention of about two seconds, swept every second, so the worker's sweep is seen at work.
    stack = await WebhookStack.start({
      PII_RETENTION_DAYS: '0.00002',
      LIFECYCLE_SWEEP_INTERVAL_SECONDS: '1',
    });
    await stack.startApi();
    stores = await openStores(stack.env);
    accounts = stores.accounts;
    ledger = new BillingLedgerRepository(stack.store);
    audit = new AuditLogRepository(stack.store);
    const issued = stack.account as typeof stack.account & { live_api_key: string };
    [sandboxKey, liveKey, accountId] = [issued.sandbox_api_key, issued.live_api_key, issued.account_id];
    // This account keeps personal data 30 days: the deployment's two seconds do not apply to it.
    kept = await issueAccount(stack.store, stack.env, { name: 'Keeper' });
    await accounts.setBillingDefaults(kept.account_id, { pii_retention_days: 30 });
  }, 120_000);
  afterAll(async () => {
    await stores?.close();
    await stack?.stop();
  }, 60_000);

  const create = async (key: string, body: Record<string, unknown> = {}) => {
    const res = await call(stack.baseUrl, 'POST', '/v1/sessions', {
      key,
      body: validSession({ webhook_url: 'https://127.0.0.1:9/hook', ...body }),
    });
    expect(res.status).toBe(201);
    return res.json.session_id as string;
  };
  const simulate = (key: string, id: string, outcome: Record<string, unknown> = { outcome: 'VERIFIED' }) =>
    call(stack.baseUrl, 'POST', `/v1/sessions/${id}/simulate`, { key, body: outcome });

  it('redacts a verified session: the credential stops validating, the result keeps its verdicts, a retry is refused, and the call is repeatable', async () => {
    const id = await create(sandboxKey, { expected_name: 'Jeanne Dupont', metadata: { ref: 7 } });
    const decided = await simulate(sandboxKey, id);
    const token = decided.json.credential_token as string;
    expect((await call(stack.baseUrl, 'GET', `/v1/credentials/${token}`)).status).toBe(200);
    expect((await call(stack.baseUrl, 'GET', `/c/${id}`)).status).toBe(200);

    const redacted = await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/redact`, { key: sandboxKey });
    expect(redacted.status).toBe(200);
    const result = await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/result`, { key: sandboxKey });
    expect(result.json).toEqual({
      ...decided.json,
      person: null,
      credential_token: null,
      redacted_at: redacted.json.redacted_at,
    });
    expect(result.text.endsWith(',"metadata":{"ref":7}}')).toBe(true);
    expect((await call(stack.baseUrl, 'GET', `/v1/credentials/${token}`)).status).toBe(404);
    expect((await call(stack.baseUrl, 'GET', `/c/${id}`)).status).toBe(404);
    expect((await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/report`, { key: sandboxKey })).json.redacted_at).toBe(
      redacted.json.redacted_at,
    );
    const stored = await stack.session(id);
    expect(stored).toMatchObject({
      expected_name: null,
      expected_dob: null,
      expected_address: null,
      credential_token: null,
    });

    expect((await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/redact`, { key: sandboxKey })).json).toEqual(
      redacted.json,
    );
    const failed = await create(sandboxKey);
    await simulate(sandboxKey, failed, { outcome: 'FAILED', failure_reason: 'LIVENESS_FAILED' });
    await call(stack.baseUrl, 'POST', `/v1/sessions/${failed}/redact`, { key: sandboxKey });
    expect((await call(stack.baseUrl, 'POST', `/v1/sessions/${failed}/retry`, { key: sandboxKey })).status).toBe(409);
  });

  it("redacts every attempt's result and leaves no result in the session's transition claims", async () => {
    const id = await create(sandboxKey, { expected_name: 'Jeanne Dupont' });
    await simulate(sandboxKey, id, { outcome: 'FAILED', failure_reason: 'LIVENESS_FAILED' });
    expect((await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/retry`, { key: sandboxKey })).status).toBe(200);
    await simulate(sandboxKey, id);
    expect((await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/redact`, { key: sandboxKey })).status).toBe(200);
    const attempts = (await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/attempts`, { key: sandboxKey })).json
      .attempts;
    expect(
      attempts.map((a: { result: { attempt: number; person: unknown; redacted_at?: string } }) => [
        a.result.attempt,
        a.result.person,
        typeof a.result.redacted_at,
      ]),
    ).toEqual([
      [1, null, 'string'],
      [2, null, 'string'],
    ]);
    const claims = await stack.sessions.claims.find({ session_id: id }).lean();
    expect(claims.length).toBeGreaterThanOrEqual(3);
    expect(
      claims.filter((c) => typeof c.update.result_body === 'string' || typeof c.update.report_json === 'string'),
    ).toEqual([]);
  });

  it('cancels an open session before redacting it, and answers 403 to another account and 404 to an unknown id', async () => {
    const id = await create(sandboxKey, { expected_name: 'Open Person' });
    const redacted = await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/redact`, { key: sandboxKey });
    expect(redacted.json).toMatchObject({ session_id: id, status: 'FAILED' });
    const result = await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/result`, { key: sandboxKey });
    expect(result.json).toMatchObject({
      status: 'FAILED',
      failure_reason: 'CANCELLED_BY_API',
      person: null,
      redacted_at: redacted.json.redacted_at,
    });
    expect((await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/redact`, { key: kept.sandbox_api_key })).status).toBe(
      403,
    );
    expect((await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/redact`, { key: liveKey })).status).toBe(403);
    expect(
      (
        await call(stack.baseUrl, 'POST', '/v1/sessions/ses_000000000000000000000000/redact', {
          key: sandboxKey,
        })
      ).status,
    ).toBe(404);
  });

  it("records every read of a session's result, report and credential, and its redaction, with who and which request", async () => {
    const id = await create(sandboxKey);
    const token = (await simulate(sandboxKey, id)).json.credential_token as string;
    const read = await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/result`, {
      key: sandboxKey,
      headers: { 'X-Request-Id': 'req-audit-result-1' },
    });
    await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/report`, { key: sandboxKey });
    await call(stack.baseUrl, 'GET', `/v1/credentials/${token}`);
    await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/attempts`, { key: sandboxKey });
    await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/redact`, { key: sandboxKey });
    const events = await audit.forSession(id);
    expect(events.map((e) => e.action)).toEqual([
      'result.read',
      'report.read',
      'credential.read',
      'attempts.read',
      'session.redact',
    ]);
    expect(events[0]).toMatchObject({
      account_id: accountId,
      request_id: 'req-audit-result-1',
      actor: { type: 'api_key', id: expect.stringMatching(/^[0-9a-f]{16}$/) },
    });
    expect(events[2]).toMatchObject({ actor: { type: 'credential_holder', id: null } });
    expect(read.headers.get('x-request-id')).toBe('req-audit-result-1');
    expect(JSON.stringify(events)).not.toMatch(/Jane Doe|whsec_|vk_/);
  });

  it("redacts ended sessions past the deployment's retention by the worker's sweep, leaving open ones and an account that keeps data longer", async () => {
    await stack.startWorker();
    const due = await create(sandboxKey, { expected_name: 'Retained Person' });
    await simulate(sandboxKey, due, { outcome: 'FAILED', failure_reason: 'NAME_MISMATCH' });
    const open = await create(sandboxKey, { expected_name: 'Still Open' });
    const longer = await create(kept.sandbox_api_key, { expected_name: 'Kept Person' });
    await simulate(kept.sandbox_api_key, longer);
    await waitUntil('the retention sweep', async () => Boolean((await stack.session(due))?.redacted_at));
    const result = await call(stack.baseUrl, 'GET', `/v1/sessions/${due}/result`, { key: sandboxKey });
    expect(result.json).toMatchObject({
      status: 'FAILED',
      failure_reason: 'NAME_MISMATCH',
      person: null,
      redacted_at: expect.any(String),
    });
    expect((await stack.session(due))?.expected_name).toBeNull();
    expect((await audit.forSession(due)).map((e) => [e.action, e.actor.type])).toContainEqual([
      'retention.redact',
      'system',
    ]);
    await new Promise((r) => setTimeout(r, 3_000)); // three more sweeps
    expect(await stack.session(open)).toMatchObject({
      status: 'PENDING',
      expected_name: 'Still Open',
      redacted_at: null,
    });
    expect(await stack.session(longer)).toMatchObject({
      status: 'VERIFIED',
      expected_name: 'Kept Person',
      redacted_at: null,
    });
  }, 60_000);

  describe('billing ledger', () => {
    const logger = createLogger('silent');
    const billing = () => ({ ledger, accounts, sessions: stack.sessions, clock: systemClock });
    const decide = (id: string, decision: Decision, withBilling = true) =>
      decideSession(
        {
          queue: { assertWritable: async () => undefined, enqueueWebhook: async () => undefined },
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
        async () =>
          (await ledger.forSession(id)).length === 1 && (await stack.session(id))?.ledger_pending === undefined,
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
});
