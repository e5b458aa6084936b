import { Redis } from 'ioredis';
import { waitFor } from '../../../scripts/stack/child-process';
import { JOB_RETENTION, JobQueueRepository } from '../../src/data-access/job-queue.repository';
import { QUEUES, webhookJobId } from '../../src/jobs/job-names';
import { expectEveryDecisionDelivered } from './support/delivery-assertions';
import { createSession, decideSessions, simulate } from '../../../scripts/test-support/sessions-api';
import { WebhookStack } from './support/webhook-stack';

/**
 * Faults on the delivery path, against the real store, real Redis and real worker processes:
 * each scenario ends with every decided session delivered with valid signatures, copies sharing
 * one webhook-id, and the store showing the delivery.
 */
describe('webhook delivery under faults', () => {
  let stack: WebhookStack;
  const key = () => stack.account.sandbox_api_key;
  const decide = (count: number) => decideSessions(stack.baseUrl, key(), stack.receiver.url(), count);

  beforeAll(async () => {
    // 0.5 s between retries leaves time to bring a receiver back between the second and third attempt.
    stack = await WebhookStack.start({ WEBHOOK_RETRY_INTERVAL_SECONDS: '0.5' });
    await stack.startApi();
  });
  afterAll(() => stack.stop());

  it('retries after a 500 and stops at the 200, with the same webhook-id and a linear wait', async () => {
    await stack.startWorker();
    stack.receiver.reply = (_copy, nth) => (nth === 0 ? 500 : 200);
    const ids = await decide(4);
    await expectEveryDecisionDelivered(stack, ids);
    for (const id of ids) {
      const copies = stack.receiver.copiesOf(id);
      expect(copies.map((c) => c.answered)).toEqual([500, 200]);
      expect(copies[1].at - copies[0].at).toBeGreaterThanOrEqual(450);
      const attempts = await stack.deliveryLog.listForSession(id);
      expect(attempts.map((a) => [a.attempt, a.status_code, a.result])).toEqual([
        [1, 500, 'retry_scheduled'],
        [2, 200, 'delivered'],
      ]);
    }
    const metrics = await fetch(`http://127.0.0.1:${stack.workers[0].port}/metrics`).then((r) => r.text());
    const deliveries = (outcome: string) =>
      Number(
        new RegExp(`^bioverify_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(metrics)?.[1],
      );
    expect({ retried: deliveries('retry_scheduled'), delivered: deliveries('delivered') }).toEqual({
      retried: ids.length,
      delivered: ids.length,
    });
    const depths = [...metrics.matchAll(/^bioverify_queue_jobs\{queue="([^"]+)",state="waiting"\} (\d+)/gm)].map(
      ([, queue]) => queue,
    );
    expect(depths.sort()).toEqual(Object.values(QUEUES).sort());
    expect(metrics).toMatch(/^bioverify_webhook_outbox_pending \d+$/m);
  });

  it('delivers to a receiver that was down for longer than the first retry', async () => {
    stack.receiver.reply = () => 200;
    await stack.receiver.stop();
    const ids = await decide(3);
    await waitFor('two refused attempts per session', async () => {
      const failed = await stack.deliveryLog.model.countDocuments({
        session_id: { $in: ids },
        result: 'retry_scheduled',
      });
      return failed >= 2 * ids.length;
    });
    await stack.receiver.start();
    await expectEveryDecisionDelivered(stack, ids);
    for (const id of ids) {
      const attempts = await stack.deliveryLog.listForSession(id);
      expect(
        attempts.filter((a) => a.status_code === null && /ECONNREFUSED/.test(a.error ?? '')).length,
      ).toBeGreaterThanOrEqual(2);
    }
  });

  it('hands a delivery whose worker was killed with SIGKILL mid-request to another worker', async () => {
    await Promise.all(stack.workers.splice(0).map((w) => w.kill('SIGTERM')));
    const victim = await stack.startWorker();
    stack.receiver.reply = (_copy, nth) => (nth === 0 ? 'hang' : 200);
    const ids = await decide(3);
    await waitFor('every first copy in flight', () => ids.every((id) => stack.receiver.copiesOf(id).length === 1));
    await victim.kill('SIGKILL');
    await stack.startWorker();
    await expectEveryDecisionDelivered(stack, ids);
    for (const id of ids) expect(stack.receiver.copiesOf(id).length).toBeGreaterThanOrEqual(2);
  });

  it('lets a worker given SIGTERM during a delivery finish it, then exit cleanly', async () => {
    const draining = stack.workers[stack.workers.length - 1];
    stack.receiver.reply = (_copy, nth) => (nth === 0 ? { delayMs: 1_500, status: 200 } : 200);
    const ids = await decide(2);
    await waitFor('both deliveries in flight', () => ids.every((id) => stack.receiver.copiesOf(id).length === 1));
    const code = await draining.kill('SIGTERM');
    expect(code).toBe(0);
    // Settled before the process was gone: it finished the work rather than dropping it.
    const states = await Promise.all(ids.map((id) => stack.webhookState(id)));
    expect(states).toEqual(['delivered', 'delivered']);
    await stack.startWorker();
    await expectEveryDecisionDelivered(stack, ids);
  });

  it('turns 50 concurrent completions of one session into one transition and one delivery', async () => {
    stack.receiver.reply = () => 200;
    const id = await createSession(stack.baseUrl, key(), stack.receiver.url());
    const statuses = await Promise.all(Array.from({ length: 50 }, () => simulate(stack.baseUrl, key(), id)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    await expectEveryDecisionDelivered(stack, [id]);
    await new Promise((r) => setTimeout(r, 2_500)); // two outbox sweeps: they must not send it again
    expect(stack.receiver.copiesOf(id)).toHaveLength(1);
    expect(await stack.deliveryLog.listForSession(id)).toHaveLength(1);
  });

  it('keeps only ids in Redis, and finished jobs under a bounded retention', async () => {
    const [id] = await decide(1);
    await expectEveryDecisionDelivered(stack, [id]);
    const redis = new Redis(stack.env.REDIS_URL);
    const queue = new JobQueueRepository(redis, stack.env.REDIS_PREFIX);
    try {
      const session = await stack.session(id);
      const job = await queue.webhooks.getJob(webhookJobId(id, session!.status));
      expect(job?.data).toEqual({ session_id: id, round: 0, session_attempt: 1 });
      expect(job?.opts.removeOnComplete).toEqual(JOB_RETENTION.removeOnComplete);
      const keys = await redis.keys(`${stack.env.REDIS_PREFIX}:*`);
      const dump = (
        await Promise.all(
          keys.map(async (k) => ((await redis.type(k)) === 'hash' ? JSON.stringify(await redis.hgetall(k)) : '')),
        )
      ).join('\n');
      expect(dump).toContain(id);
      for (const personal of ['Jane Doe', 'De Bruijn', 'expected_name', 'person', 'metadata', 'whsec_'])
        expect(dump).not.toContain(personal);
    } finally {
      await queue.close();
      redis.disconnect();
    }
  });
});
