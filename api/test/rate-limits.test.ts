import type { ApiError, Schemas } from './support/api-bodies';
import { call, CallResult } from './support/http';
import { apiProcessEnv } from './support/api-process-env';
import { IssuedAccount, startTestApi, TestApi } from './support/test-api';
import { ServiceProcess, startApiProcess } from '../../scripts/test-support/service-process';
import plansFile from '../src/domain/pricing/plans.json';

const STARTER = plansFile.rate_limits.starter;

/**
 * Enforced rate limits (contract.md): per API key from the plan, counted in Redis so that any
 * number of API processes share one limit; RateLimit-* headers on every keyed response, 429
 * RATE_LIMITED with Retry-After beyond it.
 */
describe('rate limits', () => {
  let api: TestApi;
  const processes: ServiceProcess[] = [];
  const price = <Body = Schemas['Price']>(baseUrl: string, key: string) =>
    call<Body>(baseUrl, 'GET', '/v1/pricing/FR', { key });
  const limitHeaders = (res: CallResult) => ({
    limit: Number(res.headers.get('ratelimit-limit')),
    remaining: Number(res.headers.get('ratelimit-remaining')),
    reset: Number(res.headers.get('ratelimit-reset')),
  });

  beforeAll(async () => {
    api = await startTestApi();
    const env = apiProcessEnv(api.config);
    processes.push(
      ...(await Promise.all([startApiProcess(env, undefined, 'api-a'), startApiProcess(env, undefined, 'api-b')])),
    );
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await api.stop();
  });

  it('shares one limit across two API processes: the headers count down across both, and the request past it is 429 with Retry-After', async () => {
    const account: IssuedAccount = await api.createAccount();
    const urls = processes.map((p) => `http://127.0.0.1:${p.port}`);
    const seen: number[] = [];
    for (let i = 0; i < STARTER.sandbox; i += 1) {
      const res = await price(urls[i % 2], account.sandbox_api_key);
      expect(res.status).toBe(200);
      const headers = limitHeaders(res);
      expect(headers.limit).toBe(STARTER.sandbox);
      expect(headers.reset).toBeGreaterThanOrEqual(1);
      expect(headers.reset).toBeLessThanOrEqual(plansFile.rate_limits.window_seconds);
      seen.push(headers.remaining);
    }
    expect(seen).toEqual(Array.from({ length: STARTER.sandbox }, (_, i) => STARTER.sandbox - 1 - i));

    for (const url of urls) {
      const refused = await price<ApiError>(url, account.sandbox_api_key);
      expect(refused.status).toBe(429);
      expect(refused.json.error.code).toBe('RATE_LIMITED');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(plansFile.rate_limits.window_seconds);
      expect(limitHeaders(refused)).toMatchObject({ limit: STARTER.sandbox, remaining: 0 });
    }

    // The production key of the same account counts apart, against its own (larger) limit.
    const live = await price(urls[0], account.live_api_key);
    expect(live.status).toBe(200);
    expect(limitHeaders(live)).toMatchObject({
      limit: STARTER.production,
      remaining: STARTER.production - 1,
    });

    // Unkeyed surfaces are never limited by key.
    for (const path of ['/healthz', '/v1/credentials/cred_unknown', '/docs/openapi.json']) {
      const res = await call(urls[1], 'GET', path, { key: account.sandbox_api_key });
      expect({ path, status: res.status === 429, header: res.headers.get('ratelimit-limit') }).toEqual({
        path,
        status: false,
        header: null,
      });
    }
  });

  it('gives each API key its own count and each plan its own limit', async () => {
    const growth = await api.createAccount({ plan: 'growth' });
    const starter = await api.createAccount();
    const [a, b] = await Promise.all([
      price(api.baseUrl, growth.sandbox_api_key),
      price(api.baseUrl, starter.sandbox_api_key),
    ]);
    expect(limitHeaders(a)).toMatchObject({
      limit: plansFile.rate_limits.growth.sandbox,
      remaining: plansFile.rate_limits.growth.sandbox - 1,
    });
    expect(limitHeaders(b)).toMatchObject({ limit: STARTER.sandbox, remaining: STARTER.sandbox - 1 });
  });

  it('sets the headers on keyed error responses too', async () => {
    const account = await api.createAccount();
    const res = await call(api.baseUrl, 'GET', '/v1/sessions/ses_000000000000000000000000', {
      key: account.sandbox_api_key,
    });
    expect(res.status).toBe(404);
    expect(limitHeaders(res)).toMatchObject({ limit: STARTER.sandbox, remaining: STARTER.sandbox - 1 });
  });
});
