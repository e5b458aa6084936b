/**
 * GET /metrics on the real API (FerretDB, Redis): requests are timed by route pattern, sessions
 * counted by environment and capture refusals by the code the client was given, and no session
 * id ever reaches a label.
 */
import type { ApiError, CreatedSession } from './support/api-bodies';
import { call, validSession } from './support/http';
import { IssuedAccount, startTestApi, TestApi } from './support/test-api';

/** The value of one sample of the exposition text, or undefined when the series is absent. */
function sample(metrics: string, name: string, labels: Record<string, string>): number | undefined {
  const line = metrics
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('the API metrics', () => {
  let api: TestApi;
  let account: IssuedAccount;
  let sessionId: string;
  let refusalCode: string;
  let metrics: string;

  beforeAll(async () => {
    api = await startTestApi();
    account = await api.createAccount();
    const created = await call<CreatedSession>(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      body: validSession(),
    });
    expect(created.status).toBe(201);
    sessionId = created.json.session_id;
    expect((await call(api.baseUrl, 'GET', `/v1/sessions/${sessionId}`, { key: account.sandbox_api_key })).status).toBe(
      200,
    );
    const refused = await call<ApiError>(api.baseUrl, 'POST', `/v1/capture/${sessionId}/start`, {
      headers: { Authorization: 'Bearer not-the-capture-token' },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    refusalCode = refused.json.error.code;
    expect((await call(api.baseUrl, 'GET', '/no/such/endpoint')).status).toBe(404);
    const scraped = await fetch(`${api.baseUrl}/metrics`);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    metrics = await scraped.text();
  }, 60_000);
  afterAll(async () => api?.stop());

  it('time requests by method, route pattern and status', () => {
    expect(
      sample(metrics, 'bioverify_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/sessions',
        status: '201',
      }),
    ).toBe(1);
    expect(
      sample(metrics, 'bioverify_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/v1/sessions/:id',
        status: '200',
      }),
    ).toBe(1);
    expect(
      sample(metrics, 'bioverify_http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status: '404',
      }),
    ).toBe(1);
  });

  it('count the sessions created by environment', () => {
    expect(sample(metrics, 'bioverify_sessions_created_total', { environment: 'sandbox' })).toBe(1);
    expect(sample(metrics, 'bioverify_sessions_created_total', { environment: 'production' })).toBeUndefined();
  });

  it('count a refused capture write by its step and the error code the client got', () => {
    expect(sample(metrics, 'bioverify_capture_uploads_total', { step: 'start', outcome: 'refused' })).toBe(1);
    expect(sample(metrics, 'bioverify_capture_refusals_total', { step: 'start', reason: refusalCode })).toBe(1);
  });

  it('time each stage of a keyed request by a fixed stage name', () => {
    const stage = (name: string) => sample(metrics, 'bioverify_http_stage_duration_seconds_count', { stage: name });
    expect([stage('authenticate'), stage('rate_limit'), stage('body'), stage('create'), stage('status')]).toEqual([
      2, 2, 1, 1, 1,
    ]);
  });

  it("time the store's round trips by command and expose its busy retries", () => {
    const command = (name: string) =>
      sample(metrics, 'bioverify_store_command_duration_seconds_count', { command: name, outcome: 'ok' }) ?? 0;
    // The create inserts the session; authentication and the status read find by _id.
    expect(command('insert')).toBeGreaterThanOrEqual(1);
    expect(command('find')).toBeGreaterThanOrEqual(3);
    expect(sample(metrics, 'bioverify_store_busy_retries_total', { outcome: 'retried' })).toEqual(expect.any(Number));
    expect(sample(metrics, 'bioverify_store_busy_retries_total', { outcome: 'exhausted' })).toEqual(expect.any(Number));
  });

  it('never carry a session id, an account id or a raw URL in a label', () => {
    expect(metrics).not.toContain(sessionId);
    expect(metrics).not.toContain(account.account_id);
    expect(metrics).not.toContain('/no/such/endpoint');
  });
});
