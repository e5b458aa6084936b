/**
 * One real production session, captured through the capture API and decided by the real models
 * (FerretDB, Redis, inference service, API and a worker process), serves every assertion here:
 * nothing personal lies in plaintext in the store's files, a dump of the store or Redis; the
 * decision is billed once; the reads are in the audit trail; redaction leaves what is documented.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { CaptureClient } from '../capture/support/capture-client';
import { CaptureStack } from '../capture/support/capture-stack';
import { documentOf, selfieOf } from '../capture/support/applicant-files';
import { performChallenge, SyntheticHead } from '../../../scripts/test-support/paced-performer';
import { BillingLedgerRepository } from '../../src/data-access/billing-ledger.repository';
import { billDecision } from '../../src/domain/usecases/bill-decision/bill-decision.usecase';
import { priceFor } from '../../src/domain/pricing/price-for';
import { systemClock } from '../../src/shared/clock';
import { fileText, found, redisDump, storeDump, storeFiles } from './support/at-rest-scan';
import { openStores } from './support/lifecycle-stores';
import type { Schemas, SessionResult } from '../support/api-bodies';
import { anyOf, stringMatching } from '../../../scripts/test-support/typed-matchers';

const ROOT = path.resolve(__dirname, '../../..');

/** What `npm run admin -- audit` prints. */
interface AuditTrail {
  events: { action: string }[];
}
const run = promisify(execFile);

