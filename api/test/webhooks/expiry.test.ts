import { Redis } from 'ioredis';
import { waitFor } from '../../../scripts/stack/child-process';
import { JobQueueRepository } from '../../src/data-access/job-queue.repository';
import { expiryJobId, JOBS } from '../../src/jobs/job-names';
import { createSession, simulate } from '../../../scripts/test-support/sessions-api';
import { WebhookStack } from './support/webhook-stack';

/**
 * Expiry: a delayed job per session plus a periodic sweep, one schedule whatever the number of
 * workers; only PENDING / IN_PROGRESS sessions expire, at their deadline, and no webhook is sent.
 */
describe('session expiry', () => {
  let stack: WebhookStack;
  let redis: Redis;
  let queue: JobQueueRepository;
  const key = () => stack.account.sandbox_api_key;
  const newSession = () => createSession(stack.baseUrl, key(), stack.receiver.url());
  const statusOf = async (id: string) => (await stack.session(id))?.status;
  /** Brings a session's deadline to `inMs` from now, and its delayed job with it (or to `jobInMs`). */
  const dueIn = async (id: string, inMs: number, jobInMs = inMs) => {
    await stack.moveDeadline(id, new Date(Date.now() + inMs));
    await (await queue.expiry.getJob(expiryJobId(id)))!.changeDelay(jobInMs);
  };

  beforeAll(async () => {
    // The sweep is made rare so the delayed jobs are what is tested first.
    stack = await WebhookStack.start({ EXPIRY_SWEEP_INTERVAL_SECONDS: '3600' });
    await stack.startApi();
    redis = new Redis(stack.env.REDIS_URL);
    queue = new JobQueueRepository(redis, stack.env.REDIS_PREFIX);
    await stack.startWorker();
  });
  afterAll(async () => {
    await queue.close();
    redis.disconnect();
    await stack.stop();
  });

  it('schedules one delayed job at creation, due SESSION_EXPIRY_MINUTES (default 30) after creation', async () => {
    const id = await newSession();
    const session = await stack.session(id);
    const job = await queue.expiry.getJob(expiryJobId(id));
    expect(session!.expires_at.getTime() - session!.created_at.getTime()).toBe(30 * 60_000);
    expect(await job?.getState()).toBe('delayed');
    expect(Math.abs(job!.timestamp + job!.delay - session!.expires_at.getTime())).toBeLessThan(2_000);
    expect(job?.data).toEqual({ session_id: id });
  });

  it('expires PENDING and IN_PROGRESS sessions through their delayed job at the deadline, not before, with no webhook', async () => {
    const pending = await newSession();
    const started = await newSession();
    await fetch(`${stack.baseUrl}/v/${started}`); // the applicant opens the link: IN_PROGRESS
    expect(await statusOf(started)).toBe('IN_PROGRESS');
    const deadline = Date.now() + 1_500;
    await dueIn(pending, 1_500);
    await dueIn(started, 1_500);
    await new Promise((r) => setTimeout(r, 1_000));
    expect([await statusOf(pending), await statusOf(started)]).toEqual(['PENDING', 'IN_PROGRESS']);
    await waitFor(
      'both expired',
      async () => (await statusOf(pending)) === 'EXPIRED' && (await statusOf(started)) === 'EXPIRED',
      10_000,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(deadline);
    expect((await stack.session(pending))?.webhook_state).toBe('none');
    expect(stack.receiver.copies).toEqual([]);
  });

  it('puts a job that fires before the deadline back on the queue until it is due', async () => {
    const id = await newSession();
    await dueIn(id, 2_000, 0);
    await waitFor(
      'the early job to be delayed again',
      async () => (await (await queue.expiry.getJob(expiryJobId(id)))?.getState()) === 'delayed',
      5_000,
    );
    expect(await statusOf(id)).toBe('PENDING');
    await waitFor('expired once due', async () => (await statusOf(id)) === 'EXPIRED', 10_000);
  });

  it('leaves a decided session alone when its expiry job runs', async () => {
    const id = await newSession();
    expect(await simulate(stack.baseUrl, key(), id, 'FAILED')).toBe(200);
    await dueIn(id, 0);
    await waitFor(
      'the expiry job to finish',
      async () => (await (await queue.expiry.getJob(expiryJobId(id)))?.getState()) === 'completed',
      10_000,
    );
    expect(await statusOf(id)).toBe('FAILED');
  });

  it('expires through the periodic sweep a session whose delayed job was lost', async () => {
    const id = await newSession();
    await (await queue.expiry.getJob(expiryJobId(id)))!.remove();
    await stack.moveDeadline(id, new Date(Date.now() - 1_000));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await statusOf(id)).toBe('PENDING'); // no job, and the sweep is hourly so far
    await stack.startWorker({ EXPIRY_SWEEP_INTERVAL_SECONDS: '1' }); // upserts the one schedule to every second
    await waitFor('the sweep to expire it', async () => (await statusOf(id)) === 'EXPIRED', 10_000);
  });

  it('expires through the sweep a session stored before the in-flight collections existed, once a worker has taken it in', async () => {
    const id = await newSession();
    await (await queue.expiry.getJob(expiryJobId(id)))!.remove();
    // As an older version stored it: the session alone, no open-session entry, and no backfill done yet.
    await stack.store.collection('open_sessions').deleteOne({ _id: id as never });
    await stack.store.collection('store_migrations').deleteMany({});
    await stack.sessionModel.updateOne({ _id: id }, { $set: { expires_at: new Date(Date.now() - 1_000) } });
    await stack.startWorker({ EXPIRY_SWEEP_INTERVAL_SECONDS: '1' });
    await waitFor('the backfilled session to expire', async () => (await statusOf(id)) === 'EXPIRED', 15_000);
    // The backfill marks itself done after its last collection: the sweep may expire the session first.
    await waitFor(
      'the backfill to mark itself done',
      async () => (await stack.store.collection('store_migrations').countDocuments()) === 1,
      15_000,
    );
  });

  it('keeps exactly one schedule per sweep however many workers run', async () => {
    await stack.startWorker({ EXPIRY_SWEEP_INTERVAL_SECONDS: '1' });
    const schedulers = await queue.maintenance.getJobSchedulers();
    expect(schedulers.map((s) => s.key).sort()).toEqual([
      'billing-sweep',
      'capture-sweep',
      'expiry-sweep',
      'outbox-sweep',
      'retention-sweep',
    ]);
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 4_000));
    const finished = (await queue.maintenance.getJobs(['completed'], 0, 200)).filter(
      (j) => j.name === JOBS.sweepExpiry && (j.finishedOn ?? 0) > since,
    );
    // Three workers, one schedule: about one sweep a second, not three.
    expect(finished.length).toBeGreaterThanOrEqual(2);
    expect(finished.length).toBeLessThanOrEqual(5);
  });
});
