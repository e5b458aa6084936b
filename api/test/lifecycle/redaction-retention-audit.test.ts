/**
 * Redaction, the retention sweep and the audit trail on the real store, Redis, API and a worker
 * process. Decisions come from the sandbox simulation; the full captured production session is in
 * personal-data-at-rest.test.ts, and what a decision bills is billing-ledger.test.ts.
 */
import { AuditLogRepository } from '../../src/data-access/audit-log.repository';
import { WebhookStack } from '../webhooks/support/webhook-stack';
import { call } from '../support/http';
import { anyOf, anyString, matching } from '../../../scripts/test-support/typed-matchers';
import type { EvidenceReport, RedactSessionResponse, SessionAttempts, SessionResult } from '../support/api-bodies';
import { issueAccount } from '../../../scripts/test-support/account-bootstrap';
import { openStores } from './support/lifecycle-stores';
import { keysOf, sessionCalls, waitUntil } from './support/lifecycle-sessions';
import { redactSession } from '../../src/domain/usecases/redact-session/redact-session.usecase';
import { sweepRetention } from '../../src/domain/usecases/sweep-retention/sweep-retention.usecase';
import { Session } from '../../src/domain/session/session';
import { systemClock } from '../../src/shared/clock';
import { createLogger } from '../../src/shared/logger';

