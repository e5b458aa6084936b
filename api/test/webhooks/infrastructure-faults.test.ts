import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../../../scripts/stack/child-process';
import { decideSession } from '../../src/domain/usecases/decide-session/decide-session.usecase';
import { createLogger } from '../../src/shared/logger';
import { startRedis } from '../../../scripts/stack/redis';
import { expectEveryDecisionDelivered } from './support/delivery-assertions';
import { ServiceProcess, startApiProcess } from '../../../scripts/test-support/service-process';
import { createSession, decideSessions, simulate } from '../../../scripts/test-support/sessions-api';
import { WebhookStack } from './support/webhook-stack';
import { stringMatching } from '../../../scripts/test-support/typed-matchers';

/**
 * Faults around the delivery path: Redis restarts, API restarts, and the API dying between the
 * decision write and the enqueue. Redis here is this file's own, so it can be restarted.
 */
describe('webhook delivery across Redis and API failures', () => {
  let redisDir: string;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let stack: WebhookStack;
  const key = () => stack.account.sandbox_api_key;

  beforeAll(async () => {
    redisDir = mkdtempSync(path.join(os.tmpdir(), 'bv-webhooks-redis-'));
    redis = await startRedis(redisDir);
    stack = await WebhookStack.start({ REDIS_URL: redis.url });
    await stack.startWorker();
  });
  afterAll(async () => {
    await stack.stop();
    await redis.process.stop();
    rmSync(redisDir, { recursive: true, force: true });
  });

  it('delivers every decision across a Redis restart, and answers 503 rather than decide while Redis is down', async () => {
    const baseUrl = await stack.startApi();
    stack.receiver.reply = () => ({ delayMs: 1_000, status: 200 });
    const before = await decideSessions(baseUrl, key(), stack.receiver.url(), 4);
    const open = await createSession(baseUrl, key(), stack.receiver.url());
    await waitFor('a delivery in flight', () => stack.receiver.copies.length > 0);
    expect(before.every((id) => stack.receiver.acknowledged(id))).toBe(false); // mid-run: not all answered yet
    await redis.process.stop();
    expect(await simulate(baseUrl, key(), open)).toBe(503);
    expect((await stack.session(open))?.status).toBe('PENDING');
    redis = await startRedis(redisDir, redis.port);
    await waitFor('the API to see Redis again', async () => (await simulate(baseUrl, key(), open)) === 200, 20_000);
    const after = await decideSessions(baseUrl, key(), stack.receiver.url(), 3);
    await expectEveryDecisionDelivered(stack, [...before, open, ...after]);
    await stack.api?.stop();
    stack.api = null;
  });

  it('delivers every decision across an API restart', async () => {
    let api: ServiceProcess = await startApiProcess(stack.env);
    const url = () => `http://127.0.0.1:${api.port}`;
    stack.receiver.reply = () => 200;
    const first = await decideSessions(url(), key(), stack.receiver.url(), 2);
    expect(await api.kill('SIGTERM')).toBe(0);
    api = await startApiProcess(stack.env, undefined, 'api-restarted', api.port);
    const second = await decideSessions(url(), key(), stack.receiver.url(), 2);
    await expectEveryDecisionDelivered(stack, [...first, ...second]);
    await api.kill('SIGTERM');
  });

  it('delivers a decision whose API was killed after the store write and before the enqueue (outbox sweep)', async () => {
    const healthy = await startApiProcess(stack.env);
    const id = await createSession(`http://127.0.0.1:${healthy.port}`, key(), stack.receiver.url());
    await healthy.kill('SIGTERM');
    const victim = await startApiProcess(
      stack.env,
      path.join(__dirname, 'support/api-dies-before-enqueue.ts'),
      'api-victim',
    );
    await expect(simulate(`http://127.0.0.1:${victim.port}`, key(), id)).rejects.toThrow();
    await victim.exited;
    expect(victim.child.signalCode).toBe('SIGKILL');
    const written = await stack.session(id);
    expect(written).toMatchObject({
      status: 'VERIFIED',
      webhook_state: stringMatching(/pending|delivered/),
    });
    await expectEveryDecisionDelivered(stack, [id]);
  });

  it('delivers a decision whose writer died after claiming the transition and before writing the session', async () => {
    const api = await startApiProcess(stack.env);
    const id = await createSession(`http://127.0.0.1:${api.port}`, key(), stack.receiver.url());
    await api.kill('SIGTERM');
    const session = (await stack.session(id))!;
    // What the API does up to its claim; then it "dies": the claim holds the decision, the session does not.
    const died = decideSession(
      {
        queue: { assertWritable: () => Promise.resolve(), enqueueWebhook: () => Promise.resolve() },
        clock: { now: () => new Date() },
        logger: createLogger('silent'),
      },
      session,
      {
        status: 'VERIFIED',
        failure_reason: null,
        checks: { document: 'PASS', liveness: 'PASS', antispoof: 'PASS', face_match: 'PASS' },
        confidence: 0.9,
        person: null,
        document_expiry: null,
      },
      async (from, update) => {
        await stack.sessions.claims.create({
          _id: `${id}:${from[0]}`,
          session_id: id,
          from: from[0],
          to: update.status,
          update,
          claimed_at: new Date(Date.now() - 11_000),
        });
        throw new Error('the writer died here');
      },
    );
    await expect(died).rejects.toThrow('died');
    expect((await stack.session(id))?.status).toBe('PENDING');
    await expectEveryDecisionDelivered(stack, [id]);
    expect((await stack.session(id))?.status).toBe('VERIFIED');
  });
});
