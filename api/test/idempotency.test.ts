import path from 'node:path';
import { Connection, Model } from 'mongoose';
import { connectMongo } from '../src/data-access/mongo-connection';
import { SessionDocument, sessionModel } from '../src/data-access/session.model';
import { apiProcessEnv } from './support/api-process-env';
import type { ApiError, CreatedSession, RetriedSession, SuccessOrError } from './support/api-bodies';
import { call, CallResult, validSession } from './support/http';
import { IssuedAccount, startTestApi, TestApi } from './support/test-api';
import { ServiceProcess, startApiProcess } from '../../scripts/test-support/service-process';

const DIES_AFTER_INSERT = path.join(__dirname, 'support/api-dies-after-session-insert.ts');

/** Idempotency-Key on POST /v1/sessions and /retry (contract.md), on the real API, FerretDB and Redis. */
describe('Idempotency-Key', () => {
  let api: TestApi;
  let account: IssuedAccount;
  let store: Connection;
  let sessions: Model<SessionDocument>;
  let n = 0;
  const freshKey = () => `order-${Date.now()}-${(n += 1)}`;
  const create = <Body = CreatedSession>(
    idempotencyKey: string,
    body: unknown = validSession(),
    baseUrl = api.baseUrl,
    key = account.sandbox_api_key,
  ) => call<Body>(baseUrl, 'POST', '/v1/sessions', { key, body, headers: { 'Idempotency-Key': idempotencyKey } });
  const sessionsOf = (accountId: string) =>
    sessions.find({ account_id: accountId }, { _id: 1 }).lean<Array<{ _id: string }>>().exec();

  beforeAll(async () => {
    api = await startTestApi({ IDEMPOTENCY_LOCK_SECONDS: '1' });
    account = await api.createAccount();
    store = await connectMongo(api.config.MONGODB_URI);
    sessions = sessionModel(store);
  });
  afterAll(async () => {
    await store.close();
    await api.stop();
  });

  it('replays the first response byte for byte, with Idempotent-Replayed: true, and creates one session', async () => {
    const key = freshKey();
    const before = (await sessionsOf(account.account_id)).length;
    const first = await create(key);
    const again = await create(key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.text).toBe(first.text);
    expect((await sessionsOf(account.account_id)).length).toBe(before + 1);
  });

  it('refuses the same key with another body: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = freshKey();
    expect((await create(key)).status).toBe(201);
    const other = await create<ApiError>(key, validSession({ expected_name: 'John Roe' }));
    expect(other.status).toBe(422);
    expect(other.json.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('scopes keys to the API key: the same key under another API key is a new request', async () => {
    const key = freshKey();
    const sandbox = await create(key);
    const other = await api.createAccount();
    const elsewhere = await create(key, validSession(), api.baseUrl, other.sandbox_api_key);
    expect([sandbox.status, elsewhere.status]).toEqual([201, 201]);
    expect(elsewhere.json.session_id).not.toBe(sandbox.json.session_id);
  });

  it('answers 20 concurrent identical requests with one session: the rest replay it or get 409 while it runs', async () => {
    const key = freshKey();
    const before = (await sessionsOf(account.account_id)).length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => create<SuccessOrError<CreatedSession>>(key)));
    const created = answers.filter((a) => a.status === 201);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(created.length + conflicts.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.json.session_id)).size).toBe(1);
    for (const conflict of conflicts) expect(conflict.json.error?.code).toBe('CONFLICT');
    expect((await sessionsOf(account.account_id)).length).toBe(before + 1);
  });

  it('rejects a key longer than 255 characters or with a control character', async () => {
    for (const bad of ['x'.repeat(256), 'tab\there']) {
      const res = await create<ApiError>(bad);
      expect({ status: res.status, code: res.json.error.code }).toEqual({
        status: 422,
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('replays a retry instead of answering 409 for the second call', async () => {
    const id = (await create(freshKey())).json.session_id;
    const simulate = await call(api.baseUrl, 'POST', `/v1/sessions/${id}/simulate`, {
      key: account.sandbox_api_key,
      body: { outcome: 'FAILED', failure_reason: 'LIVENESS_FAILED' },
    });
    expect(simulate.status).toBe(200);
    const key = freshKey();
    const retry = () =>
      call<RetriedSession>(api.baseUrl, 'POST', `/v1/sessions/${id}/retry`, {
        key: account.sandbox_api_key,
        headers: { 'Idempotency-Key': key },
      });
    const first = await retry();
    const again = await retry();
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(first.json.attempt).toBe(2);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('creates one session when the API process is killed after writing it and the client retries on another process', async () => {
    const processEnv = apiProcessEnv(api.config);
    const other = await api.createAccount();
    const key = freshKey();
    let dying: ServiceProcess | null = null;
    let healthy: ServiceProcess | null = null;
    try {
      dying = await startApiProcess(processEnv, DIES_AFTER_INSERT, 'api-dies-after-insert');
      const lost = await create(key, validSession(), `http://127.0.0.1:${dying.port}`, other.sandbox_api_key).then(
        (answer) => `answered ${answer.status}`,
        (error: Error) => error.message,
      );
      expect(lost).toBe('fetch failed');
      expect(await dying.exited).toBeNull();
      const written = await sessionsOf(other.account_id);
      expect(written).toHaveLength(1);

      healthy = await startApiProcess(processEnv);
      let answer: CallResult<CreatedSession>;
      // 409 while the dead process's lock (IDEMPOTENCY_LOCK_SECONDS) lasts; then this process re-runs it.
      for (;;) {
        answer = await create(key, validSession(), `http://127.0.0.1:${healthy.port}`, other.sandbox_api_key);
        if (answer.status !== 409) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(answer.status).toBe(201);
      expect(answer.json.session_id).toBe(written[0]._id);
      expect(await sessionsOf(other.account_id)).toHaveLength(1);
      const replay = await create(key, validSession(), `http://127.0.0.1:${healthy.port}`, other.sandbox_api_key);
      expect(replay.text).toBe(answer.text);
    } finally {
      await dying?.kill('SIGKILL');
      await healthy?.kill();
    }
  });
});