describe('redaction, retention and audit (real store, Redis, API, worker)', () => {
  let stack: WebhookStack;
  let stores: Awaited<ReturnType<typeof openStores>>;
  let audit: AuditLogRepository;
  let sandboxKey: string;
  let liveKey: string;
  let accountId: string;
  let kept: { account_id: string; sandbox_api_key: string };
  let create: ReturnType<typeof sessionCalls>['create'];
  let simulate: ReturnType<typeof sessionCalls>['simulate'];

  beforeAll(async () => {
    // Retention of about two seconds, swept every second, so the worker's sweep is seen at work.
    stack = await WebhookStack.start({
      PII_RETENTION_DAYS: '0.00002',
      LIFECYCLE_SWEEP_INTERVAL_SECONDS: '1',
    });
    await stack.startApi();
    stores = await openStores(stack.env);
    audit = new AuditLogRepository(stack.store);
    ({ sandboxKey, liveKey, accountId } = keysOf(stack));
    ({ create, simulate } = sessionCalls(stack));
    // This account keeps personal data 30 days: the deployment's two seconds do not apply to it.
    kept = await issueAccount(stack.store, stack.env, { name: 'Keeper' });
    await stores.accounts.setBillingDefaults(kept.account_id, { pii_retention_days: 30 });
  }, 120_000);
  afterAll(async () => {
    await stores?.close();
    await stack?.stop();
  }, 60_000);

  it('redacts a verified session: the credential stops validating, the result keeps its verdicts, a retry is refused, and the call is repeatable', async () => {
    const id = await create(sandboxKey, { expected_name: 'Jeanne Dupont', metadata: { ref: 7 } });
    const decided = await simulate(sandboxKey, id);
    const token = (decided.json as SessionResult).credential_token as string;
    expect((await call(stack.baseUrl, 'GET', `/v1/credentials/${token}`)).status).toBe(200);
    expect((await call(stack.baseUrl, 'GET', `/c/${id}`)).status).toBe(200);

    const redacted = await call(stack.baseUrl, 'POST', `/v1/sessions/${id}/redact`, { key: sandboxKey });
    expect(redacted.status).toBe(200);
    const redactedAt = (redacted.json as RedactSessionResponse).redacted_at;
    const result = await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/result`, { key: sandboxKey });
    expect(result.json).toEqual({
      ...(decided.json as SessionResult),
      person: null,
      credential_token: null,
      redacted_at: redactedAt,
    });
    expect(result.text.endsWith(',"metadata":{"ref":7}}')).toBe(true);
    expect((await call(stack.baseUrl, 'GET', `/v1/credentials/${token}`)).status).toBe(404);
    expect((await call(stack.baseUrl, 'GET', `/c/${id}`)).status).toBe(404);
    const report = await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/report`, { key: sandboxKey });
    expect((report.json as EvidenceReport).redacted_at).toBe(redactedAt);
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
    const listed = await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/attempts`, { key: sandboxKey });
    const { attempts } = listed.json as SessionAttempts;
    expect(attempts.map((a) => [a.result?.attempt, a.result?.person, typeof a.result?.redacted_at])).toEqual([
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
      redacted_at: (redacted.json as RedactSessionResponse).redacted_at,
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
    const token = ((await simulate(sandboxKey, id)).json as SessionResult).credential_token as string;
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
      actor: { type: 'api_key', id: matching(/^[0-9a-f]{16}$/) },
    });
    expect(events[2]).toMatchObject({ actor: { type: 'credential_holder', id: null } });
    expect(read.headers.get('x-request-id')).toBe('req-audit-result-1');
    expect(JSON.stringify(events)).not.toMatch(/Jane Doe|whsec_|vk_/);
  });

  it('finishes a redaction cut short after the session was erased: the retention sweep completes and audits it once its grace has passed', async () => {
    const id = await create(sandboxKey, { expected_name: 'Half Redacted' });
    await simulate(sandboxKey, id);
    const clock = systemClock;
    const deps = {
      sessions: stores.sessions,
      attempts: stores.attempts,
      capture: stores.capture,
      audit: stores.audit,
      clock,
      billing: { ledger: stores.ledger, accounts: stores.accounts, sessions: stores.sessions, clock },
      knownFaces: stores.knownFaces,
      fingerprints: stores.fingerprints,
    };
    const readSession = async (sessionId: string) => (await stores.sessions.findForApplicant(sessionId)) as Session;
    const who = { actor: { type: 'api_key' as const, id: 'cut-short' }, requestId: null };
    // The process "dies" between the session's erasure and the captures' fingerprints.
    const dying = { ...deps, fingerprints: { forget: () => Promise.reject(new Error('process gone')) } };
    await expect(redactSession(dying, readSession, id, who)).rejects.toThrow('process gone');
    expect((await stack.session(id))?.redacted_at).toEqual(anyOf(Date));
    expect(await audit.forSession(id)).toEqual([]);

    const sweep = (minutesLater: number) =>
      sweepRetention({
        sessions: stores.sessions,
        accounts: stores.accounts,
        defaultDays: undefined,
        clock: { now: () => new Date(Date.now() + minutesLater * 60_000) },
        logger: createLogger('silent'),
        redact: (sessionId) =>
          redactSession(deps, readSession, sessionId, {
            actor: { type: 'system', id: 'retention-sweep' },
            requestId: null,
          }),
      });
    // Within the grace the redaction may still be under way: the sweep leaves it alone.
    expect(await sweep(0)).toEqual({ redacted: 0 });
    expect(await sweep(11)).toEqual({ redacted: 1 });
    expect((await audit.forSession(id)).map((e) => e.action)).toEqual(['retention.redact']);
    expect(await sweep(11)).toEqual({ redacted: 0 });
  });

  it("redacts ended sessions past the deployment's retention by the worker's sweep, leaving open ones and an account that keeps data longer", async () => {
    await stack.startWorker();
    const due = await create(sandboxKey, { expected_name: 'Retained Person' });
    await simulate(sandboxKey, due, { outcome: 'FAILED', failure_reason: 'NAME_MISMATCH' });
    const open = await create(sandboxKey, { expected_name: 'Still Open' });
    const longer = await create(kept.sandbox_api_key, { expected_name: 'Kept Person' });
    await simulate(kept.sandbox_api_key, longer);
    // The audit entry is a redaction's last step: the session shows redacted_at before it is written.
    const sweepAudited = async () =>
      (await audit.forSession(due)).some((e) => e.action === 'retention.redact' && e.actor.type === 'system');
    await waitUntil("the retention sweep's audit entry", sweepAudited);
    const result = await call(stack.baseUrl, 'GET', `/v1/sessions/${due}/result`, { key: sandboxKey });
    expect(result.json).toMatchObject({
      status: 'FAILED',
      failure_reason: 'NAME_MISMATCH',
      person: null,
      redacted_at: anyString(),
    });
    expect((await stack.session(due))?.expected_name).toBeNull();
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
});
