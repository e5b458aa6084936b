import type { CreatedSession } from './support/api-bodies';
import { call, validSession } from './support/http';
import { IssuedAccount, startTestApi, TestApi } from './support/test-api';
import { arrayContaining, stringMatching } from '../../scripts/test-support/typed-matchers';

const PAGE = 'http://shop.example:3000';

/**
 * A page on another origin creating a session with the widget's `apiKey` (contract, "Widget
 * events"): sandbox keys work from the browser, production keys are refused. Over the real API.
 */
describe('creating a session from a browser page on another origin', () => {
  let api: TestApi;
  let account: IssuedAccount;

  beforeAll(async () => {
    api = await startTestApi();
    account = await api.createAccount();
  });
  afterAll(() => api.stop());

  it('grants the preflight of POST /v1/sessions with the key and Idempotency-Key headers', async () => {
    const res = await call(api.baseUrl, 'OPTIONS', '/v1/sessions', {
      headers: {
        Origin: PAGE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,idempotency-key,x-api-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/X-Api-Key/);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/);
  });

  it('creates a sandbox session and lets the page read the answer, its errors and the rate-limit headers', async () => {
    const created = await call(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      body: validSession({ return_url: `${PAGE}/done` }),
      headers: { Origin: PAGE },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'PENDING', environment: 'sandbox' });
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = (created.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(
      arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id']),
    );
    expect(Number(created.headers.get('ratelimit-remaining'))).toBeGreaterThan(0);

    const invalid = await call(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      body: validSession({ expected_name: '' }),
      headers: { Origin: PAGE },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a production key from a page with 403 FORBIDDEN in the error shape and no CORS headers, and neither counts nor runs the request', async () => {
    const remaining = async () =>
      Number(
        (await call(api.baseUrl, 'GET', '/v1/pricing/FR', { key: account.live_api_key })).headers.get(
          'ratelimit-remaining',
        ),
      );
    const before = await remaining();
    const refused = await call(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.live_api_key,
      body: validSession(),
      headers: { Origin: PAGE },
    });
    const after = await remaining();

    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      error: { code: 'FORBIDDEN', message: stringMatching(/production API key/) },
      request_id: refused.headers.get('x-request-id'),
    });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    // Only the second pricing call was counted: the refused one never reached authentication.
    expect(before - after).toBe(1);
  });

  it('still creates production sessions from a backend, which sends no Origin', async () => {
    const created = await call<CreatedSession>(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.live_api_key,
      body: validSession(),
    });
    expect(created.status).toBe(201);
    expect(created.json.environment).toBe('production');
    expect(created.headers.get('access-control-allow-origin')).toBeNull();
  });
});
