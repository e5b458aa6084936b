import type { ApiError, CreatedSession, SessionStatus } from './support/api-bodies';
import { call, validSession } from './support/http';
import { IssuedAccount, startTestApi, TestApi } from './support/test-api';

describe('authentication and tenancy (spec: Authentication; contract: Errors)', () => {
  let api: TestApi;
  let alice: IssuedAccount;
  let bob: IssuedAccount;
  let aliceSandboxSession: string;
  let aliceLiveSession: string;

  beforeAll(async () => {
    api = await startTestApi();
    alice = await api.createAccount();
    bob = await api.createAccount();
    aliceSandboxSession = (
      await call<CreatedSession>(api.baseUrl, 'POST', '/v1/sessions', {
        key: alice.sandbox_api_key,
        body: validSession(),
      })
    ).json.session_id;
    aliceLiveSession = (
      await call<CreatedSession>(api.baseUrl, 'POST', '/v1/sessions', { key: alice.live_api_key, body: validSession() })
    ).json.session_id;
  });
  afterAll(() => api.stop());

  it('answers 401 UNAUTHORIZED when the X-Api-Key header is missing', async () => {
    const res = await call<ApiError>(api.baseUrl, 'POST', '/v1/sessions', { body: validSession() });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('UNAUTHORIZED');
  });

  it.each([
    ['a key without a known prefix', 'sk_test_0123456789abcdefghijklmnopqrstuvwxyz'],
    ['a prefix with too short a body', 'vk_sand_short'],
    ['a key with characters outside base62', `vk_live_${'!'.repeat(40)}`],
  ])('answers 401 INVALID_KEY_FORMAT for %s', async (_label, key) => {
    const res = await call<ApiError>(api.baseUrl, 'GET', `/v1/sessions/${aliceSandboxSession}`, { key });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('INVALID_KEY_FORMAT');
  });

  it('answers 401 INVALID_KEY_FORMAT for a well-formed key that matches no key on record', async () => {
    const res = await call<ApiError>(api.baseUrl, 'GET', `/v1/sessions/${aliceSandboxSession}`, {
      key: `vk_sand_${'A'.repeat(40)}`,
    });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('INVALID_KEY_FORMAT');
  });

  it('stamps the environment from the key alone', async () => {
    const sandbox = await call<SessionStatus>(api.baseUrl, 'GET', `/v1/sessions/${aliceSandboxSession}`, {
      key: alice.sandbox_api_key,
    });
    const live = await call<SessionStatus>(api.baseUrl, 'GET', `/v1/sessions/${aliceLiveSession}`, {
      key: alice.live_api_key,
    });
    expect(sandbox.json.environment).toBe('sandbox');
    expect(live.json.environment).toBe('production');
  });

  it.each([
    ['GET', ''],
    ['GET', '/result'],
    ['DELETE', ''],
  ])('answers 403 FORBIDDEN to another account on %s /v1/sessions/{id}%s', async (method, suffix) => {
    const res = await call<ApiError>(api.baseUrl, method, `/v1/sessions/${aliceSandboxSession}${suffix}`, {
      key: bob.sandbox_api_key,
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('FORBIDDEN');
  });

  it('answers 403 FORBIDDEN to the same account with the other environment, both ways', async () => {
    const liveReadsSandbox = await call<ApiError>(api.baseUrl, 'GET', `/v1/sessions/${aliceSandboxSession}`, {
      key: alice.live_api_key,
    });
    const sandboxReadsLive = await call(api.baseUrl, 'GET', `/v1/sessions/${aliceLiveSession}`, {
      key: alice.sandbox_api_key,
    });
    expect([liveReadsSandbox.status, sandboxReadsLive.status]).toEqual([403, 403]);
    expect(liveReadsSandbox.json.error.code).toBe('FORBIDDEN');
  });

  it('leaves a session untouched when another account tries to cancel it', async () => {
    await call(api.baseUrl, 'DELETE', `/v1/sessions/${aliceSandboxSession}`, { key: bob.sandbox_api_key });
    const res = await call<SessionStatus>(api.baseUrl, 'GET', `/v1/sessions/${aliceSandboxSession}`, {
      key: alice.sandbox_api_key,
    });
    expect(res.json.status).toBe('PENDING');
  });

  it('answers 404 NOT_FOUND for a session id that does not exist', async () => {
    const res = await call<ApiError>(api.baseUrl, 'GET', '/v1/sessions/ses_0000000000000000000000000', {
      key: alice.sandbox_api_key,
    });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });

  it('stores only a hash of each key, never the key itself', async () => {
    const { connectMongo } = await import('../src/data-access/mongo-connection');
    const store = await connectMongo(api.config.MONGODB_URI);
    const everything = JSON.stringify([
      await store.collection('api_keys').find().toArray(),
      await store.collection('accounts').find().toArray(),
    ]);
    await store.close();
    expect(everything).not.toContain(alice.sandbox_api_key);
    expect(everything).not.toContain(alice.live_api_key);
    expect(everything).not.toContain(alice.webhook_secret);
  });
});
