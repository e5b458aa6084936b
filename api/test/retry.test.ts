import { waitFor } from '../../scripts/stack/child-process';
import type { ApiError, CaptureStart, CreatedSession, RetriedSession, SessionResult } from './support/api-bodies';
import { call } from './support/http';
import { createSession, simulate } from '../../scripts/test-support/sessions-api';
import { WebhookStack } from './webhooks/support/webhook-stack';
import type { ReceivedCopy } from '../../scripts/test-support/webhook-receiver';

/**
 * Retry of a FAILED session (contract.md, "Announced features, now available") on the real API,
 * worker, FerretDB and Redis: same id and URL, a new attempt, every attempt's decision delivered
 * once under its own webhook-id, at most 3 attempts, one winner among racing retries.
 */
describe('POST /v1/sessions/{id}/retry', () => {
  let stack: WebhookStack;
  const key = () => stack.account.sandbox_api_key;
  const retry = <Body = RetriedSession>(id: string) =>
    call<Body>(stack.baseUrl, 'POST', `/v1/sessions/${id}/retry`, { key: key() });
  const fail = async (id: string) => expect(await simulate(stack.baseUrl, key(), id, 'FAILED')).toBe(200);
  const newSession = () => createSession(stack.baseUrl, key(), stack.receiver.url());

  beforeAll(async () => {
    stack = await WebhookStack.start();
    await stack.startApi();
    await stack.startWorker();
  });
  afterAll(() => stack.stop());

  it('moves FAILED to PENDING under the same id and URL, and a second decision delivers two webhooks, attempts 1 and 2', async () => {
    // The first copy of attempt 1 is refused, so its delivery is still owed when the retry resets the session.
    stack.receiver.reply = (_copy, nth) => (nth === 0 ? 503 : 200);
    const created = await call<CreatedSession>(stack.baseUrl, 'POST', '/v1/sessions', {
      key: key(),
      body: {
        return_url: 'https://example.com/done',
        webhook_url: stack.receiver.url(),
        expected_name: 'Jane Doe',
      },
    });
    const id = created.json.session_id;
    const before = await stack.session(id);
    await fail(id);

    const retried = await retry(id);
    expect(retried.status).toBe(200);
    expect(retried.json).toEqual({
      session_id: id,
      status: 'PENDING',
      verification_url: created.json.verification_url,
      attempt: 2,
    });
    const reset = await stack.session(id);
    expect(reset).toMatchObject({
      status: 'PENDING',
      attempt: 2,
      failure_reason: null,
      result_body: null,
      credential_token: null,
      webhook_state: 'none',
    });
    expect(reset!.expires_at.getTime()).toBeGreaterThan(before!.expires_at.getTime());
    expect((await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/result`, { key: key() })).status).toBe(409);

    const verified = await simulate(stack.baseUrl, key(), id, 'VERIFIED');
    expect(verified).toBe(200);
    await waitFor(
      'both attempts acknowledged',
      () => new Set(acknowledged(id).map((c) => delivered(c).attempt)).size === 2,
      30_000,
    );

    const deliveries = acknowledged(id).map((c) => ({
      attempt: delivered(c).attempt,
      status: c.status,
      webhookId: c.webhookId,
    }));
    expect(
      deliveries.map(({ attempt, status }) => ({ attempt, status })).sort((a, b) => a.attempt - b.attempt),
    ).toEqual([
      { attempt: 1, status: 'FAILED' },
      { attempt: 2, status: 'VERIFIED' },
    ]);
    expect(new Set(deliveries.map((d) => d.webhookId)).size).toBe(2);
    for (const copy of stack.receiver.copiesOf(id))
      expect(copy).toMatchObject({ bioSignatureValid: true, standardSignatureValid: true });
  });

  it('keeps every attempt readable at GET /attempts, each result as the exact bytes its webhook carried', async () => {
    stack.receiver.reply = () => 200;
    const id = await newSession();
    await fail(id);
    const firstResult = (await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/result`, { key: key() })).text;
    expect((await retry(id)).status).toBe(200);

    const listed = await call(stack.baseUrl, 'GET', `/v1/sessions/${id}/attempts`, { key: key() });
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({
      session_id: id,
      attempt: 2,
      attempts: [
        { attempt: 1, status: 'FAILED', result: { attempt: 1 } },
        { attempt: 2, status: 'PENDING', decided_at: null, result: null },
      ],
    });
    expect(listed.text).toContain(`"result":${firstResult}}`);
  });

  it('starts capture afresh on the new attempt: a new token and challenge, the old token refused', async () => {
    const id = await newSession();
    const capture = (path: string, token?: string) =>
      fetch(`${stack.baseUrl}/v1/capture/${id}${path}`, {
        method: path === '/start' ? 'POST' : 'GET',
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
    const first = (await (await capture('/start')).json()) as CaptureStart;
    await fail(id);
    expect((await retry(id)).status).toBe(200);

    // No 409 although the first device was active moments ago: that device belonged to attempt 1.
    const second = await capture('/start');
    expect(second.status).toBe(200);
    const fresh = (await second.json()) as CaptureStart;
    expect(fresh.capture_token).not.toBe(first.capture_token);
    expect(fresh.challenge).toHaveLength(3);
    expect((await capture('/start', first.capture_token)).status).toBe(401);
    expect(await stack.session(id)).toMatchObject({ status: 'IN_PROGRESS', attempt: 2 });
  });

  it('allows three attempts in all: a fourth is 409 CONFLICT', async () => {
    const id = await newSession();
    for (const attempt of [2, 3]) {
      await fail(id);
      const retried = await retry(id);
      expect({ status: retried.status, attempt: retried.json.attempt }).toEqual({ status: 200, attempt });
    }
    await fail(id);
    const fourth = await retry<ApiError>(id);
    expect(fourth.status).toBe(409);
    expect(fourth.json.error.code).toBe('CONFLICT');
    expect(await stack.session(id)).toMatchObject({ status: 'FAILED', attempt: 3 });
  });

  it('gives 20 racing retries exactly one winner; the others get 409', async () => {
    const id = await newSession();
    await fail(id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => retry(id)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
    expect(await stack.session(id)).toMatchObject({ status: 'PENDING', attempt: 2 });
    expect(await stack.sessions.claims.countDocuments({ session_id: id, from: 'FAILED' })).toBe(1);
  });

  it('refuses a cancelled session, an open one and a VERIFIED one with 409', async () => {
    const cancelled = await newSession();
    expect((await call(stack.baseUrl, 'DELETE', `/v1/sessions/${cancelled}`, { key: key() })).status).toBe(200);
    const open = await newSession();
    const verified = await newSession();
    expect(await simulate(stack.baseUrl, key(), verified, 'VERIFIED')).toBe(200);
    for (const id of [cancelled, open, verified]) {
      const res = await retry<ApiError>(id);
      expect({ id, status: res.status, code: res.json.error.code }).toEqual({
        id,
        status: 409,
        code: 'CONFLICT',
      });
    }
  });

  it('answers 404 for a session that does not exist', async () => {
    const res = await retry<ApiError>('ses_000000000000000000000000');
    expect({ status: res.status, code: res.json.error.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  /** A webhook copy's body: the attempt's result, as GET /result serves it. */
  function delivered(copy: ReceivedCopy) {
    return JSON.parse(copy.body) as SessionResult;
  }

  function acknowledged(id: string) {
    return stack.receiver.copiesOf(id).filter((c) => c.answered !== null && c.answered >= 200 && c.answered < 300);
  }
});
