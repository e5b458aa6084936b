import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { waitFor } from '../../../scripts/stack/child-process';
import { startRedis } from '../../../scripts/stack/redis';
import { ServiceProcess } from '../../../scripts/test-support/service-process';
import { WebhookStack } from './support/webhook-stack';
import type { ApiError, Readiness } from '../support/api-bodies';
import { stringMatching } from '../../../scripts/test-support/typed-matchers';

/**
 * API and workers are not ready while Redis is unreachable or could evict jobs
 * (maxmemory-policy other than noeviction), and the API answers 503 instead of accepting a
 * transition it could not enqueue.
 */
describe('readiness against the queue', () => {
  let redisDir: string;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let admin: Redis;
  let stack: WebhookStack;
  let worker: ServiceProcess;
  // BullMQ itself warns about the policy on connect (expected here); keep the output clean.
  const bullmqWarning = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const readyz = async (base: string) => {
    const res = await fetch(`${base}/readyz`);
    return { status: res.status, body: (await res.json()) as Readiness };
  };
  const apiUrl = () => stack.baseUrl;
  const workerUrl = () => `http://127.0.0.1:${worker.port}`;
  const createSession = () =>
    fetch(`${stack.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'X-Api-Key': stack.account.sandbox_api_key, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        return_url: 'https://example.com/done',
        webhook_url: stack.receiver.url(),
        expected_name: 'Jane Doe',
      }),
    });

  beforeAll(async () => {
    redisDir = mkdtempSync(path.join(os.tmpdir(), 'bv-readiness-redis-'));
    redis = await startRedis(redisDir);
    admin = new Redis(redis.url, { maxRetriesPerRequest: null });
    admin.on('error', () => undefined);
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    stack = await WebhookStack.start({ REDIS_URL: redis.url });
    await stack.startApi();
    worker = await stack.startWorker({}, 'alive');
  });
  afterAll(async () => {
    bullmqWarning.mockRestore();
    admin.disconnect();
    await stack.stop();
    await redis.process.stop();
    rmSync(redisDir, { recursive: true, force: true });
  });

  it('reports not ready, naming the eviction policy, and refuses to create a session with 503', async () => {
    const api = await readyz(apiUrl());
    expect(api.status).toBe(503);
    expect(api.body.checks.queue).toEqual({
      ok: false,
      error: stringMatching(/maxmemory-policy is allkeys-lru.*noeviction/),
    });
    const work = await readyz(workerUrl());
    expect(work.status).toBe(503);
    expect(work.body.checks.queue.error).toMatch(/noeviction/);
    const res = await createSession();
    expect(res.status).toBe(503);
    expect(((await res.json()) as ApiError).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await stack.sessionModel.countDocuments()).toBe(0);
  });

  it('becomes ready once the policy is noeviction', async () => {
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    expect((await readyz(apiUrl())).status).toBe(200);
    expect((await readyz(workerUrl())).status).toBe(200);
    expect((await createSession()).status).toBe(201);
  });

  it('reports not ready while Redis is unreachable, and ready again after it returns', async () => {
    await redis.process.stop();
    await waitFor('API not ready', async () => (await readyz(apiUrl())).status === 503, 10_000);
    await waitFor('worker not ready', async () => (await readyz(workerUrl())).status === 503, 10_000);
    expect((await createSession()).status).toBe(503);
    redis = await startRedis(redisDir, redis.port);
    await waitFor('API ready', async () => (await readyz(apiUrl())).status === 200, 15_000);
    await waitFor('worker ready', async () => (await readyz(workerUrl())).status === 200, 15_000);
  });
});
