import { call, validSession } from './support/http';
import type { CreatedSession } from './support/api-bodies';
import { IssuedAccount, startTestApi, TestApi } from './support/test-api';

describe('what creating a session keeps: its metadata byte for byte, a usage count per key, logs without personal data', () => {
  let api: TestApi;
  let account: IssuedAccount;
  const create = async (overrides: Record<string, unknown> = {}, key = account.sandbox_api_key) =>
    call(api.baseUrl, 'POST', '/v1/sessions', { key, body: validSession(overrides) });
  const simulate = (id: string, body: unknown, key = account.sandbox_api_key) =>
    call(api.baseUrl, 'POST', `/v1/sessions/${id}/simulate`, { key, body });

  beforeAll(async () => {
    api = await startTestApi();
    account = await api.createAccount();
  });
  afterAll(() => api.stop());

  it('echoes metadata byte for byte: key order, number spelling, escapes and whitespace', async () => {
    const metadata =
      '{ "z": 1.0, "a": [1e3, -0.50], "\\u00e9t\\u00e9": "caf\\u00e9 ☕", "nested": {"k":null,"t":true} }';
    const raw = `{"return_url":"https://example.com/r","webhook_url":"https://example.com/w","expected_name":"Jane Doe","metadata":${metadata}}`;
    const posted = await call(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      rawBody: raw,
    });
    expect(posted.status).toBe(201);
    const { session_id } = posted.json as CreatedSession;
    const res = await simulate(session_id, { outcome: 'VERIFIED' });
    expect(res.text.endsWith(`"metadata":${metadata}}`)).toBe(true);
    const stored = await call(api.baseUrl, 'GET', `/v1/sessions/${session_id}/result`, {
      key: account.sandbox_api_key,
    });
    expect(Buffer.from(stored.text).includes(Buffer.from(metadata))).toBe(true);
  });

  it('records session creations per key per minute in Redis', async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(api.config.REDIS_URL);
    const counted = async () => {
      const keys = await redis.keys(`${api.config.REDIS_PREFIX}:usage:session-creations:*`);
      const values = await Promise.all(keys.map((k) => redis.get(k)));
      return values.reduce((sum, v) => sum + Number(v), 0);
    };
    const before = await counted();
    await create();
    await create();
    const after = await counted();
    redis.disconnect();
    expect(after - before).toBe(2);
  });

  it('never writes keys, names or metadata into its logs', async () => {
    await create({ expected_name: 'Zebulon Quixote-Marchetti', metadata: { customer: 'cust-secret-4471' } });
    const logs = api.logLines.join('');
    expect(logs).toContain('"route":"/v1/sessions/"');
    expect(logs).not.toContain(account.sandbox_api_key);
    expect(logs).not.toContain('Zebulon');
    expect(logs).not.toContain('cust-secret-4471');
  });
});
