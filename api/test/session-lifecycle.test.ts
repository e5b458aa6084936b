import { call, validSession } from './support/http';
import type { CreatedSession, ApiError, SessionResult, SessionStatus } from './support/api-bodies';
import { IssuedAccount, startTestApi, TestApi } from './support/test-api';

describe('session lifecycle (spec: States and transitions; contract: Transitions, Sandbox)', () => {
  let api: TestApi;
  let account: IssuedAccount;
  const create = async (overrides: Record<string, unknown> = {}, key = account.sandbox_api_key) =>
    call(api.baseUrl, 'POST', '/v1/sessions', { key, body: validSession(overrides) });
  const simulate = (id: string, body: unknown, key = account.sandbox_api_key) =>
    call(api.baseUrl, 'POST', `/v1/sessions/${id}/simulate`, { key, body });
  const created = async (overrides: Record<string, unknown> = {}, key = account.sandbox_api_key) =>
    (await create(overrides, key)).json as CreatedSession;
  const statusOf = (res: { json: unknown }) => (res.json as SessionStatus).status;
  const errorOf = (res: { json: unknown }) => (res.json as ApiError).error;

  beforeAll(async () => {
    api = await startTestApi();
    account = await api.createAccount();
  });
  afterAll(() => api.stop());

  it('creates a PENDING session with an unguessable id and an absolute verification_url', async () => {
    const res = await create();
    expect(res.status).toBe(201);
    const body = res.json as CreatedSession;
    expect(body.session_id).toMatch(/^ses_[0-9A-Za-z]{22,}$/);
    expect(body.verification_url).toBe(`${api.config.PUBLIC_BASE_URL}/v/${body.session_id}`);
    expect(body).toMatchObject({ status: 'PENDING', environment: 'sandbox' });
    const status = await call(api.baseUrl, 'GET', `/v1/sessions/${body.session_id}`, {
      key: account.sandbox_api_key,
    });
    expect(status.json).toEqual({
      session_id: body.session_id,
      status: 'PENDING',
      confidence: null,
      environment: 'sandbox',
    });
  });

  it('moves PENDING to IN_PROGRESS when the applicant opens verification_url, once', async () => {
    const { session_id } = await created();
    const page = await call(api.baseUrl, 'GET', `/v/${session_id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const again = await call(api.baseUrl, 'GET', `/v/${session_id}`);
    expect(again.status).toBe(200);
    const status = await call(api.baseUrl, 'GET', `/v1/sessions/${session_id}`, {
      key: account.sandbox_api_key,
    });
    expect(statusOf(status)).toBe('IN_PROGRESS');
  });

  it('answers 409 CONFLICT for the result of a session that is not decided yet', async () => {
    const { session_id } = await created();
    const res = await call(api.baseUrl, 'GET', `/v1/sessions/${session_id}/result`, {
      key: account.sandbox_api_key,
    });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe('CONFLICT');
  });

  it('completes a sandbox session to VERIFIED with the specimen person, checks, confidence, verified_until and a working credential', async () => {
    const { session_id } = await created();
    const before = Date.now();
    const res = await simulate(session_id, { outcome: 'VERIFIED' });
    expect(res.status).toBe(200);
    const result = res.json as SessionResult;
    expect(result).toMatchObject({
      session_id,
      status: 'VERIFIED',
      environment: 'sandbox',
      checks: {
        document: 'PASS',
        liveness: 'PASS',
        antispoof: 'PASS',
        face_match: 'PASS',
        document_chip: 'NOT_PERFORMED',
      },
      failure_reason: null,
      attempt: 1,
    });
    expect(result.checks).not.toHaveProperty('sanctions');
    expect(result.person).toMatchObject({ document_type: 'passport', document_country: 'NL' });
    expect(result.person?.dob).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(result.confidence).toBeGreaterThan(0.5);
    expect(result.confidence).toBeLessThanOrEqual(1);
    const until = Date.parse(result.verified_until ?? '');
    expect(until).toBeGreaterThanOrEqual(before + 364 * 86_400_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 365 * 86_400_000);

    const stored = await call(api.baseUrl, 'GET', `/v1/sessions/${session_id}/result`, {
      key: account.sandbox_api_key,
    });
    expect(stored.text).toBe(res.text);
    const credential = await call(api.baseUrl, 'GET', `/v1/credentials/${result.credential_token}`);
    expect(credential.status).toBe(200);
    expect(credential.headers.get('access-control-allow-origin')).toBe('*');
    expect(credential.json).toEqual({
      valid: true,
      status: 'VERIFIED',
      name: result.person?.name,
      document_type: 'passport',
      document_country: 'NL',
      verified_until: result.verified_until,
    });
    const status = await call(api.baseUrl, 'GET', `/v1/sessions/${session_id}`, {
      key: account.sandbox_api_key,
    });
    expect(status.json).toEqual({
      session_id,
      status: 'VERIFIED',
      confidence: result.confidence,
      environment: 'sandbox',
    });
  });

  it.each([
    ['DOCUMENT_EXPIRED', 'document'],
    ['LIVENESS_FAILED', 'liveness'],
    ['SPOOF_DETECTED', 'antispoof'],
    ['FACE_MATCH_BELOW_THRESHOLD', 'face_match'],
    ['KNOWN_FACE', 'face_match'],
    ['CHIP_CLONE_SUSPECTED', 'document_chip'],
  ])(
    'completes a sandbox session to FAILED with %s, failing the %s check and issuing no credential',
    async (reason, check) => {
      const { session_id } = await created();
      const res = await simulate(session_id, { outcome: 'FAILED', failure_reason: reason });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        status: 'FAILED',
        failure_reason: reason,
        verified_until: null,
        credential_token: null,
      });
      expect((res.json as SessionResult).checks[check as keyof SessionResult['checks']]).toBe('FAIL');
    },
  );

  it('reports a sanctions verdict only for accounts with the watchlist add-on', async () => {
    const screened = await api.createAccount({ watchlist: true });
    const { session_id } = await created({}, screened.sandbox_api_key);
    const res = await simulate(
      session_id,
      { outcome: 'FAILED', failure_reason: 'SANCTIONS_MATCH' },
      screened.sandbox_api_key,
    );
    expect((res.json as SessionResult).checks.sanctions).toBe('MATCH');
  });

  it('refuses simulation to production keys with 403 FORBIDDEN and leaves the session open', async () => {
    const { session_id } = await created({}, account.live_api_key);
    const res = await simulate(session_id, { outcome: 'VERIFIED' }, account.live_api_key);
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe('FORBIDDEN');
    const status = await call(api.baseUrl, 'GET', `/v1/sessions/${session_id}`, {
      key: account.live_api_key,
    });
    expect(statusOf(status)).toBe('PENDING');
  });

  it('rejects a simulated outcome outside the contract with 422, naming the field', async () => {
    const { session_id } = await created();
    const res = await simulate(session_id, { outcome: 'FAILED', failure_reason: 'CANCELLED_BY_API' });
    expect(res.status).toBe(422);
    expect(errorOf(res).details?.map((d) => d.field)).toContain('failure_reason');
  });

  it('cancels an open session to FAILED / CANCELLED_BY_API and then refuses a second cancel with 409', async () => {
    const { session_id } = await created();
    const res = await call(api.baseUrl, 'DELETE', `/v1/sessions/${session_id}`, {
      key: account.sandbox_api_key,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ session_id, status: 'FAILED', failure_reason: 'CANCELLED_BY_API' });
    const again = await call(api.baseUrl, 'DELETE', `/v1/sessions/${session_id}`, {
      key: account.sandbox_api_key,
    });
    expect(again.status).toBe(409);
    const result = await call(api.baseUrl, 'GET', `/v1/sessions/${session_id}/result`, {
      key: account.sandbox_api_key,
    });
    expect(result.json).toMatchObject({
      status: 'FAILED',
      failure_reason: 'CANCELLED_BY_API',
      credential_token: null,
    });
  });

  it.each(['VERIFIED', 'FAILED'])('refuses to cancel or re-decide a %s session with 409 CONFLICT', async (outcome) => {
    const { session_id } = await created();
    await simulate(session_id, outcome === 'VERIFIED' ? { outcome } : { outcome, failure_reason: 'LIVENESS_FAILED' });
    const cancel = await call(api.baseUrl, 'DELETE', `/v1/sessions/${session_id}`, {
      key: account.sandbox_api_key,
    });
    const redecide = await simulate(session_id, { outcome: 'VERIFIED' });
    expect([cancel.status, redecide.status]).toEqual([409, 409]);
    expect(errorOf(cancel).code).toBe('CONFLICT');
  });

  it('lets exactly one of 20 concurrent cancellations win; the other 19 get 409', async () => {
    const { session_id } = await created();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(api.baseUrl, 'DELETE', `/v1/sessions/${session_id}`, { key: account.sandbox_api_key }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  it('lets exactly one of a simulation and a cancellation racing on one session win', async () => {
    const { session_id } = await created();
    const [sim, cancel] = await Promise.all([
      simulate(session_id, { outcome: 'VERIFIED' }),
      call(api.baseUrl, 'DELETE', `/v1/sessions/${session_id}`, { key: account.sandbox_api_key }),
    ]);
    expect([sim.status, cancel.status].sort()).toEqual([200, 409]);
  });
});
