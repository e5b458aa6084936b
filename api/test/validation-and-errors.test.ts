import { connectMongo } from '../src/data-access/mongo-connection';
import type { ApiError } from './support/api-bodies';
import { call, CallResult, validSession } from './support/http';
import { IssuedAccount, startTestApi, TestApi } from './support/test-api';

describe('request validation and the error shape (contract: Errors, Request validation)', () => {
  let api: TestApi;
  let account: IssuedAccount;
  const post = (body: unknown, key?: string) =>
    call<ApiError>(api.baseUrl, 'POST', '/v1/sessions', { key: key ?? account.sandbox_api_key, body });
  const fieldsOf = (res: CallResult<ApiError>) => {
    const { details } = res.json.error;
    if (!details) throw new Error(`the error names no field: ${res.text}`);
    return details.map((d) => d.field).sort();
  };

  beforeAll(async () => {
    api = await startTestApi();
    account = await api.createAccount();
  });
  afterAll(() => api.stop());

  it('lists every bad field at once, with 422 VALIDATION_ERROR and the request id', async () => {
    const res = await post({
      return_url: 'ftp://example.com',
      webhook_url: 'not a url',
      expected_name: '   ',
      expected_dob: '1990-02-30',
      expected_address: 'x'.repeat(501),
      locale: 'de',
      metadata: [1, 2],
      colour: 'blue',
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(
      [
        'colour',
        'expected_address',
        'expected_dob',
        'expected_name',
        'locale',
        'metadata',
        'return_url',
        'webhook_url',
      ].sort(),
    );
    expect(res.json.request_id).toBe(res.headers.get('x-request-id'));
    for (const detail of res.json.error.details ?? []) expect(typeof detail.message).toBe('string');
  });

  it.each([
    ['return_url', { return_url: 'javascript:alert(1)' }],
    ['return_url', { return_url: '/relative/path' }],
    ['webhook_url', { webhook_url: 'mailto:a@example.com' }],
    ['expected_name', { expected_name: 'x'.repeat(201) }],
    ['expected_name', { expected_name: 42 }],
    ['expected_dob', { expected_dob: '2999-01-01' }],
    ['expected_dob', { expected_dob: '21/04/1990' }],
    ['metadata', { metadata: 'a string' }],
    ['metadata', { metadata: null }],
    ['document_chip', { document_chip: 'maybe' }],
    ['document_chip', { document_chip: true }],
  ])('rejects a bad %s (%j) with 422 naming it', async (field, override) => {
    const res = await post(validSession(override));
    expect(res.status).toBe(422);
    expect(fieldsOf(res)).toEqual([field]);
  });

  it.each([
    ['off', 'off'],
    ['optional', 'optional'],
    ['required', 'required'],
    ['absent (the default)', undefined],
  ])('stores document_chip %s on the session', async (_label, value) => {
    const res = await call<{ session_id: string }>(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      body: validSession(value === undefined ? {} : { document_chip: value }),
    });
    expect(res.status).toBe(201);
    const store = await connectMongo(api.config.MONGODB_URI);
    try {
      const stored = await store.collection('sessions').findOne({ _id: res.json.session_id as never });
      expect(stored?.document_chip).toBe(value ?? 'optional');
    } finally {
      await store.close();
    }
  });

  it('names each missing required field', async () => {
    const res = await post({});
    expect(fieldsOf(res)).toEqual(['expected_name', 'return_url', 'webhook_url']);
  });

  it('accepts metadata up to 8 KiB serialized and rejects it beyond', async () => {
    const fits = await post(validSession({ metadata: { blob: 'x'.repeat(8 * 1024 - 12) } }));
    const tooBig = await post(validSession({ metadata: { blob: 'x'.repeat(8 * 1024) } }));
    expect(fits.status).toBe(201);
    expect(tooBig.status).toBe(422);
    expect(fieldsOf(tooBig)).toEqual(['metadata']);
  });

  it('requires an https webhook_url for production keys only', async () => {
    const live = await post(validSession({ webhook_url: 'http://example.com/hook' }), account.live_api_key);
    const sandbox = await post(validSession({ webhook_url: 'http://example.com/hook' }));
    expect(live.status).toBe(422);
    expect(fieldsOf(live)).toEqual(['webhook_url']);
    expect(sandbox.status).toBe(201);
  });

  it('answers malformed JSON with 422 in the error shape, not a 500', async () => {
    const res = await call<ApiError>(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      rawBody: '{"return_url": "https://a.b",',
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
    expect(res.json.error.details).toEqual([{ field: 'body', message: 'malformed JSON' }]);
  });

  it.each([
    ['a JSON array', '[]'],
    ['a JSON string', '"hello"'],
    ['JSON null', 'null'],
  ])('answers %s body with 422', async (_label, raw) => {
    const res = await call(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      rawBody: raw,
    });
    expect(res.status).toBe(422);
  });

  it('answers an oversize body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await post(validSession({ metadata: { blob: 'x'.repeat(200 * 1024) } }));
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a non-JSON content type with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await call<ApiError>(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      rawBody: 'return_url=https://a.b',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers unknown routes and malformed session ids with 404 in the error shape', async () => {
    const route = await call<ApiError>(api.baseUrl, 'GET', '/v1/nothing-here', { key: account.sandbox_api_key });
    const id = await call<ApiError>(api.baseUrl, 'GET', '/v1/sessions/not-a-session-id', {
      key: account.sandbox_api_key,
    });
    expect([route.status, id.status]).toEqual([404, 404]);
    expect(route.json.error.code).toBe('NOT_FOUND');
    expect(id.json.error.code).toBe('NOT_FOUND');
  });

  it('puts X-Request-Id on every response, success or error, and keeps a safe caller-supplied one', async () => {
    const ok = await call(api.baseUrl, 'GET', '/healthz');
    const err = await call(api.baseUrl, 'GET', '/v1/sessions/x');
    const mine = await call(api.baseUrl, 'GET', '/healthz', {
      headers: { 'X-Request-Id': 'trace-1234abcd' },
    });
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/);
    expect(err.headers.get('x-request-id')).toMatch(/^req_/);
    expect(mine.headers.get('x-request-id')).toBe('trace-1234abcd');
  });

  it('never leaks a stack trace in an error body', async () => {
    const res = await call(api.baseUrl, 'POST', '/v1/sessions', {
      key: account.sandbox_api_key,
      rawBody: '{bad',
    });
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});
