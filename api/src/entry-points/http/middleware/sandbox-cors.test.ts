import express from 'express';
import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { AppError } from '../../../shared/app-error';
import { sandboxCors } from './sandbox-cors';

const SANDBOX_KEY = `vk_sand_${'a'.repeat(32)}`;
const LIVE_KEY = `vk_live_${'a'.repeat(32)}`;
const PAGE = 'https://shop.example';

describe('CORS on POST /v1/sessions, for sandbox keys only', () => {
  let server: Server;
  let base: string;
  const reached: string[] = [];

  beforeAll(async () => {
    const app = express();
    app.use('/v1/sessions', sandboxCors('https://verify.example.com'));
    app.use('/v1/sessions', (req, res) => {
      reached.push(`${req.method} ${req.path}`);
      res.status(201).json({ ok: true });
    });
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- Express tells error middleware by its arity: the fourth parameter must be declared
    app.use((error: AppError, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(error.code === 'FORBIDDEN' ? 403 : 500).json({ error: { code: error.code, message: error.message } });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => reached.splice(0));

  const post = (headers: Record<string, string>, path = '/v1/sessions') =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: '{}',
    });

  it('grants a cross-origin preflight for POST with the key, JSON, Idempotency-Key and Authorization headers, without reaching the routes', async () => {
    const res = await fetch(`${base}/v1/sessions`, {
      method: 'OPTIONS',
      headers: {
        Origin: PAGE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-api-key,idempotency-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(allowed.sort()).toEqual(['authorization', 'content-type', 'idempotency-key', 'x-api-key']);
    expect(reached).toEqual([]);
  });

  it('lets a sandbox key through from another origin with the CORS headers and the rate-limit headers exposed', async () => {
    const res = await post({ Origin: PAGE, 'X-Api-Key': SANDBOX_KEY });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    expect(reached).toEqual(['POST /']);
  });

  it('refuses a production key from another origin with 403 FORBIDDEN and no CORS headers, before the routes run', async () => {
    const res = await post({ Origin: PAGE, 'X-Api-Key': LIVE_KEY });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(reached).toEqual([]);
  });

  it('leaves requests without an Origin (backends, curl) and from the API origin itself untouched, production keys included', async () => {
    const fromBackend = await post({ 'X-Api-Key': LIVE_KEY });
    const fromDocs = await post({ Origin: 'https://verify.example.com', 'X-Api-Key': LIVE_KEY });
    const sameHost = await post({ Origin: base, 'X-Api-Key': LIVE_KEY });
    expect([fromBackend.status, fromDocs.status, sameHost.status]).toEqual([201, 201, 201]);
    expect(fromBackend.headers.get('access-control-allow-origin')).toBeNull();
    expect(reached).toEqual(['POST /', 'POST /', 'POST /']);
  });

  it('answers CORS on the collection only: a session path or a missing key from another origin gets no CORS headers', async () => {
    const simulate = await post({ Origin: PAGE, 'X-Api-Key': SANDBOX_KEY }, '/v1/sessions/ses_x/simulate');
    const noKey = await post({ Origin: PAGE });
    expect(simulate.headers.get('access-control-allow-origin')).toBeNull();
    expect(noKey.headers.get('access-control-allow-origin')).toBeNull();
    expect(reached).toEqual(['POST /ses_x/simulate', 'POST /']);
  });
});