describe('personal data of one real production session: encrypted at rest, billed once, audited, redactable', () => {
  let stack: CaptureStack;
  let stores: Awaited<ReturnType<typeof openStores>>;
  let id: string;
  let liveKey: string;
  let accountId: string;
  let result: { status: number; text: string; requestId: string };
  let report: { status: number; text: string };
  const passport = documentOf('TD3', 'clean', 'astronaut');
  const fields = passport.label.expected.fields as typeof passport.label.expected.fields & {
    document_number: string;
    surname: string;
  };
  const address = 'Rue des Secrets 12, 75001 Paris';
  const personal = [fields.name, fields.surname, fields.birth_date, fields.document_number, address];

  const admin = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/src/entry-points/cli/admin.ts'), ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        MONGODB_URI: stack.stack.env.MONGODB_URI,
        SECRET_ENCRYPTION_KEY: stack.stack.env.SECRET_ENCRYPTION_KEY,
        PII_MASTER_KEYS: stack.stack.env.PII_MASTER_KEYS,
      },
    });
  const get = async (pathname: string, requestId?: string) => {
    const res = await fetch(`${stack.baseUrl}${pathname}`, {
      headers: { 'x-api-key': liveKey, ...(requestId ? { 'x-request-id': requestId } : {}) },
    });
    return {
      status: res.status,
      text: await res.text(),
      requestId: res.headers.get('x-request-id') as string,
    };
  };

  beforeAll(async () => {
    // Captures kept an hour after the decision, so redaction has images to delete.
    stack = await CaptureStack.start({ CAPTURE_RETENTION_HOURS: '1' });
    const issued = stack.stack.account as typeof stack.stack.account & { live_api_key: string };
    liveKey = issued.live_api_key;
    accountId = issued.account_id;
    stores = await openStores(stack.stack.env);
    const accounts = stores.accounts;
    // The document's country (MA) has no price: the account's default country is billed, at the plan in force at the decision.
    await accounts.setBillingDefaults(accountId, { default_country: 'FR' });
    await accounts.addPlanChange(accountId, {
      plan: 'growth',
      effective_from: new Date('2020-01-01T00:00:00Z'),
    });
    await accounts.addPlanChange(accountId, {
      plan: 'scale',
      effective_from: new Date('2999-01-01T00:00:00Z'),
    });

    id = await stack.session(
      {
        expected_name: fields.name,
        expected_dob: fields.birth_date,
        expected_address: address,
        webhook_url: 'https://127.0.0.1:9/hook',
        metadata: { order: 'o-17' },
      },
      liveKey,
    );
    const client = new CaptureClient(stack.baseUrl, id);
    expect((await client.start()).status).toBe(200);
    // A loaded machine can push the first read past its deadline: the API answers 503 "retry shortly", and a device does.
    const retrying = async <T extends { status: number }>(upload: () => Promise<T>): Promise<T> => {
      for (let tries = 1; ; tries += 1) {
        const answer = await upload();
        if (answer.status !== 503 || tries === 4) return answer;
        await new Promise((r) => setTimeout(r, 2_000));
      }
    };
    expect((await retrying(() => client.document('front', 'passport', passport.image))).body).toMatchObject({
      readable: true,
    });
    // A production session captures liveness through the server-paced challenge.
    expect((await performChallenge(client, new SyntheticHead())).next).toBe('selfie');
    expect((await retrying(() => client.selfie(selfieOf('astronaut')))).status).toBe(200);
    expect((await client.submit()).status).toBe(202);
    // Polled by hand: under heavy load a keep-alive socket the server just closed can reset one poll.
    const until = Date.now() + 120_000;
    let decision = 'none';
    while (decision !== 'done' && Date.now() < until) {
      decision = await client.status(null).then(
        (s) => s.body.decision,
        () => 'retry',
      );
      if (decision !== 'done') await new Promise((r) => setTimeout(r, 300));
    }
    expect(decision).toBe('done');
    result = await get(`/v1/sessions/${id}/result`, 'req-at-rest-result-0001');
    report = await get(`/v1/sessions/${id}/report`);
  }, 420_000);
  afterAll(async () => {
    await stores?.close();
    await stack?.stop();
  }, 60_000);

  it('decides with the person read from the document (the data the scan then looks for)', () => {
    expect(result.status).toBe(200);
    const body = JSON.parse(result.text) as SessionResult;
    expect(['VERIFIED', 'FAILED']).toContain(body.status);
    expect(body.person).toMatchObject({ name: fields.name, dob: fields.birth_date });
    expect(result.text).toContain('"metadata":{"order":"o-17"}');
  });

  it("keeps no plaintext name, date of birth, document number or address in FerretDB's SQLite files, a dump of the store, or Redis", async () => {
    // The store, read back through the driver: sealed fields only (works on MONGODB_URI too).
    const dump = await storeDump(stack.stack.store);
    expect(found(dump, [id])).toEqual([id]); // the scan sees the session (its id is not personal)
    expect(found(dump, personal)).toEqual([]);
    if (!process.env.MONGODB_URI) {
      const dbName = new URL(stack.stack.env.MONGODB_URI).pathname.slice(1);
      const files = storeFiles(path.join(process.env.TEST_STATE_DIR as string, 'ferretdb'), dbName);
      expect(files.length).toBeGreaterThan(0);
      const bytes = fileText(files);
      expect(found(bytes, [id])).toEqual([id]);
      expect(found(bytes, personal)).toEqual([]);
    }
    const redis = await redisDump(stack.stack.env.REDIS_URL);
    expect(found(redis, [id])).toEqual([id]); // jobs name the session by id
    expect(found(redis, personal)).toEqual([]);
  });

  it("writes one ledger entry for the decided attempt at the plan's price for the billed country, however often it is recorded", async () => {
    const ledger = new BillingLedgerRepository(stack.stack.store);
    const session = await stack.stack.sessions.findForApplicant(id);
    const deps = { ledger, accounts: stores.accounts, sessions: stack.stack.sessions, clock: systemClock };
    const again = await Promise.all(Array.from({ length: 5 }, () => billDecision(deps, session!)));
    expect(again.every((o) => o === 'already-billed')).toBe(true);
    const entries = await ledger.forSession(id);
    const price = priceFor('growth', 'FR')!;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      _id: `${id}:1`,
      account_id: accountId,
      attempt: 1,
      plan: 'growth',
      country: 'FR',
      country_source: 'account_default',
      currency: price.currency,
      amount: price.unit_amount,
    });
    expect(session?.ledger_pending).toBeUndefined();

    const month = new Date().toISOString().slice(0, 7);
    const json: unknown = JSON.parse(
      (await admin('billing', 'report', '--account', accountId, '--month', month)).stdout,
    );
    expect(json).toMatchObject({
      account_id: accountId,
      month,
      verifications: 1,
      totals: [{ country: 'FR', currency: 'EUR', verifications: 1, amount: price.unit_amount }],
    });
    const csv = (await admin('billing', 'report', '--account', accountId, '--month', month, '--format', 'csv')).stdout;
    expect(csv).toBe(
      `account_id,month,country,currency,verifications,amount\n${accountId},${month},FR,EUR,1,${price.unit_amount}\n`,
    );
  }, 60_000);

  it('lists the result and report reads in the audit trail with the key id and request id, and nothing personal', async () => {
    const { stdout } = await admin('audit', '--session', id);
    const trail = JSON.parse(stdout) as AuditTrail;
    const reads = trail.events.filter((e) => e.action.endsWith('.read'));
    expect(reads.map((e) => e.action)).toEqual(['result.read', 'report.read']);
    expect(reads[0]).toMatchObject({
      session_id: id,
      account_id: accountId,
      request_id: 'req-at-rest-result-0001',
      actor: { type: 'api_key', id: stringMatching(/^[0-9a-f]{16}$/) },
    });
    expect(found(stdout, personal)).toEqual([]);
  }, 60_000);

  it('redacts: person, credential, report details and captures gone; status, checks, confidence and metadata kept; repeatable', async () => {
    const before = JSON.parse(result.text) as SessionResult;
    expect(await stack.blobs()).toBeGreaterThan(0);
    const first = await fetch(`${stack.baseUrl}/v1/sessions/${id}/redact`, {
      method: 'POST',
      headers: { 'x-api-key': liveKey },
    });
    expect(first.status).toBe(200);
    const answer = (await first.json()) as Schemas['RedactSessionResponse'];
    expect(answer).toMatchObject({ session_id: id, status: before.status, redacted_at: anyOf(String) });

    const after = await get(`/v1/sessions/${id}/result`);
    const redacted: unknown = JSON.parse(after.text);
    expect(redacted).toEqual({
      ...before,
      person: null,
      credential_token: null,
      redacted_at: answer.redacted_at,
    });
    expect(after.text).toContain('"metadata":{"order":"o-17"}');
    const reportAfter = JSON.parse((await get(`/v1/sessions/${id}/report`)).text) as Schemas['EvidenceReport'];
    const reportBefore = JSON.parse(report.text) as Schemas['EvidenceReport'];
    expect(reportAfter.checks).toEqual(reportBefore.checks);
    expect(reportAfter.document).toEqual({ ...reportBefore.document, country: null, corrections: [] });
    expect(await stack.blobs()).toBe(0);
    expect(found(await storeDump(stack.stack.store), personal)).toEqual([]);

    const second = await fetch(`${stack.baseUrl}/v1/sessions/${id}/redact`, {
      method: 'POST',
      headers: { 'x-api-key': liveKey },
    });
    expect(await second.json()).toEqual(answer);
    expect((await get(`/v1/sessions/${id}/result`)).text).toBe(after.text);
    const trail = (JSON.parse((await admin('audit', '--session', id)).stdout) as AuditTrail).events.map(
      (e) => e.action,
    );
    expect(trail.filter((a) => a === 'session.redact')).toHaveLength(2);
  }, 60_000);
});
