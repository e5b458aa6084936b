import type { ApiError, CreatedSession, Schemas } from '../support/api-bodies';
import { call, validSession } from '../support/http';
import { IssuedAccount, startTestApi, TestApi } from '../support/test-api';
import { CaptureClient } from './support/capture-client';

/** Reads Server-Sent Events one `data:` payload at a time. */
async function* events(res: Response): AsyncGenerator<Record<string, unknown>> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (data) yield JSON.parse(data);
    }
  }
}

/**
 * GET /v1/capture/{id}/progress and its event stream: what the desktop that handed the session to
 * a phone may know (no capture token), over the real API and store.
 */
describe('the coarse capture progress, without a capture token', () => {
  let api: TestApi;
  let account: IssuedAccount;
  const newSession = async () =>
    (
      await call<CreatedSession>(api.baseUrl, 'POST', '/v1/sessions', {
        key: account.sandbox_api_key,
        body: validSession({ return_url: 'https://shop.example/done' }),
      })
    ).json.session_id;
  const progress = <Body = Schemas['CaptureProgress']>(id: string) =>
    call<Body>(api.baseUrl, 'GET', `/v1/capture/${id}/progress`);

  beforeAll(async () => {
    api = await startTestApi({ CAPTURE_EVENTS_POLL_MS: '200' });
    account = await api.createAccount();
  });
  afterAll(() => api.stop());

  it('is waiting before any device starts, then on the document once the phone starts, and shows no per-capture state', async () => {
    const id = await newSession();
    expect((await progress(id)).json).toEqual({
      status: 'PENDING',
      decision: 'none',
      redirect_url: null,
      step: 'waiting',
    });
    const phone = new CaptureClient(api.baseUrl, id);
    expect((await phone.start()).status).toBe(200);
    const now = await progress(id);
    expect(now.status).toBe(200);
    expect(now.json).toEqual({
      status: 'IN_PROGRESS',
      decision: 'none',
      redirect_url: null,
      step: 'document',
    });
    expect(now.headers.get('cache-control')).toBe('no-store');
  });

  it('streams the progress and then the outcome, and ends the stream once decided', async () => {
    const id = await newSession();
    await new CaptureClient(api.baseUrl, id).start();
    const res = await fetch(`${api.baseUrl}/v1/capture/${id}/progress/events`);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = events(res);
    expect((await stream.next()).value).toMatchObject({ status: 'IN_PROGRESS', step: 'document' });

    expect((await call(api.baseUrl, 'DELETE', `/v1/sessions/${id}`, { key: account.sandbox_api_key })).status).toBe(
      200,
    );
    expect((await stream.next()).value).toEqual({
      status: 'FAILED',
      decision: 'done',
      redirect_url: `https://shop.example/done?session_id=${id}&status=FAILED`,
      step: 'done',
    });
    expect((await stream.next()).done).toBe(true);
  });

  it('answers 404 in the error shape for an unknown session', async () => {
    const res = await progress<ApiError>('ses_000000000000000000000000');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });
});
